// expect: 6:23 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: an input structure holding a non-uniform
// built-in is non-uniform as a whole, even its uniform members.
struct In { @builtin(workgroup_id) g: vec3u, @builtin(local_invocation_index) i: u32 }
@compute @workgroup_size(64) fn main(in: In) {
  if (in.g.x == 0u) { workgroupBarrier(); }
}
