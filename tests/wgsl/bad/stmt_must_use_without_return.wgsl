// expect: 3:1 @must_use needs a function with a return type
// §must_use: only functions with a return type can be @must_use.
@must_use fn g() {}
@compute @workgroup_size(1) fn main() {}
