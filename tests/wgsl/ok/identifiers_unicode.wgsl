// §Identifiers: letters of any script (XID_Start) start identifiers, and
// combining marks (XID_Continue) may follow.
fn f() -> i32 {
  let café = 1;
  let 東京 = 2;
  let Δx = 3;
  let x́ = 4;
  return café + 東京 + Δx + x́;
}
@compute @workgroup_size(1) fn main() {}
