#!/usr/bin/env node
// capture_real.mjs — records the operations of TensorFlow.js (ops.mjs, its
// WebGPU backend) or onnxruntime-web (ops_ort.mjs, its WebGPU execution
// provider) on lockstep or on Dawn, one case file per operation (a span
// from the run's first command to its last read), and beside each the
// outputs of the library's CPU backend (tfjs's cpu, onnxruntime's wasm) for
// the same inputs (NAME.cpu.json: one list of numbers per read, in order).
//
//   node capture_real.mjs --lib tfjs|ort --impl lockstep|dawn --out DIR --modules NODE_MODULES
//                         [--set small|all] [--only NAME]
//
// NODE_MODULES holds @tensorflow/tfjs-core, -backend-webgpu, -backend-cpu and
// onnxruntime-web (run_real.sh installs them into the build tree). Shims for
// Node: navigator.gpu (the recorder's wrap of the implementation's GPU); on
// Dawn, requestAdapter asks for the "compatibility" feature level (the only
// one Mesa's llvmpipe gives Dawn) and requestDevice for WebGPU core's
// compute limits, which both libraries expect; onnxruntime-web: below.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { OPS } from './ops.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(HERE, '..', '..', '..');
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i < 0 ? d : args[i + 1]; };
const implName = opt('--impl', 'lockstep');
const out = path.resolve(opt('--out', 'captures'));
const modules = path.resolve(opt('--modules', 'node_modules'));
const set = opt('--set', 'small');
const only = opt('--only', null);
const libName = opt('--lib', 'tfjs');

const req = createRequire(path.join(modules, 'x.js'));
const capture = createRequire(import.meta.url)(path.join(PKG, 'capture.js'));
const { loadImpl } = await import(path.join(PKG, 'tools', 'replay.mjs'));
const impl = await loadImpl(implName);

let gpu = impl.create(impl.flags);
if (impl.featureLevel === 'compatibility') {
  const level = impl.featureLevel;
  const orig = gpu.requestAdapter.bind(gpu);
  gpu.requestAdapter = (o = {}) => orig({ ...o, featureLevel: level }).then((a) => {
    if (!a) return a;
    const rd = a.requestDevice.bind(a);
    a.requestDevice = (d = {}) => rd({ ...d, requiredLimits: { maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256,
      maxStorageBuffersPerShaderStage: 8, ...(d.requiredLimits ?? {}) } });
    return a;
  });
} else {
  // lockstep offers shader-f16, Dawn on llvmpipe does not: without it on
  // both, the libraries write the same shaders and each capture replays on
  // the other implementation.
  const orig = gpu.requestAdapter.bind(gpu);
  gpu.requestAdapter = (o = {}) => orig(o).then((a) => {
    if (!a) return a;
    const rd = a.requestDevice.bind(a);
    a.requestDevice = (d = {}) => rd({ ...d, requiredFeatures: [...(d.requiredFeatures ?? [])].filter((f) => f !== 'shader-f16') });
    const features = new Set([...a.features].filter((f) => f !== 'shader-f16'));
    Object.defineProperty(a, 'features', { value: features, configurable: true });
    return a;
  });
}
fs.mkdirSync(out, { recursive: true });
gpu = capture.wrapGPU(gpu, { dir: out, mode: 'span', implementation: impl.name });
Object.assign(globalThis, impl.globals);
globalThis.navigator ??= {};
Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });

// Each library: its operations, its device, a run on its CPU backend and
// one on WebGPU; a run gives the outputs the program reads, in read order.
async function tfjsLibrary() {
  const tf = req('@tensorflow/tfjs-core');
  req('@tensorflow/tfjs-backend-cpu');
  req('@tensorflow/tfjs-backend-webgpu');
  // every op on the GPU, however small (tfjs runs small ops on the CPU otherwise)
  tf.env().set('WEBGPU_CPU_FORWARD', false);
  if (!(await tf.setBackend('webgpu'))) throw new Error('capture_real: the tfjs webgpu backend did not start');
  await tf.ready();
  const read = async (ys) => { const out = []; for (const y of ys) out.push({ dtype: y.dtype, data: Array.from(await y.data()) }); return out; };
  return {
    ops: OPS, device: () => tf.backend().device,
    cpu: async (op) => { await tf.setBackend('cpu'); const r = await read(op.run(tf)); await tf.setBackend('webgpu'); return r; },
    gpu: async (op) => read(op.run(tf)),
  };
}

// onnxruntime-web's WebGPU build is marked browser-only in its package
// exports; in Node it runs from its file, with the WebAssembly part handed
// over as bytes (Node's fetch does not read file: URLs) and one thread.
async function ortLibrary() {
  const { ORT_OPS } = await import('./ops_ort.mjs');
  const dist = path.join(modules, 'onnxruntime-web', 'dist');
  const ort = await import(path.join(dist, 'ort.webgpu.bundle.min.mjs'));
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmBinary = fs.readFileSync(path.join(dist, 'ort-wasm-simd-threaded.jsep.wasm'));
  ort.env.logLevel = 'error';
  const sessions = new Map();
  const read = async (session, op) => {
    const { feeds, fetches } = op.run(ort);
    const r = await session.run(feeds, fetches);
    return fetches.map((k) => ({ dtype: r[k].type, data: Array.from(r[k].data, Number) }));
  };
  return {
    ops: ORT_OPS, device: () => ort.env.webgpu.device,
    cpu: async (op) => read(await ort.InferenceSession.create(op.run(ort).model, { executionProviders: ['wasm'] }), op),
    gpu: async (op) => {
      if (!sessions.has(op.name)) sessions.set(op.name, await ort.InferenceSession.create(op.run(ort).model, { executionProviders: ['webgpu'] }));
      return read(sessions.get(op.name), op);
    },
  };
}

const lib = await (libName === 'ort' ? ortLibrary() : tfjsLibrary());
const ops = lib.ops.filter((o) => (set === 'all' || o.small) && (!only || o.name === only));
let rec = null;
for (const op of ops) {
  // the CPU backend's answer first, from the same inputs
  const cpu = await lib.cpu(op);
  // a warm-up run compiles the pipelines outside the span
  await lib.gpu(op);
  rec ??= capture.recorderOf(lib.device());
  if (!rec) throw new Error(`capture_real: the ${libName} device is not recorded`);
  rec.begin(op.name);
  await lib.gpu(op);
  // the reads' word types and check_real's rule, for lockstep run --expect
  const file = await rec.end({ readbacks: cpu.map((x) => (x.dtype === 'float32'
    ? { type: 'f32', compare: { mode: 'float', ulp: 16, abs: 1e-5 } } : { type: 'i32' })) });
  if (!file) throw new Error(`capture_real: ${op.name}: nothing was written (${rec.errors.join('; ')})`);
  fs.writeFileSync(path.join(out, `${op.name}.cpu.json`), JSON.stringify({ dtypes: cpu.map((x) => x.dtype), outputs: cpu.map((x) => x.data) }) + '\n');
  console.log(`${implName}: ${op.name}: ${path.basename(file)}`);
}
await rec.flush();
if (rec.errors.length) { console.error(rec.errors.join('\n')); process.exit(1); }
process.exit(0);
