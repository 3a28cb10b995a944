// chromium_experimental_resource_table (Dawn docs/tint/extensions/
// chromium_experimental_resource_table.md): hasResource<T>(i) and
// getResource<T>(i) for texture and sampler types T.
enable chromium_experimental_resource_table;
const kHouse = 0u;
@fragment fn f() -> @location(0) vec4f {
  if (hasResource<texture_2d<f32>>(kHouse)) {
    return textureLoad(getResource<texture_2d<f32>>(kHouse), vec2(0, 0), 0);
  }
  let s = getResource<sampler>(1);
  return vec4f();
}
