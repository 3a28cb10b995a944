#!/usr/bin/env node
// capture_real.mjs — records TensorFlow.js operations (ops.mjs) run by its
// WebGPU backend on lockstep or on Dawn, one case file per operation (a
// span from the op's first command to its last data() read), and beside
// each the outputs of TensorFlow.js's CPU backend for the same inputs
// (NAME.cpu.json: one list of numbers per read, in read order).
//
//   node capture_real.mjs --impl lockstep|dawn --out DIR --modules NODE_MODULES [--set small|all] [--only NAME]
//
// NODE_MODULES holds @tensorflow/tfjs-core, -backend-webgpu and -backend-cpu
// (run_real.sh installs them into the build tree). Shims for Node: none are
// needed on lockstep; on Dawn, requestAdapter is asked for the
// "compatibility" feature level (the only one Mesa's llvmpipe gives Dawn)
// and the compute limits of WebGPU core, which tfjs expects.
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

const req = createRequire(path.join(modules, 'x.js'));
const capture = createRequire(import.meta.url)(path.join(PKG, 'capture.js'));
const { loadImpl } = await import(path.join(PKG, 'tools', 'replay.mjs'));
const impl = await loadImpl(implName);

let gpu = impl.create(impl.flags);
if (impl.featureLevel) {
  const level = impl.featureLevel;
  const orig = gpu.requestAdapter.bind(gpu);
  gpu.requestAdapter = (o = {}) => orig({ ...o, featureLevel: level }).then((a) => {
    if (!a) return a;
    const rd = a.requestDevice.bind(a);
    a.requestDevice = (d = {}) => rd({ ...d, requiredLimits: { maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256,
      maxStorageBuffersPerShaderStage: 8, ...(d.requiredLimits ?? {}) } });
    return a;
  });
}
fs.mkdirSync(out, { recursive: true });
gpu = capture.wrapGPU(gpu, { dir: out, mode: 'span', implementation: impl.name });
Object.assign(globalThis, impl.globals);
globalThis.navigator ??= {};
Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });

const tf = req('@tensorflow/tfjs-core');
req('@tensorflow/tfjs-backend-cpu');
req('@tensorflow/tfjs-backend-webgpu');
// every op on the GPU, however small (tfjs runs small ops on the CPU otherwise)
tf.env().set('WEBGPU_CPU_FORWARD', false);
if (!(await tf.setBackend('webgpu'))) throw new Error('capture_real: the tfjs webgpu backend did not start');
await tf.ready();
const backend = tf.backend();
const rec = capture.recorderOf(backend.device);
if (!rec) throw new Error('capture_real: the tfjs device is not recorded');

const ops = OPS.filter((o) => (set === 'all' || o.small) && (!only || o.name === only));
for (const op of ops) {
  // the CPU backend's answer first, from the same inputs
  await tf.setBackend('cpu');
  const cpu = [];
  for (const y of op.run(tf)) cpu.push(Array.from(await y.data()));
  await tf.setBackend('webgpu');
  // a warm-up run compiles the pipelines outside the span
  for (const y of op.run(tf)) await y.data();
  rec.begin(op.name);
  const ys = op.run(tf);
  const dtypes = ys.map((y) => y.dtype);
  for (const y of ys) await y.data();
  const file = await rec.end();
  if (!file) throw new Error(`capture_real: ${op.name}: nothing was written (${rec.errors.join('; ')})`);
  fs.writeFileSync(path.join(out, `${op.name}.cpu.json`), JSON.stringify({ dtypes, outputs: cpu }) + '\n');
  tf.disposeVariables();
  console.log(`${implName}: ${op.name}: ${path.basename(file)}`);
}
await rec.flush();
if (rec.errors.length) { console.error(rec.errors.join('\n')); process.exit(1); }
process.exit(0);
