// expect: 4:7 found '_'
// §Identifiers: a single underscore is not an identifier.
fn f() {
  let _ = 1;
}
@compute @workgroup_size(1) fn main() {}
