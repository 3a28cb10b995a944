// Texel accesses outside the view: a textureLoad at mip level 1 of a
// one-level texture (invocations 4..7) and a textureStore at x = -1
// (invocation 0); the accesses in bounds give no finding.
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = textureLoad(src, vec2u(i % 4u, 0u), i32(i / 4u));
  textureStore(dst, vec2i(i32(i) - 1, 0), v);
}
