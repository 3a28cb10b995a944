// expect: 3:15 cannot be a struct member
// §Structure Types: members have plain types; pointers are not.
struct S { p: ptr<function, i32> }
@compute @workgroup_size(1) fn main() {}
