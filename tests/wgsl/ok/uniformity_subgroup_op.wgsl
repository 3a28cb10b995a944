// §Uniformity Rules for Function Calls: a subgroup operation in uniform control flow
// may take a non-uniform argument.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = subgroupAdd(i);
}
