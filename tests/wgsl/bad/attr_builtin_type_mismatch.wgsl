// expect: 3:73 must have type u32
// §Built-in Values: local_invocation_index is a u32.
@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i: i32) {}
