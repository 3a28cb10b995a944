// Numeric built-in functions on f32 and i32/u32 scalars and vectors. Each
// invocation i takes x = xs[i], y = ys[i] (f32 in [-4, 4)) and a = as_[i],
// b = bs[i] (i32), and writes function j's result to outf[j * N + i] (or
// outi[j * N + i]), so that every function has a contiguous range of words
// and its own accuracy rule. Arguments are shifted into each function's
// domain (log of |x| + 0.01, acosh of |x| + 1, ...).
const N = 128u;

@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read> ys: array<f32>;
@group(0) @binding(2) var<storage, read> as_: array<i32>;
@group(0) @binding(3) var<storage, read> bs: array<i32>;
@group(0) @binding(4) var<storage, read_write> outf: array<f32>;
@group(0) @binding(5) var<storage, read_write> outi: array<i32>;

fn pf(j: u32, i: u32, v: f32) { outf[j * N + i] = v; }
fn pi(j: u32, i: u32, v: i32) { outi[j * N + i] = v; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let x = xs[i];
  let y = ys[i];
  let ax = abs(x);
  pf(0u, i, abs(x));
  pf(1u, i, min(x, y));
  pf(2u, i, max(x, y));
  pf(3u, i, clamp(x, -1.5, 2.25));
  pf(4u, i, sign(x));
  pf(5u, i, saturate(x));
  pf(6u, i, fma(x, y, 0.5));
  pf(7u, i, mix(x, y, 0.3));
  pf(8u, i, step(y, x));
  pf(9u, i, smoothstep(-2.0, 3.0, x));
  pf(10u, i, round(x * 3.0));
  pf(11u, i, trunc(x * 3.0));
  pf(12u, i, fract(x * 3.0));
  pf(13u, i, floor(x * 3.0));
  pf(14u, i, ceil(x * 3.0));
  pf(15u, i, sqrt(ax));
  pf(16u, i, inverseSqrt(ax + 0.125));
  pf(17u, i, exp(x));
  pf(18u, i, exp2(x));
  pf(19u, i, log(ax + 0.01));
  pf(20u, i, log2(ax + 0.01));
  pf(21u, i, pow(ax + 0.125, y));
  pf(22u, i, sin(x * 0.75));
  pf(23u, i, cos(x * 0.75));
  pf(24u, i, tan(x * 0.25));
  pf(25u, i, asin(x * 0.25));
  pf(26u, i, acos(x * 0.25));
  pf(27u, i, atan(x));
  pf(28u, i, atan2(x, y));
  pf(29u, i, sinh(x));
  pf(30u, i, cosh(x));
  pf(31u, i, tanh(x));
  pf(32u, i, asinh(x));
  pf(33u, i, acosh(ax + 1.0));
  pf(34u, i, atanh(x * 0.25));
  pf(35u, i, degrees(x));
  pf(36u, i, radians(x));
  let u = vec3f(x, y, 1.0);
  let v = vec3f(y, 2.0, x);
  pf(37u, i, dot(u, v));
  let c = cross(u, v);
  pf(38u, i, c.x);
  pf(39u, i, c.y);
  pf(40u, i, c.z);
  pf(41u, i, length(vec2f(x, y)));
  pf(42u, i, distance(u, vec3f(1.0, 2.0, 3.0)));
  let nrm = normalize(vec2f(x + 4.5, y));
  pf(43u, i, nrm.x);
  pf(44u, i, nrm.y);
  let r = reflect(vec2f(x, y), vec2f(0.6, 0.8));
  pf(45u, i, r.x);
  pf(46u, i, r.y);
  let ff = faceForward(vec2f(x, y), vec2f(y, x), vec2f(1.0, -1.0));
  pf(47u, i, ff.x);
  pf(48u, i, ff.y);
  pf(49u, i, ldexp(x, 3));
  pf(50u, i, length(x));
  // vector forms go through the same code per component
  let vv = abs(vec4f(x, y, -x, -y)) + min(vec4f(x), vec4f(y)) * sign(vec4f(y));
  pf(51u, i, vv.x + vv.y * 2.0 + vv.z * 4.0 + vv.w * 8.0);

  let a = as_[i];
  let b = bs[i];
  pi(0u, i, abs(a));
  pi(1u, i, min(a, b));
  pi(2u, i, max(a, b));
  pi(3u, i, clamp(a, -100, 200));
  pi(4u, i, sign(a));
  let ua = bitcast<u32>(a);
  let ub = bitcast<u32>(b);
  pi(5u, i, bitcast<i32>(min(ua, ub)));
  pi(6u, i, bitcast<i32>(max(ua, ub)));
  pi(7u, i, bitcast<i32>(clamp(ua, 100u, 0x80000000u)));
  pi(8u, i, dot(vec3i(a, b, 3), vec3i(b, -7, a)));
  pi(9u, i, bitcast<i32>(dot(vec2u(ua, 3u), vec2u(ub, ua))));
  let iv = abs(vec2i(a, b)) + max(vec2i(a, b), vec2i(0, 5));
  pi(10u, i, iv.x - iv.y);
  pi(11u, i, bitcast<i32>(x));
  pi(12u, i, select(-5, 9, a > b));
}
