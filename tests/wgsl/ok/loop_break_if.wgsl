// §Loop Statement: break if as the last statement of continuing; a loop
// that only breaks counts as returning for behavior analysis when it returns.
fn f() -> i32 {
  var i = 0;
  loop {
    i++;
    continuing { break if i > 3; }
  }
  loop {
    if (i > 10) { return i; }
    i++;
  }
}
@compute @workgroup_size(1) fn main() {}
