// expect: 4:11 needs 2 members, found 1
// §Value Constructor Built-in Functions: a structure constructor takes one value per member.
struct S { a: f32, b: i32 }
const s = S(1.0);
@compute @workgroup_size(1) fn main() {}
