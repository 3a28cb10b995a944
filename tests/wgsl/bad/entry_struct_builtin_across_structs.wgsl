// expect: 6:3 @builtin(workgroup_id) is used by two inputs
// §Built-in Inputs and Outputs: the rule spans all parameters, so two
// structure parameters cannot both carry workgroup_id.
struct A { @builtin(workgroup_id) w: vec3u }
struct B { @builtin(local_invocation_id) l: vec3u,
  @builtin(workgroup_id) w: vec3u }
@compute @workgroup_size(1) fn main(a: A, b: B) {}
