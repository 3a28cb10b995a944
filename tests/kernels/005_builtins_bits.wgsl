// Bit manipulation, select/all/any: each invocation i takes u = us[i],
// v = vs[i] (LCG u32 words) and writes function j's result to
// out[j * N + i]. Offsets and counts of extractBits/insertBits come from
// the data too, so the clamping rules (offset + count > 32) are exercised.
const N = 128u;

@group(0) @binding(0) var<storage, read> us: array<u32>;
@group(0) @binding(1) var<storage, read> vs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

fn put(j: u32, i: u32, v: u32) { out[j * N + i] = v; }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  // mostly small shifts of the data so leading zeros vary
  let u = us[i] >> (vs[i] & 31u);
  let v = vs[i];
  let s = bitcast<i32>(u ^ (v & 0x80000000u));
  let off = v & 31u;
  let cnt = (v >> 5u) & 63u;
  put(0u, i, countOneBits(u));
  put(1u, i, countLeadingZeros(u));
  put(2u, i, countTrailingZeros(u));
  put(3u, i, firstLeadingBit(u));
  put(4u, i, firstTrailingBit(u));
  put(5u, i, reverseBits(u));
  put(6u, i, bitcast<u32>(firstLeadingBit(s)));
  put(7u, i, bitcast<u32>(countOneBits(s)));
  put(8u, i, extractBits(u, off, cnt));
  put(9u, i, bitcast<u32>(extractBits(s, off, cnt)));
  put(10u, i, insertBits(u, v, off, cnt));
  put(11u, i, bitcast<u32>(insertBits(s, bitcast<i32>(v), off, cnt)));
  put(12u, i, extractBits(u, 24u, 8u));
  put(13u, i, insertBits(u, 0u, 0u, 32u));
  let vv = countLeadingZeros(vec2u(u, v)) + reverseBits(vec2u(v, u));
  put(14u, i, vv.x ^ vv.y);
  put(15u, i, select(u, v, u < v));
  let b = vec3<bool>(u < v, (u & 1u) == 1u, (v & 2u) == 2u);
  put(16u, i, select(0u, 1u, all(b)) | select(0u, 2u, any(b)) | select(0u, 4u, all(b.xy)) | select(0u, 8u, any(b.yz)));
  let sv = select(vec2u(u, v), vec2u(v, u), vec2<bool>(b.x, b.z));
  put(17u, i, sv.x + 3u * sv.y);
  put(18u, i, select(0u, 1u, any(b.x)) + select(0u, 2u, all(b.z)));
  put(19u, i, bitcast<u32>(firstTrailingBit(s)) ^ bitcast<u32>(countTrailingZeros(s)));
}
