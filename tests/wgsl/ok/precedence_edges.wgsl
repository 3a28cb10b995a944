// §Operator Precedence and Associativity: -a.b negates the member; !a == b
// applies ! first; (a & b) | c with parentheses; a + b * c; shifts of
// unary operands; a < b && c < d mixes relational and logical.
struct S { b: i32 }
fn f(a: S, x: bool, u: u32, v: u32, w: u32) -> bool {
  let n = -a.b;
  let m = (u & v) | w;
  let k = ~u << 2u;
  let s = u + v * w;
  return (!x == false && n < 0 && m > k) || s == 0u;
}
@compute @workgroup_size(1) fn main() {}
