// expect: 3:12 must be the last member
// §Structure Types: a runtime-sized array may only be the last member.
struct S { a: array<u32>, b: u32 }
@compute @workgroup_size(1) fn main() {}
