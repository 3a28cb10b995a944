'use strict';
// lockstep-webgpu — navigator.gpu for Node.js on lockstep, the WebGPU compute
// model on the CPU. The contract is dawn.node's (npm `webgpu`):
//
//   const { create, globals } = require('lockstep-webgpu');
//   Object.assign(globalThis, globals);
//   const gpu = create(['subgroup-size=8', 'check']);
//   const adapter = await gpu.requestAdapter();
//
// lockstep(device) (also device[Symbol.for('lockstep')]) is lockstep's own
// channel: sanitizer findings, warnings, profiles. docs/node.md has it all.

const { native, addonPath } = require('./lib/native.js');
const { parseFlags, flagsFromEnv } = require('./lib/flags.js');
const { globals } = require('./lib/globals.js');
const { kToken } = require('./lib/base.js');

function create(flags = []) {
  return new globals.GPU(kToken, parseFlags(flags));
}

function lockstep(device) {
  if (!(device instanceof globals.GPUDevice)) throw new TypeError('lockstep(device): not a GPUDevice');
  return device[Symbol.for('lockstep')];
}

module.exports = { create, globals, lockstep, flagsFromEnv, version: native.version(), addonPath };
