/*
 * vm_lane.h — the lane helpers of the SIMT VM: the scalar arithmetic of one
 * lane (conversions, division, f16 rounding) written branch-free so that
 * row loops vectorise, and the mask helpers. The interpreter (vm_interp.h)
 * and the compiled tier (jit.c, which hands this text to the host's C
 * compiler with vm_lanes.inc) both use it, so both give the same bits.
 * Self-contained: system headers only.
 */
#ifndef LS_VM_LANE_H
#define LS_VM_LANE_H

#include <stdint.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(VM_NO_INTRIN)
/* the compiled tier's prelude: no intrinsic headers (parsing them is most
 * of a small program's compile time) */
#elif defined(__SSE2__)
#include <emmintrin.h>
/* the wider variants' intrinsics, used only under their target pragmas */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#endif
#elif defined(__SSE__)
#include <xmmintrin.h>
#endif

#if defined(__GNUC__)
#define VM_LIKELY(x) __builtin_expect(!!(x), 1)
#define VM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define VM_LIKELY(x) (x)
#define VM_UNLIKELY(x) (x)
#endif

/* The bits of an f32 and back (registers hold 32-bit words). */
static inline uint32_t vm_f2u_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float vm_bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Shapes of an address row's runs of 8 lanes (vm_runs8_w, vm_lanes.inc). */
enum { VM_A_SEQ8 = 1, VM_A_UNI8 = 2 };

/* --------------------------------------------------------------- helpers */

/* vm_lanemask[b][j]: all ones when bit j of b is set. MOVM blends eight
 * lanes at a time through it (vm_blend_w, vm_exec.inc), which vectorises
 * where a per-lane shift of the 64-bit mask would not. */
#define VM_LM1(x)                                                              \
  {0u - ((x) & 1u),        0u - ((x) >> 1 & 1u), 0u - ((x) >> 2 & 1u),         \
   0u - ((x) >> 3 & 1u),   0u - ((x) >> 4 & 1u), 0u - ((x) >> 5 & 1u),         \
   0u - ((x) >> 6 & 1u),   0u - ((x) >> 7 & 1u)}
#define VM_LM4(x) VM_LM1(x), VM_LM1((x) + 1u), VM_LM1((x) + 2u), VM_LM1((x) + 3u)
#define VM_LM16(x) VM_LM4(x), VM_LM4((x) + 4u), VM_LM4((x) + 8u), VM_LM4((x) + 12u)
#define VM_LM64(x) VM_LM16(x), VM_LM16((x) + 16u), VM_LM16((x) + 32u), VM_LM16((x) + 48u)
static const uint32_t vm_lanemask[256][8] = {VM_LM64(0u), VM_LM64(64u), VM_LM64(128u),
                                             VM_LM64(192u)};

static inline unsigned vm_ctz64(uint64_t m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(m);
#else
  unsigned n = 0;
  while (!(m & 1)) {
    m >>= 1;
    n++;
  }
  return n;
#endif
}

/* The lane helpers below choose with bit masks rather than ?: because the
 * compiler sinks a float conversion into the arms of a ?:, and a
 * conditional conversion (it may trap) stops if-conversion and with it
 * vectorisation. */
static inline uint32_t vm_sel(int c, uint32_t a, uint32_t b) {
  const uint32_t m = 0u - (uint32_t)(c != 0);
  return (a & m) | (b & ~m);
}

static inline float vm_self(int c, float a, float b) {
  return vm_bits_f(vm_sel(c, vm_f2u_bits(a), vm_f2u_bits(b)));
}

/* trunc/floor/ceil without a library call. Values with |x| >= 2^23 (and
 * NaN, inf) are already integral; the others fit an int32, so the
 * conversion is defined. The sign is copied back so that trunc(-0.5) is
 * -0.0 as IEEE wants. */
static inline float vm_truncf(float x) {
  const uint32_t b = vm_f2u_bits(x);
  const int small = vm_bits_f(b & 0x7fffffffu) < 8388608.0f;
  const float t = (float)(int32_t)vm_self(small, x, 0.0f);
  const uint32_t tb = (vm_f2u_bits(t) & 0x7fffffffu) | (b & 0x80000000u);
  return vm_bits_f(vm_sel(small, tb, b));
}

static inline float vm_floorf(float x) {
  const float t = vm_truncf(x);
  return vm_self(t > x, t - 1.0f, t);
}

static inline float vm_ceilf(float x) {
  const float t = vm_truncf(x);
  return vm_self(t < x, t + 1.0f, t);
}

/* f32 -> i32/u32 as WGSL: truncate, clamp to the target range, NaN -> 0.
 * The float is clamped first so the C conversion is always in range. The
 * clamp bounds are the largest f32 values inside the range (2^31 - 128,
 * 2^32 - 256), which is what WGSL's conversion gives for anything larger:
 * the result must be exactly representable in the source type. */
static inline int32_t vm_f2s(float x) {
  float c = vm_self(x < -2147483648.0f, -2147483648.0f, x);
  c = vm_self(c > 2147483520.0f, 2147483520.0f, c); /* largest f32 below 2^31 */
  c = vm_self(x != x, 0.0f, c);
  return (int32_t)c;
}

static inline uint32_t vm_f2u(float x) {
  float c = vm_self(x > 0.0f, x, 0.0f); /* also NaN -> 0 */
  c = vm_self(c > 4294967040.0f, 4294967040.0f, c); /* largest f32 below 2^32 */
  /* Through int32, which SSE2 converts: the upper half is exact. */
  const int hi = c >= 2147483648.0f;
  const float h = vm_self(hi, c - 2147483648.0f, c);
  return (uint32_t)(int32_t)h + (vm_sel(hi, 0x80000000u, 0u));
}

/* Integer division through f64, which vectorises where integer division
 * does not (about 9x faster for a row). It is exact: for |n|, |d| < 2^32
 * the quotient q has |q| * 2^-53 < 1/|d|, so rounding can never carry q up
 * to the next integer, and integral q are representable. */
static inline double vm_u2d(uint32_t x) {
  return (double)(int32_t)(x ^ 0x80000000u) + 2147483648.0;
}

static inline int32_t vm_sdiv(int32_t n, int32_t d) {
  /* x/0 = x and MIN/-1 = MIN: both are division by 1 */
  const int one = (d == 0) | ((n == INT32_MIN) & (d == -1));
  d = (int32_t)vm_sel(one, 1u, (uint32_t)d);
  return (int32_t)((double)n / (double)d);
}

static inline uint32_t vm_udiv(uint32_t n, uint32_t d) {
  d = vm_sel(d == 0, 1u, d); /* x/0 = x */
  /* By 1 the quotient may not fit an int32: answer n directly, and divide
   * 0 instead so the conversion stays defined. */
  const int one = d == 1;
  const double q = vm_u2d(vm_sel(one, 0u, n)) / vm_u2d(d);
  return vm_sel(one, n, (uint32_t)(int32_t)q);
}

static inline int32_t vm_srem(int32_t n, int32_t d) {
  /* x%0 = 0 and MIN%-1 = 0: both are remainder by 1 */
  const int one = (d == 0) | ((n == INT32_MIN) & (d == -1));
  d = (int32_t)vm_sel(one, 1u, (uint32_t)d);
  const int32_t q = (int32_t)((double)n / (double)d);
  return (int32_t)((uint32_t)n - (uint32_t)q * (uint32_t)d);
}

static inline uint32_t vm_urem(uint32_t n, uint32_t d) {
  d = vm_sel(d == 0, 1u, d); /* x%0 = x%1 = 0 */
  return n - vm_udiv(n, d) * d;
}

/* sqrtf may set errno, which keeps the compiler from vectorising it; the
 * SSE instruction is the same correctly rounded IEEE square root. */
static inline void vm_sqrt_row(float *dst, const float *src, int n) {
#if defined(__SSE__) && !defined(VM_NO_INTRIN)
  for (int k = 0; k < n; k += 4) _mm_storeu_ps(dst + k, _mm_sqrt_ps(_mm_loadu_ps(src + k)));
#else
  for (int k = 0; k < n; k++) dst[k] = sqrtf(src[k]);
#endif
}

/* fminf/fmaxf without a call: a NaN operand yields the other operand. */
static inline float vm_fmin(float x, float y) {
  float r = y < x ? y : x;
  return x != x ? y : r;
}

static inline float vm_fmax(float x, float y) {
  float r = x < y ? y : x;
  return x != x ? y : r;
}

/* ------------------------------------------------------------------ f16
 * An f16 value lives in a register as the f32 that equals it (every f16 is
 * exactly an f32). vm_r16_bits rounds an f32 to the nearest f16 value, ties to
 * even, overflow to infinity, f16 subnormals kept; it is branch-free so the
 * F16R lane loop vectorises.
 *
 * Why one rounding of the f32 result is the correctly rounded f16 result of
 * +, -, *, / (and sqrt) on f16 operands: rounding the exact value first to
 * a format of q significand bits and then to p bits equals rounding it once
 * to p bits whenever q >= 2p + 2 (Figueroa, "When is double rounding
 * innocuous?", 1995). f32 has q = 24 = 2*11 + 2 for f16's p = 11, and for
 * f16 operands the exact f32 results neither overflow (65504^2 < 2^32)
 * nor leave f32's normal range (2^-24 * 2^-24 = 2^-48), so the theorem
 * applies to every operation. */
static inline uint32_t vm_r16_bits(uint32_t b) {
  const uint32_t sign = b & 0x80000000u;
  /* |b| as a signed int (it is below 2^31): SSE2 compares signed words */
  const int32_t a = (int32_t)(b & 0x7fffffffu);
  /* Adding M = 1.5 * 2^(E + 13) rounds |x| in [2^E, 2^(E+1)) to a multiple
   * of M's ulp, 2^(E - 10), which is f16's spacing there; below 2^-14
   * (f16 subnormals) E stays at -14, spacing 2^-24. The rounding is f32's,
   * to nearest even, and subtracting M again is exact. ISO C mode keeps
   * the compiler from folding the pair away. */
  const int32_t e = a & 0x7f800000;
  const uint32_t E = vm_sel(e < 0x38800000, 0x38800000u, (uint32_t)e);
  const float M = vm_bits_f((E + (13u << 23)) | 0x00400000u);
  uint32_t r = vm_f2u_bits((vm_bits_f((uint32_t)a) + M) - M);
  r = vm_sel(a >= 0x477ff000, 0x7f800000u, r); /* 65520 and up round past 65504 */
  /* NaN: one that is an f16 NaN already (no payload below f16's 10 bits)
   * stays as it is, so a bitcast of an f16 NaN gives its bits back; any
   * other becomes the quiet NaN of its sign */
  r = vm_sel(a > 0x7f800000, vm_sel((a & 0x1fff) == 0, (uint32_t)a, 0x7fc00000u), r);
  return sign | r;
}

/* The 16-bit encoding of an f16 value held as f32 (exact: no rounding).
 * Branch-free (selects, signed compares) so that row loops vectorise. */
static inline uint32_t vm_h_bits(uint32_t b) {
  const uint32_t sign = (b >> 16) & 0x8000u;
  const int32_t a = (int32_t)(b & 0x7fffffffu);
  const uint32_t m = ((uint32_t)a >> 13) & 0x3ffu;
  /* a NaN whose payload f16 cannot hold stays a NaN */
  const uint32_t special = 0x7c00u | vm_sel(a > 0x7f800000 && m == 0, 0x200u, m);
  /* exact for f16 subnormals; other values are replaced by 0 first, since
   * converting an out-of-range float to an integer is undefined in C */
  const uint32_t small = vm_sel(a < 0x38800000, (uint32_t)a, 0u);
  const uint32_t sub = (uint32_t)(int32_t)(vm_bits_f(small) * 16777216.0f);
  const uint32_t nrm = (((uint32_t)a >> 13) - (112u << 10)) & 0x7fffu;
  const uint32_t r = vm_sel(a < 0x38800000, sub, nrm);
  return sign | vm_sel(a >= 0x7f800000, special, r);
}

/* The f32 equal to the f16 with encoding h (low 16 bits), branch-free. */
static inline uint32_t vm_h_value(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const int32_t e = (int32_t)((h >> 10) & 0x1fu), m = (int32_t)(h & 0x3ffu);
  const uint32_t sub = vm_f2u_bits((float)m * (1.0f / 16777216.0f));
  const uint32_t nrm = ((h & 0x7fffu) << 13) + (112u << 23);
  const uint32_t r = vm_sel(e == 0, sub, vm_sel(e == 31, 0x7f800000u | ((uint32_t)m << 13), nrm));
  return sign | r;
}

#endif
