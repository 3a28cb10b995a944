// expect: 4:16 does not fit in u32
// §Conversion: AbstractInt -1 does not fit in u32.
fn f() {
  let x: u32 = -1;
}
@compute @workgroup_size(1) fn main() {}
