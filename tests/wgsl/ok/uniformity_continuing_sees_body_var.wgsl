// §Uniformity Rules for Statements: a variable declared in a loop body and
// read in its continuing block is a function variable (uniform zero here),
// not an unknown value.
@compute @workgroup_size(64) fn main() {
  var p: i32;
  loop {
    var q: i32;
    if (p > 0) { break; }
    continuing { p = q; }
  }
  if (p > 0) { workgroupBarrier(); }
}
