// §Uniformity Rules for Expressions: the same derivative under a uniform condition.
enable subgroups;
@group(0) @binding(0) var<uniform> s: u32;
@fragment fn f(@builtin(subgroup_size) n: u32) -> @location(0) vec4f {
  if (s == 32u) { return vec4f(dpdx(f32(n))); }
  return vec4f();
}
