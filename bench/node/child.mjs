// One measurement of the front-door benchmark, in a process of its own so
// that every import is a first one and the two implementations never share
// a process (front_door.mjs runs these alternately and takes medians).
//
//   node bench/node/child.mjs job SPEC
//     the whole small job, timed from the import of the implementation's
//     module (Node's own start-up is before it), adapter, device, shader
//     module, pipeline, one dispatch of 1,024 elements (lesson 000's
//     guarded kernel), read back, check; also the CPU time all the
//     process's threads spent on it (less sensitive than wall time to a
//     loaded machine);
//   node bench/node/child.mjs dispatch SPEC [N]
//     per-dispatch cost of the JavaScript path: createBindGroup + encoder +
//     setPipeline + setBindGroup + dispatchWorkgroups(1) + end + finish +
//     submit + await onSubmittedWorkDone of a one-invocation kernel, N times
//     (default 200) after 5 untimed ones.
//
// SPEC is JSON from provider.mjs's entryOf: {name, entry, esm,
// featureLevel, flags}. Nothing of the benchmark loads before the clock
// starts: the child gets the module's path rather than importing the
// helper that finds it, and reads the clock with process.hrtime (the
// `performance` global loads perf_hooks on first use). Both filled the
// young generation that the measured job then allocates in (182 KB of
// 1 MB: docs/performance.md, "The young generation").
//
// Prints one JSON line.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const [mode, specText, nArg] = process.argv.slice(2);
const spec = JSON.parse(specText);
// A CommonJS package is required, as a CommonJS program would (its
// `require` exists before the program runs); an ES module is imported.
const require = createRequire(import.meta.url);
const t0 = now();
const cpu0 = process.cpuUsage();
const mod = spec.esm ? await import(pathToFileURL(spec.entry).href) : require(spec.entry);
const tImport = now();
const { GPUBufferUsage, GPUMapMode } = mod.globals;
// The GPU object stays referenced for the whole run: Dawn's package crashes
// (glibc mutex assertions, std::system_error, or a silent exit with promises
// pending) once it is garbage-collected while its device is still in use.
const gpu = mod.create(spec.flags);
const adapter = await gpu.requestAdapter({ featureLevel: spec.featureLevel });
const device = await adapter.requestDevice();
const tDevice = now();

function pipelineOf(code) {
  return device.createComputePipeline({ layout: 'auto',
    compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
}

async function readWords(buf, size) {
  const r = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, r, 0, size);
  device.queue.submit([enc.finish()]);
  await r.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(r.getMappedRange().slice(0));
  r.unmap();
  return out;
}

async function job() {
  const N = 1024;
  const pipeline = pipelineOf(`
struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.conteo) { return; }
  datos[gid.x] = datos[gid.x] * 0.99;
}`);
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(params, 0, new Uint32Array([N]));
  const datos = device.createBuffer({ size: N * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    mappedAtCreation: true });
  new Float32Array(datos.getMappedRange()).fill(2);
  datos.unmap();
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [
    { binding: 0, resource: { buffer: params } }, { binding: 1, resource: { buffer: datos } }] });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(Math.ceil(N / 64));
  pass.end();
  device.queue.submit([enc.finish()]);
  const out = new Float32Array((await readWords(datos, N * 4)).buffer);
  const want = Math.fround(2 * Math.fround(0.99));
  const tEnd = now();
  const cpu = process.cpuUsage(cpu0);
  const origin = now() - performance.now(); // the process's time origin, on the clock's scale
  return { ok: out.every((v) => v === want), startupMs: t0 - origin, jobMs: tEnd - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    importMs: tImport - t0, deviceMs: tDevice - tImport, workMs: tEnd - tDevice };
}

async function dispatches(n) {
  const WARM = 5;
  const pipeline = pipelineOf(`
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() { o[0] = o[0] + 1u; }`);
  const buf = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const layout = pipeline.getBindGroupLayout(0);
  const once = async () => {
    const bg = device.createBindGroup({ layout, entries: [{ binding: 0, resource: { buffer: buf } }] });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(1);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
  };
  for (let i = 0; i < WARM; i++) await once();
  const t = now();
  for (let i = 0; i < n; i++) await once();
  const us = ((now() - t) * 1000) / n;
  // Every dispatch ran: the counter is warm-up + timed ones.
  const count = (await readWords(buf, 16))[0];
  return { ok: count === WARM + n, us, count };
}

const result = mode === 'dispatch' ? await dispatches(Number(nArg || 200)) : await job();
device.destroy();
console.log(JSON.stringify({ which: spec.name, mode, ...result }));
process.exit(result.ok ? 0 : 1);
