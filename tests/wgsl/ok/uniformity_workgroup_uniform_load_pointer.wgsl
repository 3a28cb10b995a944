// §Uniformity Rules for Function Calls: a uniform pointer (uniform index) to
// workgroupUniformLoad; indexing its uniform result non-uniformly afterwards is fine.
var<workgroup> w: array<u32, 64>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  _ = workgroupUniformLoad(&w)[i];
  _ = workgroupUniformLoad(&w[g.x % 64u]);
}
