// expect: 4:3 'continue' outside a loop
// §Continue Statement: continue must be inside a loop.
fn f() {
  continue;
}
@compute @workgroup_size(1) fn main() {}
