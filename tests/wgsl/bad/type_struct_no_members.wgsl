// expect: 3:11 expected member name
// §Structure Types: a structure has at least one member.
struct S {}
@compute @workgroup_size(1) fn main() {}
