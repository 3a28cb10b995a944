// expect: 5:7 needs 1 members, found 2
// §Function Calls: a structure type called with wrong arguments is a constructor error.
struct S { a: i32 }
fn f() {
  _ = S(1, 2);
}
@compute @workgroup_size(1) fn main() {}
