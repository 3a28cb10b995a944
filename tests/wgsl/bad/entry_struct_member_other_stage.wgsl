// expect: 4:13 built-in value 'vertex_index' is not supported in a compute shader
// §Built-in Inputs and Outputs: a member's built-in must be an input of the
// entry point's stage.
struct In { @builtin(vertex_index) v: u32 }
@compute @workgroup_size(1) fn main(in: In) {}
