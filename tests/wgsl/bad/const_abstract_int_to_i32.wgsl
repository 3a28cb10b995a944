// expect: 4:16 does not fit in i32
// §Conversion: AbstractInt 3000000000 does not fit in i32.
fn f() {
  let x: i32 = 3000000000;
}
@compute @workgroup_size(1) fn main() {}
