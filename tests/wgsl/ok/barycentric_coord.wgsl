// chromium_experimental_barycentric_coord (Dawn docs/tint/extensions/
// chromium_experimental_barycentric_coord.md): @builtin(barycentric_coord)
// is a fragment input.
enable chromium_experimental_barycentric_coord;
@fragment fn main(@builtin(barycentric_coord) b: vec3f) -> @location(0) vec4f {
  return vec4f(b, 1.0);
}
