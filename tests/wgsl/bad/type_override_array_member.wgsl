// expect: 4:12 cannot be a struct member
// §Array Types: an override-sized array cannot be a structure member.
override n = 4;
struct S { a: array<f32, n> }
@compute @workgroup_size(1) fn main() {}
