// expect: 4:24 'continue' outside a loop
// §Continue Statement: a switch is not a loop; continue needs an enclosing loop.
fn f(x: i32) {
  switch x { default { continue; } }
}
@compute @workgroup_size(1) fn main() {}
