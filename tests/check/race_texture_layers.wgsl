// A texture array of 2 layers, 4 x 2 texels each: every invocation stores
// texel (i % 4, i / 4 % 2) of layer i / 8, so invocations 0..15 cover it
// once; invocations 16..19 store layer 2, which the view lacks (a
// warning), and invocation 20 writes texel (1, 0) of layer 1 again, which
// invocation 9 wrote: a race within the workgroup.
@group(0) @binding(0) var img: texture_storage_2d_array<r32uint, write>;

@compute @workgroup_size(21)
fn main(@builtin(local_invocation_index) i: u32) {
  var layer = i / 8u;
  if (i == 20u) { layer = 1u; }
  let xy = select(vec2u(i % 4u, i / 4u % 2u), vec2u(1u, 0u), i == 20u);
  textureStore(img, xy, layer, vec4u(i, 0u, 0u, 0u));
}
