// expect: 3:20 declared twice
// §Structure Types: member names are distinct.
struct S { a: f32, a: i32 }
@compute @workgroup_size(1) fn main() {}
