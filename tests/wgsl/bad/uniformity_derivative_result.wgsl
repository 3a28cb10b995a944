// expect: 6:30 'dpdy' must only be called from uniform control flow (derivative_uniformity)
// note: 6:7 control flow depends on this possibly non-uniform value
// §Uniformity Rules for Function Calls: derivatives have the function tag
// ReturnValueMayBeNonUniform, even of a uniform argument.
@fragment fn f() -> @location(0) vec4f {
  if (dpdx(1.0) > 0.0) { _ = dpdy(1.0); }
  return vec4f();
}
