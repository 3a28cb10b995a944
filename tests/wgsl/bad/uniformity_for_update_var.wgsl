// expect: 6:5 'workgroupBarrier' must only be called from uniform control flow
// §for Statement: the update statement assigns the loop variable a non-uniform value,
// so the condition is non-uniform from the second iteration.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < 4u; k += i) {
    workgroupBarrier();
  }
}
