// expect: 3:37 needs @builtin
// §Entry Point IO: every entry point parameter is a built-in value or a user-defined input.
@compute @workgroup_size(1) fn main(x: u32) {}
