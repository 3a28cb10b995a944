// expect: 5:5 'workgroupBarrier' must only be called from uniform control flow
// §for Statement: a for loop desugars to a loop whose body starts with the condition test.
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  for (var k = 0u; k < i; k++) {
    workgroupBarrier();
  }
}
