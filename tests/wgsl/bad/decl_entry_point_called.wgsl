// expect: 4:42 cannot be called
// §Entry Points: an entry point cannot be called.
@compute @workgroup_size(1) fn main() {}
@compute @workgroup_size(1) fn other() { main(); }
