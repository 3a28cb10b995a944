// expect: 4:16 cannot initialize
// §let Declarations: the initializer has the declared type (u32 is not i32).
fn f() {
  let a: i32 = 1u;
}
@compute @workgroup_size(1) fn main() {}
