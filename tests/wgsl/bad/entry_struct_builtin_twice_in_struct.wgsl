// expect: 5:3 @builtin(global_invocation_id) is used by two inputs
// §Built-in Inputs and Outputs: two members of one structure parameter
// cannot carry the same built-in value.
struct In { @builtin(global_invocation_id) a: vec3u,
  @builtin(global_invocation_id) b: vec3u }
@compute @workgroup_size(1) fn main(in: In) {}
