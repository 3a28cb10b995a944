// §Uniformity Rules for Statements: discard (demote to helper) has behavior {Next}
// and does not make later control flow non-uniform.
@fragment fn f(@location(0) x: f32) -> @location(0) vec4f {
  if (x > 0.0) { discard; }
  return vec4f(dpdx(x));
}
