// Dawn's sized_binding_array: binding_array<T, N> of textures is a handle
// variable, indexed by constant or dynamic indices and passed to functions.
@group(0) @binding(0) var texs: binding_array<texture_2d<f32>, 4>;
@group(0) @binding(1) var<uniform> which: u32;
fn load(ts: binding_array<texture_2d<f32>, 4>) -> vec4f { return textureLoad(ts[0], vec2(0, 0), 0); }
@fragment fn f() -> @location(0) vec4f {
  return load(texs) + textureLoad(texs[which], vec2(0, 0), 0);
}
