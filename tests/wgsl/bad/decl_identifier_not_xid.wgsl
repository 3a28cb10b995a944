// expect: 6:8 unexpected character U+2603
// §Identifiers: an identifier is XID_Start XID_Continue* (or _ then
// XID_Continue+); U+2603 SNOWMAN is in neither class, so it ends the
// identifier and is an error by itself.
fn f() {
  let a☃ = 1;
}
@compute @workgroup_size(1) fn main() {}
