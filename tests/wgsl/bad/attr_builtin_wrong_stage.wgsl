// expect: 3:37 not supported in a compute shader
// §Built-in Values: position is not a compute shader input.
@compute @workgroup_size(1) fn main(@builtin(position) p: vec4f) {}
