// expect: 8:19 'workgroupBarrier' must only be called from uniform control flow
// §Pointer Desugaring: a load through `let p = &a[i]` is a load of a[i]: it depends
// on i even though all of a is uniform.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  var a = array<u32, 64>();
  let p = &a[i];
  _ = p;
  if (*p == 0u) { workgroupBarrier(); }
}
