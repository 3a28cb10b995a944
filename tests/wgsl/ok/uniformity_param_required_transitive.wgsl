// §Uniformity Rules for Function Calls: the same chain with a uniform argument.
fn f(c: bool) { if (c) { workgroupBarrier(); } }
fn g(c: bool) { f(c); }
@compute @workgroup_size(64) fn main(@builtin(num_workgroups) n: vec3u) {
  g(n.x == 0u);
}
