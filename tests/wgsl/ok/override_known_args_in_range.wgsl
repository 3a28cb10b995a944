// The edges of the partial-evaluation rules (§clamp, §extractBits,
// §insertBits, §ldexp, §smoothstep) that are not errors: low == high,
// offset + count == 32, e2 == bias + 1, edges that differ.
override lo: f32 = 1.0;
override off: u32 = 24;
override e: i32 = 128;
override edge: f32 = 0.25;
@group(0) @binding(0) var<storage, read_write> s: array<f32>;
@group(0) @binding(1) var<storage, read_write> u: array<u32>;
@compute @workgroup_size(1) fn main() {
  s[0] = clamp(s[1], lo, 1.0);
  u[0] = extractBits(u[1], off, 8u) + insertBits(u[1], u[2], off, 8u);
  s[2] = ldexp(s[3], e) + smoothstep(edge, 0.5, s[4]);
}
