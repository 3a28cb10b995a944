// Pack and unpack built-ins and the packed 8-bit dot products. Invocation i
// packs floats built from fs[4i..4i+3] (in [-1.5, 1.5), so the clamps
// matter) and unpacks the LCG word ws[i]; results go to pk (u32) and
// up (f32 and i32/u32 bits) at fixed slots per invocation.
@group(0) @binding(0) var<storage, read> fs: array<vec4f>;
@group(0) @binding(1) var<storage, read> ws: array<u32>;
@group(0) @binding(2) var<storage, read_write> pk: array<u32>;
@group(0) @binding(3) var<storage, read_write> upf: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> upi: array<vec4u>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  let f = fs[i];
  let w = ws[i];
  let iv = vec4i(f * 200.0);
  let uv = vec4u(abs(f) * 300.0);
  let o = i * 12u;
  pk[o + 0u] = pack4x8snorm(f);
  pk[o + 1u] = pack4x8unorm(f);
  pk[o + 2u] = pack2x16snorm(f.xy);
  pk[o + 3u] = pack2x16unorm(f.zw);
  pk[o + 4u] = pack2x16float(f.xy * 1000.0);
  pk[o + 5u] = pack4xI8(iv);
  pk[o + 6u] = pack4xU8(uv);
  pk[o + 7u] = pack4xI8Clamp(iv);
  pk[o + 8u] = pack4xU8Clamp(uv);
  pk[o + 9u] = dot4U8Packed(w, pk[o + 1u]);
  pk[o + 10u] = bitcast<u32>(dot4I8Packed(w, pk[o + 0u]));
  pk[o + 11u] = pack2x16float(unpack2x16float(w & 0x7bff7bffu));
  let b = i * 5u;
  upf[b + 0u] = unpack4x8snorm(w);
  upf[b + 1u] = unpack4x8unorm(w);
  upf[b + 2u] = vec4f(unpack2x16snorm(w), unpack2x16unorm(w));
  // exponents below 0x7c00: finite halves only
  upf[b + 3u] = vec4f(unpack2x16float(w & 0x7bff7bffu), quantizeToF16(f.x * 100.0), quantizeToF16(f.y));
  upf[b + 4u] = vec4f(f.zw, 0.0, 0.0);
  upi[i * 2u] = bitcast<vec4u>(unpack4xI8(w));
  upi[i * 2u + 1u] = unpack4xU8(w);
}
