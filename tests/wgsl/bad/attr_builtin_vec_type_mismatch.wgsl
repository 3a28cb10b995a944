// expect: 3:71 must have type vec3<u32>
// §Built-in Values: global_invocation_id is a vec3<u32>.
@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) g: vec2u) {}
