// expect: 7:28 the pointer of 'workgroupUniformLoad' must be a uniform value
// §Pointer Desugaring: `let p = &w[i]` stands for its initializer, so the view it
// names is non-uniform.
var<workgroup> w: array<u32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {
  let p = &w[i];
  _ = workgroupUniformLoad(p);
}
