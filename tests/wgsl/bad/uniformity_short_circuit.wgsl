// expect: 6:20 'wait' must only be called from uniform control flow
// §Uniformity Analysis: the right operand of && runs only where the left is
// true, so a call there depends on it.
fn wait() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = (i == 0u) && wait();
}
