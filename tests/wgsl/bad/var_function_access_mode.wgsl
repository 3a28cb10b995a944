// expect: 3:14 only storage variables take an access mode
// §var and value declarations: only storage variables name an access mode.
fn f() { var<function, read_write> x: i32; }
