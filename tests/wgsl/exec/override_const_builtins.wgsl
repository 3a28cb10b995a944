// Module-scope private variables initialised from @const built-ins of
// overrides (§override Expressions: an override-expression may call any
// const-function), evaluated at pipeline creation with the case's
// constants x = 0.5, u = 0x12345678 (305419896), i = 3, m = -2^31:
//   sqrt(x * 8) = 2                          -> 0x40000000 = 1073741824
//   frexp(x * 12) = frexp(6) = 0.75 * 2^3    -> 0x3f400000 = 1061158912, 3
//   extractBits(u, 4, 8) = 0x67              -> 103
//   pack4x8unorm(vec4(x)): floor(0.5 + 127.5) = 128 each -> 0x80808080 = 2155905152
//   dot4U8Packed(u, 0x01010101) = 0x78 + 0x56 + 0x34 + 0x12 = 276
//   i * 2147483647 = 6442450941 - 2^32       -> 2147483645
//   -m = m (the most negative i32)           -> 0x80000000 = 2147483648
//   vec2(x, 2 * x).yx = (1, 0.5)             -> 1065353216 1056964608
override x: f32;
override u: u32;
override i: i32;
override m: i32;
var<private> a = sqrt(x * 8.0);
var<private> b = frexp(x * 12.0);
var<private> c = extractBits(u, 4u, 8u);
var<private> d = pack4x8unorm(vec4f(x));
var<private> e = dot4U8Packed(u, 0x01010101u);
var<private> g = i * 2147483647;
var<private> h = -m;
var<private> sw = vec2(x, 2.0 * x).yx;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 10>;
@compute @workgroup_size(1) fn main() {
  out[0] = bitcast<u32>(a);
  out[1] = bitcast<u32>(b.fract);
  out[2] = bitcast<u32>(b.exp);
  out[3] = c;
  out[4] = d;
  out[5] = e;
  out[6] = bitcast<u32>(g);
  out[7] = bitcast<u32>(h);
  out[8] = bitcast<u32>(sw.x);
  out[9] = bitcast<u32>(sw.y);
}
