// Times the cost model's calibration and validation cases on a real GPU
// through Dawn (npm `webgpu`, the reference kit of tests/tools/peer.mjs):
//
//   node bench/gpu/calibrate.mjs [--backend vulkan] [--feature-level core] [--out FILE] [NAME ...]
//
// For every case of bench/gpu/experiments.json (or the NAMEs): builds the
// buffers as the case says (the kit's buildInit), one explicit layout, and
// times its dispatch with timestamp queries at the start and end of a
// compute pass holding `reps` copies of the dispatch (reps chosen so that a
// pass lasts about 2 ms; Dawn puts a barrier between them, as between any
// two dispatches that write the same buffer). Seven passes after two
// warm-ups; the median pass / reps is the time of one dispatch. Also
// records the wall time of the same submits as a check on the timestamps.
// Writes one JSON object: the adapter, its limits, the date and every
// timing (bench/gpu/h200-*.json are such logs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPeer, PEER_DIR } from '../../tests/tools/peer.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const { create, globals } = await importPeer('node_modules/webgpu/index.js');
const { loadCase, buildInit, bufferWordCount } = await importPeer('lib/kit.mjs');
Object.assign(globalThis, globals);

const args = process.argv.slice(2);
let backend = 'vulkan', outPath = null, featureLevel = 'core';
const only = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--backend') backend = args[++i];
  else if (args[i] === '--out') outPath = args[++i];
  else if (args[i] === '--feature-level') featureLevel = args[++i];
  else only.push(args[i]);
}

const gpu = create([`backend=${backend}`, 'enable-dawn-features=allow_unsafe_apis',
  'disable-dawn-features=timestamp_quantization']);
const adapter = await gpu.requestAdapter({ featureLevel, powerPreference: 'high-performance' });
if (!adapter) { console.error('calibrate: no adapter'); process.exit(1); }
const want = ['maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX', 'maxStorageBufferBindingSize', 'maxBufferSize'];
const requiredLimits = {};
for (const k of want) requiredLimits[k] = adapter.limits[k];
// without timestamp queries (a driver that lacks them) the wall time is all
const stamps = adapter.features.has('timestamp-query');
const device = await adapter.requestDevice({ requiredFeatures: stamps ? ['timestamp-query'] : [], requiredLimits });
const errors = [];
device.addEventListener('uncapturederror', (ev) => errors.push(ev.error.message));

const exps = JSON.parse(fs.readFileSync(path.join(HERE, 'experiments.json'), 'utf8')).experiments
  .filter((e) => !only.length || only.includes(e.case));

function setup(casePath) {
  const c = loadCase(casePath);
  const spec = c.spec;
  const module = device.createShaderModule({ code: c.shaderCode, label: spec.name });
  const bufs = spec.buffers.map((b) => {
    const words = buildInit(b);
    let usage = GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    usage |= b.kind === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE;
    const size = Math.max(16, Math.ceil((words.length * 4) / 16) * 16);
    const buf = device.createBuffer({ label: b.name, size, usage, mappedAtCreation: true });
    new Uint32Array(buf.getMappedRange()).set(words);
    buf.unmap();
    return { b, buf };
  });
  const type = { uniform: 'uniform', storage: 'storage', 'read-only-storage': 'read-only-storage' };
  const bgl = device.createBindGroupLayout({
    entries: bufs.map(({ b }) => ({ binding: b.binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: type[b.kind] } })),
  });
  const bg = device.createBindGroup({
    layout: bgl,
    entries: bufs.map(({ b, buf }) => ({ binding: b.binding, resource: { buffer: buf, size: bufferWordCount(b) * 4 } })),
  });
  const p = spec.pipelines.main;
  const compute = { module, entryPoint: p.entryPoint };
  if (p.constants) compute.constants = p.constants;
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute,
  });
  return { spec, pipeline, bg, bufs };
}

const qs = stamps ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

// One pass of reps dispatches: [GPU ns from the timestamps, wall ns].
async function pass(s, reps) {
  const [x, y = 1, z = 1] = s.spec.dispatches[0].workgroups;
  const enc = device.createCommandEncoder();
  const cp = enc.beginComputePass(stamps ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
  cp.setPipeline(s.pipeline);
  cp.setBindGroup(0, s.bg);
  for (let r = 0; r < reps; r++) cp.dispatchWorkgroups(x, y, z);
  cp.end();
  if (stamps) enc.resolveQuerySet(qs, 0, 2, resolve, 0);
  enc.copyBufferToBuffer(resolve, 0, read, 0, 16);
  const t0 = process.hrtime.bigint();
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const wall = Number(process.hrtime.bigint() - t0);
  const t = new BigUint64Array(read.getMappedRange().slice(0));
  read.unmap();
  return [stamps ? Number(t[1] - t[0]) : wall, wall];
}

const median = (a) => { const b = [...a].sort((p, q) => p - q); return b[b.length >> 1]; };
const results = [];
for (const e of exps) {
  const s = setup(path.join(HERE, 'cases', e.case + '.json'));
  await pass(s, 1);
  const [one] = await pass(s, 1);
  const reps = Math.max(1, Math.min(400, Math.ceil(2e6 / Math.max(one, 1))));
  await pass(s, reps);
  const gpuNs = [], wallNs = [];
  for (let i = 0; i < 7; i++) {
    const [g, w] = await pass(s, reps);
    gpuNs.push(g / reps);
    wallNs.push(w / reps);
  }
  const r = { case: e.case, role: e.role, group: e.group, reps, us: median(gpuNs) / 1e3,
    minUs: Math.min(...gpuNs) / 1e3, maxUs: Math.max(...gpuNs) / 1e3, wallUs: median(wallNs) / 1e3 };
  results.push(r);
  process.stderr.write(`${e.case.padEnd(16)} ${r.us.toFixed(2).padStart(10)} us  (min ${r.minUs.toFixed(2)}, max ${r.maxUs.toFixed(2)}, wall ${r.wallUs.toFixed(2)}, reps ${reps})\n`);
  for (const { buf } of s.bufs) buf.destroy();
  if (errors.length) { console.error('calibrate: ' + errors.join('; ')); process.exit(1); }
}
const ai = adapter.info;
const limits = {};
for (const k in adapter.limits) limits[k] = adapter.limits[k];
const log = {
  format: 'lockstep-gpu-timings/1',
  date: new Date().toISOString(),
  dawn: 'npm webgpu@' + JSON.parse(fs.readFileSync(path.join(PEER_DIR, 'node_modules/webgpu/package.json'), 'utf8')).version,
  backend,
  adapter: { vendor: ai.vendor, architecture: ai.architecture, device: ai.device, description: ai.description,
    subgroupMinSize: ai.subgroupMinSize, subgroupMaxSize: ai.subgroupMaxSize },
  driver: process.env.LOCKSTEP_GPU_DRIVER || null,
  limits,
  timestamps: stamps,
  method: 'median of 7 compute passes of reps dispatches, timestamp queries at the pass ends, divided by reps',
  results,
};
const text = JSON.stringify(log, null, 1) + '\n';
if (outPath) fs.writeFileSync(outPath, text); else process.stdout.write(text);
device.destroy();
process.exit(0);
