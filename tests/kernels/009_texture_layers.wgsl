// Texture arrays and mip levels: a sampled texture_2d_array<u32> (r32uint,
// 4 layers, 3 mip levels) copied layer by layer, in reverse layer order,
// into a write-only storage texture array; the queries
// (textureDimensions per level, textureNumLayers, textureNumLevels) into
// a buffer. Levels 1 and 2 hold zeros (a case initialises level 0 only).
@group(0) @binding(0) var src: texture_2d_array<u32>;
@group(0) @binding(1) var dst: texture_storage_2d_array<r32uint, write>;
@group(0) @binding(2) var<storage, read_write> info: array<u32, 8>;

@compute @workgroup_size(8, 4, 1)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let dims = textureDimensions(src);
  let layers = textureNumLayers(src);
  if (gid.x >= dims.x || gid.y >= dims.y || gid.z >= layers) { return; }
  let v = textureLoad(src, gid.xy, gid.z, 0).x;
  // level 1 is 2x1: the coordinate is clamped into it, since an
  // out-of-bounds load may return any texel of the texture
  let lower = textureLoad(src, min(gid.xy / 2u, textureDimensions(src, 1) - 1u), gid.z, 1).x;
  textureStore(dst, gid.xy, layers - 1u - gid.z, vec4u(v * 3u + gid.z * 1000u + lower, 0u, 0u, 0u));
  if (all(gid == vec3u(0u))) {
    info[0] = dims.x;
    info[1] = dims.y;
    info[2] = layers;
    info[3] = textureNumLevels(src);
    let d1 = textureDimensions(src, 1);
    info[4] = d1.x;
    info[5] = d1.y;
    let d2 = textureDimensions(src, 2u);
    info[6] = d2.x;
    info[7] = d2.y;
  }
}
