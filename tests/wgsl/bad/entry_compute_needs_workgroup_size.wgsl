// expect: 3:13 needs @workgroup_size
// §workgroup_size: a compute shader entry point must have it.
@compute fn main() {}
