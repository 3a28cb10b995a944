// expect: 4:3 'break' outside a loop or switch
// §Break Statement: break must be inside a loop or switch.
fn f() {
  break;
}
@compute @workgroup_size(1) fn main() {}
