// expect: 3:42 cannot return a value
// §Entry Points: a compute shader entry point has no return type.
@compute @workgroup_size(1) fn main() -> u32 { return 1u; }
