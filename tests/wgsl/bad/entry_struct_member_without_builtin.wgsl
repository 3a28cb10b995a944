// expect: 4:55 member 'x' of parameter 'in' of compute entry point 'main' needs @builtin(...)
// §Input-output Locations: each member of entry point IO is a built-in
// value or has a location; compute shaders have no user-defined inputs.
struct In { @builtin(local_invocation_index) li: u32, x: u32 }
@compute @workgroup_size(1) fn main(in: In) {}
