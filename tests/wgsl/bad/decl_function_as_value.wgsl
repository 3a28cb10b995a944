// expect: 4:18 must be called
// §Function Calls: a function name is not a value; it must be called.
fn f() -> i32 { return 1; }
fn g() { let x = f; }
@compute @workgroup_size(1) fn main() {}
