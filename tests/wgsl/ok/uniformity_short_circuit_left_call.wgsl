// §Uniformity Rules for Expressions: the left operand runs at CF, before any
// non-uniform value is tested.
fn wait() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = wait() && (i == 0u);
}
