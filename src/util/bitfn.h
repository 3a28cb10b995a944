/*
 * bitfn.h — the scalar arithmetic of WGSL's extractBits, insertBits,
 * dot4U8Packed / dot4I8Packed and the snorm / unorm pack and unpack
 * built-ins. Constant evaluation (wgsl/eval.c) and the VM (vm/vm.c) both
 * call these, so a call folded at shader or pipeline creation gives
 * exactly the bits the same call gives when it runs. Also the bit count of
 * a 64-bit lane mask, which the observers take on every event.
 */
#ifndef LS_UTIL_BITFN_H
#define LS_UTIL_BITFN_H

#include <math.h>
#include <stdint.h>

/* The bits set in x, by arithmetic: the library is built for baseline
 * x86-64, where __builtin_popcountll is a libgcc call (the observed
 * interpreter, the profiler and the sanitizer count a mask per event). */
static inline uint64_t bitfn_popcount64(uint64_t x) {
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  return (x * UINT64_C(0x0101010101010101)) >> 56;
}

/* extractBits / insertBits: offset and count clamped as WGSL says
 * (o = min(offset, 32), c = min(count, 32 - o)); a count of 0 extracts 0
 * and inserts nothing. */
static inline uint32_t bitfn_mask(uint32_t o, uint32_t c) {
  return c >= 32u ? UINT32_MAX : ((1u << c) - 1u) << (o & 31u);
}

/* sign: the i32 overload, whose result copies bit c - 1 upwards. */
static inline uint32_t bitfn_extract(uint32_t e, uint32_t off, uint32_t cnt, int sign) {
  const uint32_t o = off < 32u ? off : 32u;
  const uint32_t c = cnt < 32u - o ? cnt : 32u - o;
  if (c == 0) return 0;
  const uint32_t v = (e >> (o & 31u)) & bitfn_mask(0, c);
  if (sign && c < 32u && (v >> (c - 1u) & 1u)) return v | ~bitfn_mask(0, c);
  return v;
}

static inline uint32_t bitfn_insert(uint32_t e, uint32_t nb, uint32_t off, uint32_t cnt) {
  const uint32_t o = off < 32u ? off : 32u;
  const uint32_t c = cnt < 32u - o ? cnt : 32u - o;
  if (c == 0) return e;
  const uint32_t m = bitfn_mask(o, c);
  return (e & ~m) | ((nb << (o & 31u)) & m);
}

/* The dot product of the four 8-bit lanes of a and b; sign: as i8. The
 * signed sum is at most 4 * 128 * 128 in magnitude, so it never wraps. */
static inline uint32_t bitfn_dot4(uint32_t a, uint32_t b, int sign) {
  uint32_t s = 0;
  for (unsigned k = 0; k < 4; k++) {
    const uint32_t x = (a >> (8u * k)) & 0xffu, y = (b >> (8u * k)) & 0xffu;
    if (sign) s += (uint32_t)((int32_t)(int8_t)x * (int32_t)(int8_t)y);
    else s += x * y;
  }
  return s;
}

/* pack*snorm / pack*unorm of one component: floor(0.5 + scale * clamp(f))
 * with scale 127 or 32767 (snorm, clamped to [-1, 1]) and 255 or 65535
 * (unorm, [0, 1]); computed in double, where it is exact for every f32.
 * A NaN (possible at run time only) packs as 0. The caller masks the bits
 * to the field. */
static inline uint32_t bitfn_pack_norm(float f, double scale, int sign) {
  const double lo = sign ? -1.0 : 0.0;
  const double v = f != f ? 0.0 : f < lo ? lo : f > 1.0f ? 1.0 : (double)f;
  return (uint32_t)(int32_t)floor(0.5 + scale * v);
}

/* unpack*snorm / unpack*unorm of one field: v / scale in f32, and for
 * snorm at least -1 (the most negative field, -128 or -32768, gives -1). */
static inline float bitfn_unpack_norm(uint32_t field, float scale, int bits, int sign) {
  if (!sign) return (float)field / scale;
  const uint32_t top = 1u << (bits - 1);
  const int32_t v = (int32_t)(field ^ top) - (int32_t)top; /* sign-extend */
  const float f = (float)v / scale;
  return f < -1.0f ? -1.0f : f;
}

#endif
