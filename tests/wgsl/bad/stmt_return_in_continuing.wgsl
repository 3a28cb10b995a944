// expect: 5:18 'return' is not allowed in a continuing block
// §Continuing Statement: a return must not appear in a continuing block.
fn f() {
  loop {
    continuing { return; }
  }
}
@compute @workgroup_size(1) fn main() {}
