// textures.mjs — a compute program with textures, public WebGPU API only:
// a two-level rgba8unorm texture written with queue.writeTexture (both
// levels) and read with textureLoad at level 1 and textureSampleLevel
// through a nearest sampler at level 0; a storage texture written by one
// dispatch and read by the next through a view; a texture-to-texture copy;
// the result copied out of a texture into a buffer and read back.
// run(device, G) returns the words the program read.
const FILL = `
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var smp: sampler;
@group(0) @binding(2) var dst: texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let uv = (vec2f(id.xy) + 0.5) / 8.0;
  let a = textureSampleLevel(src, smp, uv, 0.0).r;
  let b = textureLoad(src, id.xy / 2u, 1).r;
  textureStore(dst, id.xy, vec4f(a * 10.0 + b, 0.0, 0.0, 1.0));
}`;
const GATHER = `
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  out[id.y * 8u + id.x] = textureLoad(t, vec2u(7u - id.x, id.y), 0).r + 0.25;
}`;

export async function run(device, G) {
  const TU = G.GPUTextureUsage, U = G.GPUBufferUsage;
  const src = device.createTexture({ label: 'src', size: [8, 8], format: 'rgba8unorm', mipLevelCount: 2, usage: TU.TEXTURE_BINDING | TU.COPY_DST });
  device.queue.writeTexture({ texture: src }, new Uint8Array(Array.from({ length: 256 }, (_, i) => (i * 37) % 256)), { bytesPerRow: 32 }, [8, 8]);
  // level 1 with padded rows (16 bytes of texels in rows of 48) and an offset
  const padded = new Uint8Array(8 + 48 * 4);
  for (let y = 0; y < 4; y++) for (let x = 0; x < 16; x++) padded[8 + y * 48 + x] = 100 + y * 16 + x;
  device.queue.writeTexture({ texture: src, mipLevel: 1 }, padded, { offset: 8, bytesPerRow: 48, rowsPerImage: 4 }, [4, 4]);
  const smp = device.createSampler({ magFilter: 'nearest', minFilter: 'nearest' });
  const mid = device.createTexture({ label: 'mid', size: [8, 8], format: 'r32float', usage: TU.STORAGE_BINDING | TU.COPY_SRC });
  const copy = device.createTexture({ label: 'copy', size: [8, 8], format: 'r32float', usage: TU.TEXTURE_BINDING | TU.COPY_DST | TU.COPY_SRC });
  const out = device.createBuffer({ label: 'out', size: 256, usage: U.STORAGE | U.COPY_SRC });
  const fill = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: FILL, label: 'fill.wgsl' }) } });
  const gather = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: GATHER, label: 'gather.wgsl' }) } });
  const g0 = device.createBindGroup({ layout: fill.getBindGroupLayout(0), entries: [
    { binding: 0, resource: src.createView() }, { binding: 1, resource: smp }, { binding: 2, resource: mid.createView() }] });
  const g1 = device.createBindGroup({ layout: gather.getBindGroupLayout(0), entries: [
    { binding: 0, resource: copy.createView({ dimension: '2d', baseMipLevel: 0, mipLevelCount: 1 }) }, { binding: 1, resource: { buffer: out } }] });
  const enc = device.createCommandEncoder();
  let pass = enc.beginComputePass();
  pass.setPipeline(fill);
  pass.setBindGroup(0, g0);
  pass.dispatchWorkgroups(1, 1);
  pass.end();
  enc.copyTextureToTexture({ texture: mid }, { texture: copy }, [8, 8]);
  pass = enc.beginComputePass();
  pass.setPipeline(gather);
  pass.setBindGroup(0, g1);
  pass.dispatchWorkgroups(1, 1);
  pass.end();
  const staging = device.createBuffer({ label: 'staging', size: 256 * 8 + 256, usage: U.MAP_READ | U.COPY_DST });
  enc.copyBufferToBuffer(out, 0, staging, 2048, 256);
  enc.copyTextureToBuffer({ texture: copy }, { buffer: staging, bytesPerRow: 256, rowsPerImage: 8 }, [8, 8]);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(G.GPUMapMode.READ);
  const words = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  return words;
}
