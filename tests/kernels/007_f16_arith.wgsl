// f16 arithmetic, conversions and bitcasts (enable f16; device feature
// "shader-f16"). Each invocation i converts two f32 inputs to f16 (a, b) and
// writes:
//   hx[16i + k]  f16 results of single operations (exactly one rounding,
//                so every correct implementation gives the same bits)
//   ux[8i + k]   32-bit results: f16 -> integer, comparisons, bitcasts
//   fa[128k + i] f16 results that WGSL gives an error bound for
//                (division, sqrt, fma, length, exp, log, sin, cos: one
//                block of 128 per function), widened exactly to f32
// The uniform u carries integers for i32/u32 -> f16 and f16 operands.
// Reassociation and fusion are allowed (WGSL §Reassociation and Fusion), so
// the exact outputs are each one operation on loaded values.
enable f16;

struct U {
  ints: array<vec4i, 2>, // bytes 0..31
  h: vec4h,              // bytes 32..39
  g: vec2h,              // bytes 40..43
  s: f16,                // bytes 44..45 (size 48 with the struct's align 8)
}

@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<uniform> u: U;
@group(0) @binding(2) var<storage, read_write> hx: array<f16>;
@group(0) @binding(3) var<storage, read_write> ux: array<u32>;
@group(0) @binding(4) var<storage, read_write> fa: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let a = f16(xs[2u * i]);
  let b = f16(xs[2u * i + 1u]);
  let j = i & 7u;
  let k = u.ints[j >> 2u][j & 3u];

  let o = 16u * i;
  hx[o + 0u] = a;
  hx[o + 1u] = b;
  hx[o + 2u] = a + b;
  hx[o + 3u] = a - b;
  hx[o + 4u] = a * b;
  hx[o + 5u] = -a;
  hx[o + 6u] = abs(b);
  hx[o + 7u] = min(a, b);
  hx[o + 8u] = max(a, b);
  hx[o + 9u] = clamp(a, -50.0h, 50.0h);
  hx[o + 10u] = floor(a);
  hx[o + 11u] = ceil(a);
  hx[o + 12u] = trunc(a);
  hx[o + 13u] = round(a);
  hx[o + 14u] = f16(k);
  hx[o + 15u] = u.h[j & 3u] * u.g[j & 1u];

  let p = 8u * i;
  ux[p + 0u] = bitcast<u32>(vec2h(a, b));
  ux[p + 1u] = u32(a);
  ux[p + 2u] = bitcast<u32>(i32(a));
  ux[p + 3u] = u32(a < b) | (u32(a <= b) << 1u) | (u32(a == b) << 2u) | (u32(a != b) << 3u) |
               (u32(a > b) << 4u) | (u32(a >= b) << 5u) | (select(0u, 1u, a > 0.0h) << 6u);
  ux[p + 4u] = bitcast<u32>(f32(a) * f32(u.s));
  ux[p + 5u] = bitcast<u32>(vec2h(f16(xs[2u * i] * 3.0f), f16(a > b)));
  ux[p + 6u] = bitcast<u32>(vec2h(f16(bitcast<u32>(k) & 0x7fffu), fract(a)));
  let m = bitcast<vec2h>(bitcast<u32>(k) & 0x7bff7bffu);
  let w = bitcast<vec2u>(vec4h(m.yx, a, b));
  ux[p + 7u] = w.x;

  let d = abs(b) + 1.0h;
  let c = a / 64.0h;
  let n = arrayLength(&xs) / 2u;
  fa[0u * n + i] = f32(a / d);
  fa[1u * n + i] = f32(sqrt(abs(a)));
  fa[2u * n + i] = f32(fma(a, b, 1.5h));
  fa[3u * n + i] = f32(length(vec2h(a, b) / 16.0h));
  fa[4u * n + i] = f32(exp(c));
  fa[5u * n + i] = f32(log(abs(a) + 1.0h));
  fa[6u * n + i] = f32(sin(c));
  fa[7u * n + i] = f32(cos(c));
}
