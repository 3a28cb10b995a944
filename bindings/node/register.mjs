// register.mjs — `node --import lockstep-webgpu/register app.mjs`: installs
// navigator.gpu (lockstep, with the settings of LOCKSTEP_SUBGROUP_SIZE,
// LOCKSTEP_PROFILE, LOCKSTEP_THREADS, LOCKSTEP_CHECK, LOCKSTEP_PROF,
// LOCKSTEP_PROF_JSON, LOCKSTEP_BUDGET, LOCKSTEP_CAPTURE and the rest of docs/node.md's table) and the WebGPU globals, so that a
// browser-style script runs unchanged.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { create, globals, flagsFromEnv } = require('./index.js');

const gpu = create(flagsFromEnv());
for (const [k, v] of Object.entries(globals)) {
  Object.defineProperty(globalThis, k, { value: v, writable: true, configurable: true, enumerable: false });
}
if (globalThis.navigator === undefined) {
  Object.defineProperty(globalThis, 'navigator', { value: {}, writable: true, configurable: true });
}
Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, writable: true, configurable: true, enumerable: true });
