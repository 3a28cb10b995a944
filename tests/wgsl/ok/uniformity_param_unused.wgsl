// §Uniformity Rules for Function Calls: a parameter that no uniformity requirement
// depends on (ParameterNoRestriction) may receive a non-uniform value.
@group(0) @binding(0) var<storage, read_write> out: array<u32, 64>;
fn f(c: u32) { out[c] = c; workgroupBarrier(); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  f(i);
}
