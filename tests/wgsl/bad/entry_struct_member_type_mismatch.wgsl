// expect: 3:49 @builtin(global_invocation_id) must have type vec3<u32>, found u32
// §Built-in Values: global_invocation_id is a vec3<u32>, in a structure too.
struct In { @builtin(global_invocation_id) gid: u32 }
@compute @workgroup_size(1) fn main(in: In) {}
