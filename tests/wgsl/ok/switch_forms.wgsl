// §Switch Statement: several selectors per clause, default among them,
// const-expression selectors, an abstract selector.
const K = 3;
fn f(x: i32) {
  switch x {
    case 1, 2 { }
    case K + 1, default { }
  }
  switch 4 { case 4 { } default { } }
}
@compute @workgroup_size(1) fn main() {}
