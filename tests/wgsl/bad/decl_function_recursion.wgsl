// expect: 4:30 recursive
// §Function Calls: recursion is not allowed (the call graph is acyclic).
fn f(n: i32) -> i32 { return g(n); }
fn g(n: i32) -> i32 { return f(n - 1); }
@compute @workgroup_size(1) fn main() {}
