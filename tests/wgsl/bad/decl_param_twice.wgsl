// expect: 3:14 'a' is already declared in this scope
// §Function Declarations: parameter names are distinct.
fn f(a: i32, a: u32) {}
@compute @workgroup_size(1) fn main() {}
