// Constants the resolver now folds, used at run time: frexp(12.0) =
// 0.75 * 2^4, modf(-2.5) = {-0.5, -2}, vec3() = (0, 0, 0), and a skipped
// short-circuit operand (false && ...) whose overflow is not evaluated.
// Expected out = [4, 0.75 as bits 0x3f400000 = 1061158912,
// -2 as i32 = 4294967294, 0, 1].
const f = frexp(12.0);
const m = modf(-2.5);
const z = vec3();
const skipped = false && (10i < i32(5 * 1000 * 1000 * 1000));
@group(0) @binding(0) var<storage, read_write> out: array<u32, 5>;
@compute @workgroup_size(1) fn main() {
  out[0] = u32(f.exp);
  out[1] = bitcast<u32>(f.fract);
  out[2] = bitcast<u32>(i32(m.whole));
  out[3] = u32(z.y);
  out[4] = select(0u, 1u, !skipped);
}
