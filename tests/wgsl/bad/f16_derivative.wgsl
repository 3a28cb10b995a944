// expect: 4:11 no overload of 'dpdx' for f16
enable f16;
@fragment fn fs() -> @location(0) vec4f {
  let d = dpdx(1.5h);
  return vec4f(f32(d));
}
