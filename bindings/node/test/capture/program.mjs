// program.mjs — a compute program with what real programs do between
// dispatches, written with the public WebGPU API only, so it runs on any
// implementation: two shader modules, ping-pong buffers (a scan in steps,
// each step reading one buffer and writing the other), a uniform written
// with queue.writeBuffer between submits, a dynamic offset selecting the
// step's parameters, a copy and a clear between dispatches, an explicit
// layout and an auto one, and the results read back through a staging
// buffer. run(device, G) returns the words the program read.
export const N = 256;

const SCAN = `
struct Step { stride: u32, scale: u32 }
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> step: Step;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&dst)) { return; }
  var v = src[i];
  if (i >= step.stride) { v = v + src[i - step.stride]; }
  dst[i] = v * step.scale;
}`;

const MIX = `
@group(0) @binding(0) var<storage, read_write> acc: array<u32>;
@group(0) @binding(1) var<storage, read> extra: array<u32>;
@group(1) @binding(0) var<uniform> k: vec4u;
@compute @workgroup_size(32)
fn mix(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i < arrayLength(&acc)) { acc[i] = acc[i] ^ (extra[i % arrayLength(&extra)] + k.x); }
}`;

export async function run(device, G) {
  const U = G.GPUBufferUsage;
  const scanModule = device.createShaderModule({ code: SCAN, label: 'scan.wgsl' });
  const mixModule = device.createShaderModule({ code: MIX, label: 'mix.wgsl' });
  const layout = device.createBindGroupLayout({ entries: [
    { binding: 0, visibility: G.GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
    { binding: 1, visibility: G.GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    { binding: 2, visibility: G.GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 8 } },
  ] });
  const scan = device.createComputePipeline({ layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module: scanModule, entryPoint: 'main' } });
  const mix = device.createComputePipeline({ layout: 'auto', compute: { module: mixModule, entryPoint: 'mix' } });

  const a = device.createBuffer({ label: 'ping', size: N * 4, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST, mappedAtCreation: true });
  new Uint32Array(a.getMappedRange()).set(Array.from({ length: N }, (_, i) => (i * 7 + 3) % 11));
  a.unmap();
  const b = device.createBuffer({ label: 'pong', size: N * 4, usage: U.STORAGE | U.COPY_DST });
  const extra = device.createBuffer({ label: 'extra', size: 64 * 4, usage: U.STORAGE | U.COPY_DST });
  device.queue.writeBuffer(extra, 0, new Uint32Array(Array.from({ length: 64 }, (_, i) => i * 0x01010101)));
  // per-step parameters at offsets 0, 256, 512, ... (dynamic offsets)
  const steps = device.createBuffer({ label: 'steps', size: 256 * 8, usage: U.UNIFORM | U.COPY_DST });
  for (let s = 0; s < 8; s++) device.queue.writeBuffer(steps, s * 256, new Uint32Array([1 << s, 1 + (s % 2)]));
  const k = device.createBuffer({ label: 'k', size: 16, usage: U.UNIFORM | U.COPY_DST });
  device.queue.writeBuffer(k, 0, new Uint32Array([5, 0, 0, 0]));

  const groups = [a, b].map((src, s) => device.createBindGroup({ layout, entries: [
    { binding: 0, resource: { buffer: src } },
    { binding: 1, resource: { buffer: s ? a : b } },
    { binding: 2, resource: { buffer: steps, offset: 0, size: 8 } },
  ] }));
  const mixGroup = (acc) => device.createBindGroup({ layout: mix.getBindGroupLayout(0), entries: [
    { binding: 0, resource: { buffer: acc } }, { binding: 1, resource: { buffer: extra } },
  ] });
  const kGroup = device.createBindGroup({ layout: mix.getBindGroupLayout(1), entries: [{ binding: 0, resource: { buffer: k } }] });

  // submit 1: four scan steps ping-ponging a -> b -> a -> b -> a, then mix on a
  let enc = device.createCommandEncoder();
  enc.pushDebugGroup('capture:scan_first');
  let pass = enc.beginComputePass();
  pass.setPipeline(scan);
  for (let s = 0; s < 4; s++) {
    pass.setBindGroup(0, groups[s % 2], [s * 256]);
    pass.dispatchWorkgroups(N / 64);
  }
  pass.setPipeline(mix);
  pass.setBindGroup(0, mixGroup(a));
  pass.setBindGroup(1, kGroup);
  pass.dispatchWorkgroups(N / 32);
  pass.end();
  enc.popDebugGroup();
  device.queue.submit([enc.finish()]);

  // between submits: a new uniform value, then a copy, a clear and more steps
  device.queue.writeBuffer(k, 0, new Uint32Array([0x1000, 0, 0, 0]));
  enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(a, 0, b, 0, N * 2);
  enc.clearBuffer(b, N * 2, N);
  pass = enc.beginComputePass();
  pass.setPipeline(scan);
  pass.setBindGroup(0, groups[1], new Uint32Array([0, 5 * 256, 0]), 1, 1);   // the Uint32Array overload
  pass.dispatchWorkgroups(N / 64);
  pass.setPipeline(mix);
  pass.setBindGroup(0, mixGroup(a));
  pass.setBindGroup(1, kGroup);
  pass.dispatchWorkgroups(N / 32);
  pass.end();
  const staging = device.createBuffer({ label: 'staging', size: N * 4, usage: U.MAP_READ | U.COPY_DST });
  enc.copyBufferToBuffer(a, staging);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(G.GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  return out;
}
