// expect: 6:11 not a finite f32
// §mix: e1 * (1 - e3) + e2 * e3, each step an f32 operation: with
// e1 = e2 = -max f32 and e3 = -max f32, 1 - e3 is max f32 and e1 times it
// overflows, so the const-expression is an error even if a wider
// evaluation would find a finite blend.
const c = mix(-3.4028234663852886e38f, -3.4028234663852886e38f, -3.4028234663852886e38f);
@compute @workgroup_size(1) fn main() {}
