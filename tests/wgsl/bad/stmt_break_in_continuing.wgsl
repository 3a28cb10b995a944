// expect: 5:18 use 'break if'
// §Break Statement: a break must not exit a continuing block (use break if).
fn f() {
  loop {
    continuing { break; }
  }
}
@compute @workgroup_size(1) fn main() {}
