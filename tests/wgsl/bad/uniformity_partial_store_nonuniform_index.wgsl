// expect: 10:17 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for LHSValue expressions: e2[e1] adds an edge to e1, so
// a store at a non-uniform index makes the whole array non-uniform, also
// through parentheses, & and *.
@group(0) @binding(0) var<storage> uniform_value: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> nonuniform_value: array<u32, 4>;
@compute @workgroup_size(16) fn main() {
  var a: array<u32, 16>;
  *&(a[nonuniform_value[0]]) = uniform_value[0];
  if a[0] > 0 { workgroupBarrier(); }
}
