// §Declaration and Scope: a user function may take a built-in function's name; calls then mean it.
fn max(a: i32) -> i32 { return a; }
fn f() -> i32 { return max(3); }
@compute @workgroup_size(1) fn main() {}
