'use strict';
// lockstep-webgpu/capture — records the compute work of a WebGPU program as
// version-2 case files (docs/case-format.md), on lockstep or on any other
// implementation (Dawn's npm `webgpu`, a browser's), and replays such cases
// through any implementation. It needs no part of lockstep's addon.
//
//   const capture = require('lockstep-webgpu/capture');
//   capture.wrapGPU(gpu, { dir: 'captures' });       // every device of gpu records
//   capture.wrapDevice(device, { dir, mode: 'span' });
//   const rec = capture.recorderOf(device);
//   rec.begin('matmul'); ...; await rec.end();      // a named span
//   await rec.flush();                              // everything written
//
// docs/node.md ("Capture and replay") describes the files and the rules.

const { Recorder, wrapDevice, wrapGPU, recorderOf } = require('./lib/capture/recorder.js');
const { loadCase, replay } = require('./lib/capture/replay.js');

module.exports = { Recorder, wrapDevice, wrapGPU, recorderOf, loadCase, replay };
