// expect: 4:19 built-in value 'frag_depth' is not supported in a fragment shader input (it is a fragment shader output)
// §Built-in Inputs and Outputs: frag_depth is a fragment shader output, not
// an input.
@fragment fn main(@builtin(frag_depth) d: f32) {}
