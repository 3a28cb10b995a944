// Which WebGPU implementation the seed tests, the Dawn comparison and the
// front-door benchmark drive. They are plain WebGPU JavaScript, so the same
// code runs on lockstep's Node binding and on Dawn's npm `webgpu` package;
// this module is the only place that knows how to load either.
//
//   LOCKSTEP_JS_PROVIDER=lockstep   (default) bindings/node of this checkout
//   LOCKSTEP_JS_PROVIDER=dawn       npm `webgpu` from ../shared/peers/setup.sh
//   LOCKSTEP_JS_PROVIDER=/a/path    any module with dawn.node's contract
//                                   (create(flags) -> GPU, globals)
//
// Each provider lists the configurations a test runs in. lockstep's are the
// subgroup widths 32, 8 and 64 and the sanitizer (`check`): a race-free
// program must give the same bytes in all of them. Dawn has one: its OpenGL
// ES backend on Mesa's llvmpipe at feature level "compatibility" (the only
// one that backend offers).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BINDING_DIR = path.resolve(HERE, '../..');

export const LOCKSTEP_CONFIGS = [
  { name: 'W=32', flags: ['subgroup-size=32'] },
  { name: 'W=8', flags: ['subgroup-size=8'] },
  { name: 'W=64', flags: ['subgroup-size=64'] },
  { name: 'check', flags: ['subgroup-size=32', 'check'] },
];

export function dawnDir() {
  return process.env.LOCKSTEP_PEER_DIR || path.join(os.homedir(), '.cache', 'lockstep-peer');
}

// Where a provider's module is and how it loads, without loading it: the
// front-door benchmark's children load it themselves, inside their clock.
export function entryOf(which = process.env.LOCKSTEP_JS_PROVIDER || 'lockstep') {
  if (which === 'dawn')
    return { name: 'dawn', entry: path.join(dawnDir(), 'node_modules', 'webgpu', 'index.js'), esm: true,
      featureLevel: 'compatibility', flags: ['backend=opengles'] };
  const entry = which === 'lockstep' ? BINDING_DIR : path.resolve(which);
  return { name: which === 'lockstep' ? 'lockstep' : path.basename(entry), entry, esm: false, featureLevel: 'core', flags: [] };
}

// Dawn's package is an ES module; its native part needs EGL's surfaceless
// platform on a machine without a display.
async function loadDawn() {
  const { entry, featureLevel, flags } = entryOf('dawn');
  if (!fs.existsSync(entry))
    return { name: 'dawn', missing: `Dawn (npm webgpu) is not installed in ${dawnDir()}; ` +
      'run ../shared/peers/setup.sh to install it' };
  process.env.EGL_PLATFORM ??= 'surfaceless';
  const mod = await import(pathToFileURL(entry).href);
  // dawn.node's adapters and devices reach their instance through a plain
  // pointer owned by the GPU object, so a GPU that the garbage collector
  // takes while one of its promises is pending leaves Dawn processing
  // events of a freed instance (a SIGSEGV in InstanceBase::ProcessEvents,
  // seen under AddressSanitizer). Every GPU made here lives as long as the
  // process.
  const kept = [];
  const create = (flags) => {
    const gpu = mod.create(flags);
    kept.push(gpu);
    return gpu;
  };
  return {
    name: 'dawn',
    create,
    globals: mod.globals,
    featureLevel,
    configs: [{ name: 'dawn', flags }],
  };
}

function loadContract(name, where) {
  let mod;
  try {
    mod = createRequire(import.meta.url)(where);
  } catch (e) {
    return { name, missing: `cannot load ${where}: ${e.message.split('\n')[0]}` };
  }
  if (typeof mod.create !== 'function' || !mod.globals)
    return { name, missing: `${where} does not export create(flags) and globals` };
  return {
    name,
    create: mod.create,
    globals: mod.globals,
    featureLevel: 'core',
    // lockstep's binding (from this checkout or a path) exports its own
    // channel, lockstep(device), besides dawn.node's contract.
    configs: typeof mod.lockstep === 'function' ? LOCKSTEP_CONFIGS : [{ name: 'default', flags: [] }],
  };
}

// Loads the provider named by `which` (default: LOCKSTEP_JS_PROVIDER, else
// lockstep). The result has `missing` (a sentence) when it cannot be used;
// tests skip with that sentence.
export async function loadProvider(which = process.env.LOCKSTEP_JS_PROVIDER || 'lockstep') {
  if (which === 'dawn') return loadDawn();
  if (which === 'lockstep') return loadContract('lockstep', BINDING_DIR);
  const where = path.resolve(which);
  const p = loadContract(path.basename(where), where);
  if (p.configs === LOCKSTEP_CONFIGS) p.name = 'lockstep';
  return p;
}
