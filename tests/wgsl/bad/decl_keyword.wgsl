// expect: 4:7 found 'loop'
// §Keywords: keywords are not identifiers.
fn f() {
  let loop = 1;
}
@compute @workgroup_size(1) fn main() {}
