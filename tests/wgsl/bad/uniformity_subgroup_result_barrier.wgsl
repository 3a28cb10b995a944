// expect: 6:31 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Function Calls: at workgroup scope a subgroup operation's
// result is ReturnValueMayBeNonUniform (it differs between subgroups).
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  if (subgroupAdd(i) == 0u) { workgroupBarrier(); }
}
