// expect: 3:15 only allowed inside a function
// §Address Spaces: the function address space is only for function-scope variables.
var<function> x: i32;
@compute @workgroup_size(1) fn main() {}
