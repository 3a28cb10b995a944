'use strict';
// lockstep-webgpu - navigator.gpu for Node.js on lockstep, the WebGPU compute
// model on the CPU. The contract is dawn.node's (npm `webgpu`):
//
//   const { create, globals } = require('lockstep-webgpu');
//   Object.assign(globalThis, globals);
//   const gpu = create(['subgroup-size=8', 'check']);
//   const adapter = await gpu.requestAdapter();
//
// lockstep(device) (also device[Symbol.for('lockstep')]) is lockstep's own
// channel: sanitizer findings, warnings, profiles. docs/node.md has it all.
// create(['capture=DIR']) (LOCKSTEP_CAPTURE=DIR for register) records the
// compute work as case files; require('lockstep-webgpu/capture') is the
// recorder and replayer for any implementation.

const { load } = require('./lib/loader.js');
const { native, addonPath } = load('native.js');
const { parseFlags, flagsFromEnv } = load('flags.js');
const { globals } = load('globals.js');
const { kToken } = load('base.js');

function create(flags = []) {
  const options = parseFlags(flags);
  const gpu = new globals.GPU(kToken, options);
  if (options.capture === undefined) return gpu;
  // capture=DIR: the recorder of lockstep-webgpu/capture on every device
  const { wrapGPU } = require('./lib/capture/recorder.js');
  return wrapGPU(gpu, { dir: options.capture, mode: options.captureMode, implementation: `lockstep ${native.version()}` });
}

function lockstep(device) {
  if (!(device instanceof globals.GPUDevice)) throw new TypeError('lockstep(device): not a GPUDevice');
  return device[Symbol.for('lockstep')];
}

module.exports = { create, globals, lockstep, flagsFromEnv, version: native.version(), addonPath };
