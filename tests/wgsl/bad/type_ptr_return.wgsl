// expect: 4:11 cannot be returned
// §Function Declarations: the return type must be constructible.
var<private> x: i32;
fn f() -> ptr<private, i32> { return &x; }
@compute @workgroup_size(1) fn main() {}
