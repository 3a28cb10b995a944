// expect: 5:13 member 'inner' of parameter 'in' of compute entry point 'main' needs @builtin(...)
// §Input-output Locations: a member of entry point IO is a built-in value
// or has a location; a nested structure is neither.
struct Inner { @builtin(local_invocation_index) li: u32 }
struct In { inner: Inner }
@compute @workgroup_size(1) fn main(in: In) {}
