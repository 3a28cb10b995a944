// expect: 8:7 must be the last statement of the continuing block
// §Break-If Statement: break if is the last statement of a continuing block.
fn f() {
  var i = 0;
  loop {
    continuing {
      break if i > 3;
      i++;
    }
  }
}
@compute @workgroup_size(1) fn main() {}
