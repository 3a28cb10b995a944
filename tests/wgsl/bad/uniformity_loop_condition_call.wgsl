// expect: 7:9 'wait' must only be called from uniform control flow
// note: 6:71 control flow depends on this possibly non-uniform value
// §while Statement: the condition is tested at the start of every iteration (CF'),
// which a non-uniform break in the body makes non-uniform.
fn wait() -> bool { workgroupBarrier(); return true; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  while (wait()) { if (i == 0u) { break; } }
}
