// §Uniformity Rules for Function Calls: a derivative's result used after the if.
@fragment fn f() -> @location(0) vec4f {
  var r = 0.0;
  if (dpdx(1.0) > 0.0) { r = 1.0; }
  return vec4f(r, dpdy(1.0), 0.0, 0.0);
}
