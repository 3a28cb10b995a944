// Expressions: precedence and associativity, short-circuit && and || with
// side effects (a private variable and atomic counters record every call of
// the right operand), swizzles read and written (also through a pointer),
// bitcast, every kind of value constructor, conversions (float to integer
// clamping, i32 <-> u32 reinterpretation, bool(), u32 -> f32), integer
// division and remainder edges at run time, shifts by amounts >= 32, and
// abstract numbers meeting concrete operands.
@group(0) @binding(0) var<storage, read> inp: array<u32>;          // 64 u32, then 64 f32 bit patterns
@group(0) @binding(1) var<storage, read_write> out: array<u32>;    // K words per invocation, then 64 f32
@group(0) @binding(2) var<storage, read_write> cnt: array<atomic<u32>, 4>;

const K = 64u;

struct S {
  x: i32,
  v: vec2f,
  b: u32,
}

var<private> base: u32;
var<private> cursor: u32;
var<private> hits: u32;
var<private> ctr: u32;
var<private> trace: u32;

// Records the order of its calls in `trace`.
fn next() -> u32 {
  ctr += 1u;
  trace = trace * 10u + ctr;
  return ctr;
}

fn two(p: u32, q: u32) -> u32 {
  return p * 100u + q;
}

fn put(v: u32) {
  out[base + cursor] = v;
  cursor++;
}

fn side(k: u32, r: bool) -> bool {
  hits = hits * 4u + k;
  atomicAdd(&cnt[k], 1u);
  return r;
}

fn h4(v: vec4u) -> u32 {
  return v.x + v.y * 3u + v.z * 5u + v.w * 7u;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  base = i * K;
  cursor = 0u;
  let a = inp[i];
  let b = inp[(i * 7u + 3u) % 64u];
  let d = inp[i ^ 1u];
  let f = bitcast<f32>(inp[64u + i]);
  let sa = bitcast<i32>(a);
  let sb = bitcast<i32>(b);
  let sd = bitcast<i32>(d);

  // precedence and associativity
  put(a * 3u + b % 5u - 1u);
  put(a - b - 7u);
  put(a / 7u % 13u);
  put(a & b & 0xff00ffu);
  put(a | b | 1u);
  put(a ^ b ^ 0x5a5a5a5au);
  put((a << 3u) | (b >> 2u));
  put(bitcast<u32>(-sa * sb));
  put(bitcast<u32>(- -sa + ~sb));
  put(~a + 1u);
  let p = a > b;
  let q = (a & 1u) == 1u;
  put(u32(!p == q) | (u32(p != !q) << 1u) | (u32((p && q) || !p) << 2u) | (u32(!(a < b) == (b <= a)) << 3u));
  let fv = vec2f(f32(a & 0xffu), f32(b & 0xffu));
  put(bitcast<u32>(-fv.y * fv.x + 0.5));
  let v = vec4u(a, b, a ^ b, i);
  put(h4(~v.xyzw) ^ h4(bitcast<vec4u>(-vec4i(v.wzyx))));   // unary on swizzles

  // shifts by run-time amounts (taken modulo 32)
  put(a << b);
  put(a >> b);
  put(bitcast<u32>(sa >> b));
  put(bitcast<u32>(sa << d));
  put(1u << (i + 20u));

  // short-circuit: the right operand must not run
  hits = 0u;
  let c1 = (a % 3u == 0u) && side(1u, b % 2u == 0u);
  let c2 = (a % 5u == 0u) || side(2u, b % 3u == 0u);
  let c3 = side(3u, a > b) && (side(1u, true) || side(2u, false));
  var c4 = false;
  if (a & 4u) != 0u && side(3u, false) { c4 = true; }
  if !((a & 8u) == 0u || side(0u, true)) { hits += 1000u; }
  put(u32(c1) | (u32(c2) << 1u) | (u32(c3) << 2u) | (u32(c4) << 3u));
  put(hits);

  // swizzles
  put(h4(v.wzyx));
  put(h4(v.xxyy));
  put(h4(v.rgba.abgr));
  put(h4(vec4u(v.zyx.yz, v.bg)));
  put(v.zyx.x + v.ww.y * 2u);
  var w = v;
  w.x = 1u;
  w.y += 2u;
  w[2] = a >> 3u;
  w.g *= 3u;
  let pw = &w;
  (*pw).z ^= 5u;
  pw.w = 6u;
  (*pw)[i % 4u] += 100u;
  put(h4(w));
  put(h4(w.yyww + (*pw).xzxz));

  // bitcast
  put(bitcast<u32>(f));
  put(bitcast<u32>(bitcast<i32>(f) >> 1u));
  let bv = bitcast<vec2u>(vec2f(f, -f));
  put(bv.x ^ bv.y);
  let fbits = (a & 0x3fffffffu) | 0x00800000u;   // a normal f32, never NaN
  put(bitcast<vec2u>(bitcast<vec2f>(vec2u(fbits, (b & 0x3fffffffu) | 0x00800000u))).x);
  put(bitcast<u32>(bitcast<f32>(0x3f800000u | (a & 0xffffu)) * 2.0));
  put(bitcast<vec2u>(vec2i(sa, sb)).y);

  // constructors
  let z3 = vec3u();
  let zs = S();
  put(z3.x + z3.y + z3.z + u32(i32()) + u32(f32()) + u32(bool()) + bitcast<u32>(zs.x) + bitcast<u32>(zs.v.y) + zs.b);
  let sp = vec3(a);
  put(sp.x ^ sp.y ^ sp.z ^ 0x1234u);
  put(h4(vec4(vec2(a, b), a, 5u)));
  put(h4(vec4(a, vec2(b, 1u), 2u)));
  put(h4(vec4(vec3(b, a, i), 9u)));
  let arr = array(1, 2, 3);
  put(bitcast<u32>(arr[i % 3u] * sa));
  let arr2 = array(a, b, 3u);
  put(arr2[(i + 1u) % 3u] + arr2[2]);
  let st = S(sa, vec2f(f32(i), 1.5), b);
  put(bitcast<u32>(st.x) ^ st.b ^ u32(st.v.x + st.v.y));
  let bb = vec2<bool>(true, a > b);
  put(select(0u, 1u, bb.x) + select(0u, 2u, bb.y) + select(0u, 4u, all(vec3(p, q, true))));

  // conversions
  put(bitcast<u32>(i32(f)));
  put(u32(f));
  put(u32(sa) ^ bitcast<u32>(i32(a)));
  put(u32(bool(a)) | (u32(bool(f)) << 1u) | (u32(bool(i32(a & 3u))) << 2u));
  put(u32(i32(f32(sa % 1000) * 0.5)));

  // integer division and remainder at run time
  put(bitcast<u32>(sa / sd));
  put(bitcast<u32>(sa % sd));
  put(a / d);
  put(a % d);
  put(bitcast<vec2u>(vec2i(sa, -7) / vec2i(sd, 2)).x ^ bitcast<vec2u>(vec2i(sa, -7) % vec2i(sd, 2)).y);

  // abstract numbers with concrete operands
  put(a + 1);
  put(u32(0x7fffffff + 1) + a);
  put(bitcast<u32>(sa * -(2 + 3) + (1 << 4)));
  put(bitcast<u32>(f32(a & 7u) * 1.5 * 4 + 0.25));
  put(a >> (40 - 36));
  let k = 3 + 4 * 2;
  put(bitcast<u32>(k - sb));

  // operands and arguments are evaluated left to right
  ctr = i % 4u;
  trace = 0u;
  put(two(next(), next()));
  put(next() - next() * 2u + next());
  put(trace);
  // component-wise comparisons
  let va = vec4u(i, a % 64u, 2u, 30u);
  let vb = vec4u(5u, b % 64u, i, 15u);
  let lt = va < vb;
  put(u32(lt.x) | (u32(lt.y) << 1u) | (u32(lt.z) << 2u) | (u32(lt.w) << 3u) | (u32(any(va == vb)) << 4u) |
      (u32(all(va >= vb)) << 5u) | (u32(all(va != vb)) << 6u));

  // u32 -> f32 (rounded up or down where not exact): the f32 tail
  out[K * 64u + i] = bitcast<u32>(f32(a));
}
