// expect: 4:7 'module' is a reserved word
// §Reserved Words: reserved words are not identifiers.
fn f() {
  let module = 1;
}
@compute @workgroup_size(1) fn main() {}
