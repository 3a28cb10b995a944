// expect: 5:20 'wait' must only be called from uniform control flow
// §Uniformity Rules for Expressions: e1 || e2 analyses e2 under V1.
fn wait() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  _ = (i == 0u) || wait();
}
