// expect: 3:13 expected '=' in 'const' declaration
// §const Declarations: a const needs an initializer.
const c: i32;
@compute @workgroup_size(1) fn main() {}
