// §Uniformity Rules for Function Calls: dpdx in uniform control flow (the branch
// comes after it).
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  let d = dpdx(x);
  if (x > 0.0) { return vec4f(d); }
  return vec4f();
}
