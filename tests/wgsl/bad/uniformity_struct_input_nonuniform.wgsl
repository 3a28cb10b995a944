// expect: 7:5 'workgroupBarrier' must only be called from uniform control flow
// §Uniformity Rules for Expressions: a structure parameter is one value;
// with a non-uniform built-in among its members it is non-uniform.
struct In { @builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) li: u32 }
@compute @workgroup_size(64) fn main(in: In) {
  if (in.wid.x == 0u) {
    workgroupBarrier();
  }
}
