// Preload for the Dawn reference runner (node --import):
//   node --import ./tests/tools/dawn_device.mjs $PEER/run_dawn.mjs CASE.json --out R.json
// (and in the same way for tests/tools/dawn_textures.mjs, the runner for
// cases with textures).
//
// The runner creates its device with requestDevice() and no limits, which on
// Dawn's compatibility feature level means at most 128 invocations per
// workgroup. lockstep's cases are written against the WebGPU core defaults,
// plus the case-format extensions "device": { "requiredLimits": { ... },
// "requiredFeatures": [ ... ] }.
// This preload makes the runner's requestDevice ask for
//   1. the core default of each compute limit that compatibility lowers
//      (CORE_DEFAULTS below; the adapter offers all of them), then
//   2. the case's own device.requiredLimits, which override (1);
// and for the case's device.requiredFeatures (e.g. "shader-f16"). It
// changes nothing else. What it requested is printed on stderr.
import fs from 'node:fs';
import { importPeer } from './peer.mjs';

const CORE_DEFAULTS = {
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxStorageBuffersPerShaderStage: 8,
  maxUniformBufferBindingSize: 65536,
};

// The case is the runner's first argument that is not an option value.
function casePath(argv) {
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--out') { i++; continue; }
    if (argv[i].endsWith('.json') && !argv[i].endsWith('run_dawn.mjs')) return argv[i];
  }
  return null;
}

const cp = casePath(process.argv);
let caseLimits = {};
let caseFeatures = [];
if (cp) {
  try {
    const dev = JSON.parse(fs.readFileSync(cp, 'utf8')).device;
    caseLimits = dev?.requiredLimits ?? {};
    caseFeatures = dev?.requiredFeatures ?? [];
  } catch { /* runner reports it */ }
}
const requested = process.env.LOCKSTEP_DAWN_NO_CORE_DEFAULTS ? { ...caseLimits } : { ...CORE_DEFAULTS, ...caseLimits };

const { globals } = await importPeer('node_modules/webgpu/index.js');
const proto = globals.GPUAdapter.prototype;
const original = proto.requestDevice;
proto.requestDevice = function (desc = {}) {
  const requiredLimits = { ...requested, ...(desc.requiredLimits ?? {}) };
  const requiredFeatures = [...new Set([...(desc.requiredFeatures ?? []), ...caseFeatures])];
  process.stderr.write(`dawn_device: requestDevice requiredLimits ${JSON.stringify(requiredLimits)}\n`);
  if (requiredFeatures.length)
    process.stderr.write(`dawn_device: requestDevice requiredFeatures ${JSON.stringify(requiredFeatures)}\n`);
  return original.call(this, { ...desc, requiredLimits, requiredFeatures });
};
