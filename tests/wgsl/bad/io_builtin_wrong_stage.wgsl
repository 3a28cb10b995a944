// expect: 4:19 built-in value 'vertex_index' is not supported in a fragment shader input (it is a vertex shader input)
// §Built-in Inputs and Outputs: vertex_index is a vertex shader input; a
// fragment entry point cannot read it.
@fragment fn main(@builtin(vertex_index) i: u32) {}
