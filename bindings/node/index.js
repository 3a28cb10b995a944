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

const { load } = require('./lib/loader.js');
const { native, addonPath } = load('native.js');
const { parseFlags, flagsFromEnv } = load('flags.js');
const { globals } = load('globals.js');
const { kToken } = load('base.js');

function create(flags = []) {
  return new globals.GPU(kToken, parseFlags(flags));
}

function lockstep(device) {
  if (!(device instanceof globals.GPUDevice)) throw new TypeError('lockstep(device): not a GPUDevice');
  return device[Symbol.for('lockstep')];
}

module.exports = { create, globals, lockstep, flagsFromEnv, version: native.version(), addonPath };
