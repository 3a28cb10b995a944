// expect: 5:18 'continue' is not allowed in a continuing block
// §Continue Statement: continue must not be placed in a continuing block.
fn f() {
  loop {
    continuing { continue; }
  }
}
@compute @workgroup_size(1) fn main() {}
