// expect: 4:12 mixing '<<' and '<<' requires parentheses
// §Operator Precedence and Associativity: shifts do not associate (a << b << c).
fn f(a: u32) -> u32 {
  return a << 1u << 2u;
}
@compute @workgroup_size(1) fn main() {}
