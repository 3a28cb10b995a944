// expect: 4:32 cannot take the address of a vector component
// §Address-Of Expression: not of a reference to a vector component, which
// v[i] is as much as v.x (§Component Reference from Vector Memory View).
fn f() { var v: vec2f; let p = &v[0]; }
@compute @workgroup_size(1) fn main() { f(); }
