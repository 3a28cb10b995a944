// A read-write rgba8unorm storage texture: valid WGSL, but WebGPU allows
// read-write storage access only for r32float, r32uint and r32sint.
@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, read_write>;

@compute @workgroup_size(1)
fn main() {
  textureStore(img, vec2u(0u), textureLoad(img, vec2u(0u)) * 0.5);
}
