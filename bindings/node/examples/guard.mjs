// guard.mjs — lesson 000's guarded kernel written as browser code: nothing
// here knows about lockstep. Run it on lockstep with
//   node --import ./bindings/node/register.mjs bindings/node/examples/guard.mjs
// (LOCKSTEP_SUBGROUP_SIZE=8, LOCKSTEP_CHECK=1 ... choose the device from outside).
const n = 3_000_001;
const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
const module = device.createShaderModule({
  label: 'guard.wgsl',
  code: `
    @group(0) @binding(0) var<uniform> conteo: u32;
    @group(0) @binding(1) var<storage, read_write> datos: array<f32>;
    @compute @workgroup_size(64)
    fn main(@builtin(global_invocation_id) gid: vec3u) {
      if (gid.x >= conteo) { return; }
      datos[gid.x] = datos[gid.x] * 0.5;
    }`,
});
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module } });
const params = device.createBuffer({ size: 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
const data = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
const readback = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(params, 0, new Uint32Array([n]));
device.queue.writeBuffer(data, 0, new Float32Array(n).fill(3));
const bindGroup = device.createBindGroup({
  layout: pipeline.getBindGroupLayout(0),
  entries: [{ binding: 0, resource: { buffer: params } }, { binding: 1, resource: { buffer: data } }],
});
const groups = Math.ceil(n / 64);
const encoder = device.createCommandEncoder();
const pass = encoder.beginComputePass();
pass.setPipeline(pipeline);
pass.setBindGroup(0, bindGroup);
pass.dispatchWorkgroups(groups);
pass.end();
encoder.copyBufferToBuffer(data, 0, readback, 0, n * 4);
const t0 = performance.now();
device.queue.submit([encoder.finish()]);
await readback.mapAsync(GPUMapMode.READ);
const out = new Float32Array(readback.getMappedRange());
const ok = out.every((v) => v === 1.5);
console.log(`subgroups of ${adapter.info.subgroupMinSize} lanes: ${groups} workgroups of 64 for ${n} elements ` +
  `(${groups * 64 - n} invocations stopped by the guard), every element 1.5: ${ok}, ` +
  `${(performance.now() - t0).toFixed(0)} ms`);
readback.unmap();
device.destroy();
