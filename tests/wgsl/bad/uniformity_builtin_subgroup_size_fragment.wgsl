// expect: 5:32 'dpdx' must only be called from uniform control flow (derivative_uniformity)
// §Uniformity Rules for Expressions: subgroup_size is uniform only in a compute shader.
enable subgroups;
@fragment fn f(@builtin(subgroup_size) s: u32) -> @location(0) vec4f {
  if (s == 32u) { return vec4f(dpdx(1.0)); }
  return vec4f();
}
