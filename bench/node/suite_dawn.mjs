// The benchmark suite's Dawn side: the workloads that bench_suite describes
// (`bench_suite spec`), the same WGSL, sizes and initial contents, run on
// Dawn's npm `webgpu` package (OpenGL ES on Mesa's llvmpipe, compatibility
// mode). bench/suite.mjs runs it in a process of its own, alternating with
// bench_suite's rounds.
//
//   node bench/node/suite_dawn.mjs SPEC.json [--reps K] [--only a,b] [--out DIR]
//
// Prints one JSON line per workload, in bench_suite's format: wall and CPU
// time (all of the process's threads, so llvmpipe's too) of every timed
// repetition: encode, submit and wait for onSubmittedWorkDone.
// Compatibility mode allows 128 invocations per workgroup by default; the
// device asks for 256 (requiredLimits; llvmpipe offers 1024). Dawn here has
// no "subgroups" feature, so a workload that needs it is reported as
// skipped.
import fs from 'node:fs';
import path from 'node:path';

const { loadProvider } = await import('../../bindings/node/test/seeds/provider.mjs');

const args = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(args[0], 'utf8'));
let reps = 3, only = null, dir = null;
for (let i = 1; i < args.length; i++) {
  if (args[i] === '--reps') reps = Number(args[++i]);
  else if (args[i] === '--only') only = args[++i].split(',');
  else if (args[i] === '--out') dir = args[++i];
  else throw new Error(`suite_dawn.mjs: unknown argument ${args[i]}`);
}

const P = await loadProvider('dawn');
if (P.missing) {
  console.log(JSON.stringify({ error: P.missing }));
  process.exit(2);
}
const { GPUBufferUsage, GPUMapMode, GPUTextureUsage } = P.globals;
// The GPU object stays referenced for the whole run (see child.mjs).
const gpu = P.create(P.configs[0].flags);
const adapter = await gpu.requestAdapter({ featureLevel: P.featureLevel });
const device = await adapter.requestDevice({
  requiredLimits: { maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256 },
});
device.addEventListener?.('uncapturederror', (e) => {
  console.error(`suite_dawn.mjs: ${e.error.message}`);
  process.exit(1);
});

// bench_suite.c's fill(), word for word.
function fill(r) {
  const bytes = new ArrayBuffer(r.size);
  const u = new Uint32Array(bytes), f = new Float32Array(bytes), b = new Uint8Array(bytes);
  let s = r.seed >>> 0;
  const step = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  const words = r.size / 4;
  if (r.init === 'mod1000') for (let i = 0; i < words; i++) f[i] = i % 1000;
  else if (r.init === 'lcg_unit') for (let i = 0; i < words; i++) f[i] = (step() >>> 8) / 16777216;
  else if (r.init === 'lcg_u32') for (let i = 0; i < words; i++) u[i] = step();
  else if (r.init === 'iota1') for (let i = 0; i < words; i++) u[i] = i + 1;
  else if (r.init === 'count') u[0] = r.count;
  else if (r.init === 'lcg_bytes') for (let i = 0; i < r.size; i++) b[i] = step() >>> 24;
  return bytes;
}

async function readBack(buf, size) {
  const rb = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, rb, 0, size);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(rb.getMappedRange().slice(0));
  rb.unmap();
  rb.destroy();
  return out;
}

async function run(wl) {
  const code = fs.readFileSync(path.join(spec.root, wl.file), 'utf8');
  const module = device.createShaderModule({ code });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const init = wl.resources.map(fill);
  const objs = wl.resources.map((r, k) => {
    if (r.kind === 'texture') {
      const t = device.createTexture({ size: [512, 512], format: 'rgba8unorm',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
      device.queue.writeTexture({ texture: t }, init[k], { bytesPerRow: 512 * 4, rowsPerImage: 512 }, [512, 512]);
      return t;
    }
    if (r.kind === 'sampler') return device.createSampler({ magFilter: 'linear', minFilter: 'linear' });
    const b = device.createBuffer({ size: r.size, usage: (r.kind === 'uniform' ? GPUBufferUsage.UNIFORM
      : GPUBufferUsage.STORAGE) | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
    device.queue.writeBuffer(b, 0, init[k]);
    return b;
  });
  const entries = wl.resources.map((r, k) => ({ binding: k,
    resource: r.kind === 'texture' ? objs[k].createView() : r.kind === 'sampler' ? objs[k] : { buffer: objs[k] } }));
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
  const wall = [], cpu = [];
  for (let r = -1; r < reps; r++) {
    wl.resources.forEach((res, k) => { if (res.reset) device.queue.writeBuffer(objs[k], 0, init[k]); });
    await device.queue.onSubmittedWorkDone();
    const c0 = process.cpuUsage(), t0 = performance.now();
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(wl.groups[0], wl.groups[1]);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    const t1 = performance.now(), c = process.cpuUsage(c0);
    if (r >= 0) {
      wall.push(Number((t1 - t0).toFixed(4)));
      cpu.push(Number(((c.user + c.system) / 1000).toFixed(4)));
    }
  }
  if (dir) {
    const out = await readBack(objs[wl.out], wl.resources[wl.out].size);
    fs.writeFileSync(path.join(dir, `${wl.name}.dawn.bin`), out);
  }
  for (const o of objs) o.destroy?.();
  return { wall_ms: wall, cpu_ms: cpu };
}

for (const wl of spec.workloads) {
  if (only && !only.includes(wl.name)) continue;
  if (wl.subgroups && !adapter.features.has('subgroups')) {
    console.log(JSON.stringify({ workload: wl.name, impl: 'dawn', skipped: 'no "subgroups" feature on this adapter' }));
    continue;
  }
  console.log(JSON.stringify({ workload: wl.name, impl: 'dawn', ...(await run(wl)) }));
}
device.destroy();
process.exit(0);
