// §Declaration and Scope: a module-scope alias may reuse a predeclared type name.
alias f32 = i32;
fn f() -> f32 { return 1i; }
@compute @workgroup_size(1) fn main() {}
