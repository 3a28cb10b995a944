// expect: 5:16 'subgroupAdd' is only allowed in compute and fragment shaders (reached from vertex entry point 'main')
// §Subgroup Built-in Functions: compute and fragment shader stages only.
enable subgroups;
@vertex fn main() -> @builtin(position) vec4f {
  return vec4f(subgroupAdd(1.0));
}
