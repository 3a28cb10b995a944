// A 3x3 box blur of an rgba8unorm image (a sampled texture) into a
// write-only rgba32float storage texture, clamped to the edges and guarded
// by textureDimensions; the blurred luma thresholded into a mask buffer.
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;
@group(0) @binding(2) var<storage, read_write> mask: array<u32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let dims = textureDimensions(src);
  if (gid.x >= dims.x || gid.y >= dims.y) { return; }
  let hi = vec2i(dims) - vec2i(1);
  var sum = vec4f(0.0);
  for (var dy = -1; dy <= 1; dy++) {
    for (var dx = -1; dx <= 1; dx++) {
      let p = clamp(vec2i(gid.xy) + vec2i(dx, dy), vec2i(0), hi);
      sum += textureLoad(src, p, 0);
    }
  }
  let avg = sum / 9.0;
  textureStore(dst, gid.xy, avg);
  let luma = dot(avg.rgb, vec3f(0.299, 0.587, 0.114));
  mask[gid.y * dims.x + gid.x] = select(0u, 1u, luma > 0.5);
}
