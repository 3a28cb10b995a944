// expect: 3:13 is not a finite f32
@compute @workgroup_size(1) fn main() {
  const r = refract(vec2f(1e30, 0.0), vec2f(1e30, 0.0), 1.0);
}
