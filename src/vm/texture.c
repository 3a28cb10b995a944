/*
 * texture.c — the texel side of the texture opcodes (TLD, TST, TQRY): the
 * address of a texel in a view, and WGSL's channel transfer functions
 * (§Texel Formats) between the stored bits and the shader's vec4 value,
 * driven by the codec columns of formats.def.
 * Each call covers the live lanes of one subgroup; the handlers in
 * vm_loop.inc only pass rows. Out of bounds, a load gives (0, 0, 0, 0) and
 * a store does nothing: two of the behaviours WGSL allows
 * (docs/spec-notes.md).
 */
#include <math.h>
#include <string.h>

#include "../../include/lockstep.h"
#include "vm.h"

/* How the bits of each format map onto the shader's vec4 (formats.def):
 * a channel format for every channel, or a packed layout. */
typedef enum {
  TXC_UNORM8, TXC_SNORM8, TXC_UINT8, TXC_SINT8, TXC_SRGB8,
  TXC_UNORM16, TXC_SNORM16, TXC_UINT16, TXC_SINT16, TXC_FLOAT16,
  TXC_UINT32, TXC_SINT32, TXC_FLOAT32,
  TXC_RGB10A2UI, TXC_RGB10A2UN, TXC_RG11B10F, TXC_RGB9E5F
} tx_codec;

typedef struct {
  uint8_t codec, ch, bgra;
} tx_fmt;

static const tx_fmt tx_fmts[LS_FORMAT_COUNT_] = {
#define X(n, bytes, codec, ch, order, ...) [LS_FORMAT_##n] = {TXC_##codec, ch, TX_##order},
#define TX_RGBA 0
#define TX_BGRA 1
#include "formats.def"
#undef TX_RGBA
#undef TX_BGRA
#undef X
};

/* v / 255 for each 8-bit code, folded by the compiler (the same correctly
 * rounded quotient as the division at run time, without its latency) */
#define TX_U8_1(i) (float)(i) / 255.0f
#define TX_U8_4(i) TX_U8_1(i), TX_U8_1(i + 1), TX_U8_1(i + 2), TX_U8_1(i + 3)
#define TX_U8_16(i) TX_U8_4(i), TX_U8_4(i + 4), TX_U8_4(i + 8), TX_U8_4(i + 12)
#define TX_U8_64(i) TX_U8_16(i), TX_U8_16(i + 16), TX_U8_16(i + 32), TX_U8_16(i + 48)
static const float tx_unorm8[256] = {TX_U8_64(0), TX_U8_64(64), TX_U8_64(128), TX_U8_64(192)};

/* memory channel i -> shader component: bgra holds b, g, r, a */
static const uint8_t tx_swz[2][4] = {{0, 1, 2, 3}, {2, 1, 0, 3}};

/* max(lo, min(hi, x)) as WGSL writes the inverse transfer functions; a NaN
 * goes to lo (min and max of a NaN may return either operand). */
static float tx_clampf(float x, float lo, float hi) {
  if (!(x >= lo)) return lo;
  return x > hi ? hi : x;
}

/* floor(0.5 + s * clamp(x)): the rounding of pack4x8unorm / pack4x8snorm,
 * which WGSL defines for the same normalized channels. */
static int32_t tx_norm(float x, float lo, int32_t s) {
  return (int32_t)floorf(0.5f + (float)s * tx_clampf(x, lo, 1.0f));
}

static uint32_t tx_umin(uint32_t x, uint32_t hi) { return x > hi ? hi : x; }
static int32_t tx_sclamp(int32_t x, int32_t lo, int32_t hi) { return x < lo ? lo : x > hi ? hi : x; }

/* v / s for an snorm channel: s + 1 codes below zero, so the most negative
 * one is clamped to -1 (the CTF maps {-128, ..., 127} onto [-1, 1]). */
static uint32_t tx_snorm(int32_t v, float s) {
  const float f = (float)v / s;
  return vm_f2u_bits(f < -1.0f ? -1.0f : f);
}

/* The sRGB EOTF (IEC 61966-2-1) of each 8-bit code, as f32 bits: c =
 * code / 255, c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4,
 * computed in double and rounded once to f32 (tests/unit/test_formats.c
 * recomputes every entry). A table, since pow per channel would dominate a
 * load. */
static const uint32_t tx_srgb_bits[256] = {
    0x00000000u, 0x399f22b4u, 0x3a1f22b4u, 0x3a6eb40eu, 0x3a9f22b4u, 0x3ac6eb61u,
    0x3aeeb40eu, 0x3b0b3e5du, 0x3b1f22b4u, 0x3b33070au, 0x3b46eb61u, 0x3b5b518eu,
    0x3b70f18fu, 0x3b83e1c6u, 0x3b8fe616u, 0x3b9c87fdu, 0x3ba9c9b6u, 0x3bb7ad6fu,
    0x3bc6354au, 0x3bd56360u, 0x3be539c1u, 0x3bf5ba71u, 0x3c0373b6u, 0x3c0c6153u,
    0x3c15a705u, 0x3c1f45beu, 0x3c293e6bu, 0x3c3391f7u, 0x3c3e4149u, 0x3c494d44u,
    0x3c54b6c9u, 0x3c607eb4u, 0x3c6ca5dfu, 0x3c792d22u, 0x3c830aa9u, 0x3c89af9fu,
    0x3c9085dcu, 0x3c978dc6u, 0x3c9ec7c2u, 0x3ca63433u, 0x3cadd37du, 0x3cb5a602u,
    0x3cbdac21u, 0x3cc5e63au, 0x3cce54acu, 0x3cd6f7d5u, 0x3cdfd010u, 0x3ce8ddbau,
    0x3cf2212du, 0x3cfb9ac3u, 0x3d02a56au, 0x3d0798ddu, 0x3d0ca7e6u, 0x3d11d2afu,
    0x3d171964u, 0x3d1c7c30u, 0x3d21fb3cu, 0x3d2796b2u, 0x3d2d4ebbu, 0x3d332381u,
    0x3d39152bu, 0x3d3f23e4u, 0x3d454fd2u, 0x3d4b991du, 0x3d51ffecu, 0x3d588468u,
    0x3d5f26b6u, 0x3d65e6fdu, 0x3d6cc563u, 0x3d73c20eu, 0x3d7add24u, 0x3d810b65u,
    0x3d84b793u, 0x3d88732eu, 0x3d8c3e48u, 0x3d9018f4u, 0x3d940344u, 0x3d97fd49u,
    0x3d9c0715u, 0x3da020bau, 0x3da44a4au, 0x3da883d6u, 0x3daccd6fu, 0x3db12727u,
    0x3db5910fu, 0x3dba0b38u, 0x3dbe95b3u, 0x3dc33090u, 0x3dc7dbe0u, 0x3dcc97b4u,
    0x3dd1641du, 0x3dd6412bu, 0x3ddb2eeeu, 0x3de02d76u, 0x3de53cd4u, 0x3dea5d18u,
    0x3def8e51u, 0x3df4d090u, 0x3dfa23e5u, 0x3dff885eu, 0x3e027f06u, 0x3e05427fu,
    0x3e080ea2u, 0x3e0ae377u, 0x3e0dc104u, 0x3e10a753u, 0x3e13966au, 0x3e168e51u,
    0x3e198f0fu, 0x3e1c98acu, 0x3e1fab30u, 0x3e22c6a1u, 0x3e25eb07u, 0x3e29186au,
    0x3e2c4ed0u, 0x3e2f8e42u, 0x3e32d6c5u, 0x3e362862u, 0x3e39831fu, 0x3e3ce703u,
    0x3e405417u, 0x3e43ca60u, 0x3e4749e6u, 0x3e4ad2afu, 0x3e4e64c3u, 0x3e520029u,
    0x3e55a4e7u, 0x3e595305u, 0x3e5d0a89u, 0x3e60cb7au, 0x3e6495dfu, 0x3e6869beu,
    0x3e6c471fu, 0x3e702e07u, 0x3e741e7eu, 0x3e78188bu, 0x3e7c1c33u, 0x3e8014bfu,
    0x3e822039u, 0x3e84308bu, 0x3e8645b8u, 0x3e885fc3u, 0x3e8a7eb0u, 0x3e8ca281u,
    0x3e8ecb3bu, 0x3e90f8dfu, 0x3e932b72u, 0x3e9562f6u, 0x3e979f6fu, 0x3e99e0e0u,
    0x3e9c274cu, 0x3e9e72b6u, 0x3ea0c321u, 0x3ea31890u, 0x3ea57307u, 0x3ea7d288u,
    0x3eaa3716u, 0x3eaca0b6u, 0x3eaf0f68u, 0x3eb18332u, 0x3eb3fc15u, 0x3eb67a14u,
    0x3eb8fd34u, 0x3ebb8576u, 0x3ebe12deu, 0x3ec0a56eu, 0x3ec33d2au, 0x3ec5da14u,
    0x3ec87c30u, 0x3ecb2380u, 0x3ecdd008u, 0x3ed081cau, 0x3ed338c9u, 0x3ed5f508u,
    0x3ed8b68au, 0x3edb7d52u, 0x3ede4963u, 0x3ee11abfu, 0x3ee3f169u, 0x3ee6cd65u,
    0x3ee9aeb5u, 0x3eec955bu, 0x3eef815cu, 0x3ef272b8u, 0x3ef56974u, 0x3ef86593u,
    0x3efb6716u, 0x3efe6e00u, 0x3f00bd2bu, 0x3f02460cu, 0x3f03d1a5u, 0x3f055ff7u,
    0x3f06f104u, 0x3f0884cdu, 0x3f0a1b54u, 0x3f0bb499u, 0x3f0d509fu, 0x3f0eef65u,
    0x3f1090efu, 0x3f12353du, 0x3f13dc50u, 0x3f15862au, 0x3f1732ccu, 0x3f18e237u,
    0x3f1a946eu, 0x3f1c4970u, 0x3f1e0140u, 0x3f1fbbdeu, 0x3f21794du, 0x3f23398cu,
    0x3f24fc9fu, 0x3f26c285u, 0x3f288b41u, 0x3f2a56d2u, 0x3f2c253cu, 0x3f2df67fu,
    0x3f2fca9cu, 0x3f31a194u, 0x3f337b6au, 0x3f35581du, 0x3f3737b0u, 0x3f391a24u,
    0x3f3aff7au, 0x3f3ce7b2u, 0x3f3ed2cfu, 0x3f40c0d2u, 0x3f42b1bcu, 0x3f44a58eu,
    0x3f469c49u, 0x3f4895efu, 0x3f4a9280u, 0x3f4c91ffu, 0x3f4e946cu, 0x3f5099c9u,
    0x3f52a216u, 0x3f54ad56u, 0x3f56bb88u, 0x3f58ccafu, 0x3f5ae0ccu, 0x3f5cf7dfu,
    0x3f5f11eau, 0x3f612eefu, 0x3f634eeeu, 0x3f6571e9u, 0x3f6797e0u, 0x3f69c0d5u,
    0x3f6beccau, 0x3f6e1bbfu, 0x3f704db5u, 0x3f7282aeu, 0x3f74baabu, 0x3f76f5aeu,
    0x3f7933b6u, 0x3f7b74c6u, 0x3f7db8deu, 0x3f800000u,
};

/* An unsigned float of WGSL's 11float / 10float channel formats: 5 bits of
 * exponent (bias 15) over mb bits of fraction, no sign; exponent 0 holds
 * the subnormals, 31 infinity (fraction 0) and NaN. */
static uint32_t tx_ufloat(uint32_t x, unsigned mb) {
  const uint32_t e = x >> mb, m = x & ((1u << mb) - 1);
  if (e == 31) return m ? 0x7fc00000u : 0x7f800000u;
  if (e == 0) return vm_f2u_bits(ldexpf((float)m, -14 - (int)mb));
  /* a normal one is an f32 with the fraction shifted up */
  return (e - 15 + 127) << 23 | m << (23 - mb);
}

/* max(0, T) in an unsigned float of mb fraction bits: the nearest value,
 * ties to even; finite values above the largest finite one take it (GPU
 * APIs allow it or infinity); NaN and negatives give 0, +infinity stays. */
static uint32_t tx_to_ufloat(uint32_t bits, unsigned mb) {
  const float f = vm_bits_f(bits);
  if (!(f > 0.0f)) return 0;
  const uint32_t inf = 31u << mb;
  if (isinf(f)) return inf;
  int ex;
  frexpf(f, &ex); /* f in [2^(ex-1), 2^ex) */
  int q = ex - 1 - (int)mb; /* the ulp of f's binade in the small format */
  if (q < -14 - (int)mb) q = -14 - (int)mb; /* the subnormals' ulp */
  /* f = u ulps; in binade E = q + mb + 15 the code is (E - 1) << mb plus
   * u (u = 2^mb + fraction), which also holds for the subnormals and when
   * rounding carries into the next binade */
  const uint32_t u = (uint32_t)rint(ldexp((double)f, -q));
  const uint32_t code = ((uint32_t)(q + (int)mb + 14) << mb) + u;
  return code >= inf ? inf - 1 : code;
}

/* The inverse transfer function of one channel into its element. */
static void tx_put(unsigned codec, uint8_t *p, unsigned i, uint32_t v) {
  uint16_t h;
  switch (codec) {
  case TXC_UNORM8: p[i] = (uint8_t)tx_norm(vm_bits_f(v), 0.0f, 255); return;
  case TXC_SNORM8: p[i] = (uint8_t)(int8_t)tx_norm(vm_bits_f(v), -1.0f, 127); return;
  case TXC_UINT8: p[i] = (uint8_t)tx_umin(v, 255); return;
  case TXC_SINT8: p[i] = (uint8_t)(int8_t)tx_sclamp((int32_t)v, -128, 127); return;
  case TXC_UNORM16: h = (uint16_t)tx_norm(vm_bits_f(v), 0.0f, 65535); break;
  case TXC_SNORM16: h = (uint16_t)(int16_t)tx_norm(vm_bits_f(v), -1.0f, 32767); break;
  case TXC_UINT16: h = (uint16_t)tx_umin(v, 65535); break;
  case TXC_SINT16: h = (uint16_t)(int16_t)tx_sclamp((int32_t)v, -32768, 32767); break;
  case TXC_FLOAT16: h = (uint16_t)vm_f16_encode(v); break; /* quantizeToF16 */
  case TXC_SRGB8: return; /* no sRGB format is a storage format */
  default: memcpy(p + 4 * i, &v, 4); return;
  }
  memcpy(p + 2 * i, &h, 2);
}

static int tx_is_int(unsigned codec) {
  return codec == TXC_UINT8 || codec == TXC_SINT8 || codec == TXC_UINT16 ||
         codec == TXC_SINT16 || codec == TXC_UINT32 || codec == TXC_SINT32 ||
         codec == TXC_RGB10A2UI;
}

/* Byte address of texel (x, y, z) of level lv, or NULL out of bounds. */
static uint8_t *tx_addr(const vm_texture *t, uint32_t x, uint32_t y, uint32_t z, uint32_t lv) {
  if (t->samples > 1) { /* lv is the sample index of level 0 */
    if (lv >= t->samples || x >= t->level[0].w || y >= t->level[0].h || z) return NULL;
    return t->data + t->level[0].offset + (uint64_t)lv * t->level[0].slice +
           (uint64_t)y * t->level[0].row + (uint64_t)x * t->texel_bytes;
  }
  if (lv >= t->levels) return NULL;
  const uint32_t w = t->level[lv].w, h = t->level[lv].h, d = t->level[lv].d;
  if (x >= w || y >= h || z >= d) return NULL;
  return t->data + t->level[lv].offset + (uint64_t)z * t->level[lv].slice +
         (uint64_t)y * t->level[lv].row + (uint64_t)x * t->texel_bytes;
}

/* The packed formats: one little-endian word per texel. */
static void tx_decode_packed(unsigned codec, const uint8_t *p, uint32_t v[4]) {
  uint32_t w;
  memcpy(&w, p, 4);
  switch (codec) {
  case TXC_RGB10A2UI:
  case TXC_RGB10A2UN:
    /* r in bits 0-9, g 10-19, b 20-29, a 30-31 */
    for (int i = 0; i < 4; i++) {
      const uint32_t c = i < 3 ? w >> (10 * i) & 0x3ffu : w >> 30;
      v[i] = codec == TXC_RGB10A2UI ? c : vm_f2u_bits((float)c / (i < 3 ? 1023.0f : 3.0f));
    }
    return;
  case TXC_RG11B10F:
    /* r in bits 0-10, g 11-21, b 22-31 */
    v[0] = tx_ufloat(w & 0x7ffu, 6);
    v[1] = tx_ufloat(w >> 11 & 0x7ffu, 6);
    v[2] = tx_ufloat(w >> 22, 5);
    return;
  default:
    /* rgb9e5ufloat: three 9-bit mantissas (r in bits 0-8, g 9-17, b
     * 18-26) under one 5-bit exponent (27-31, bias 15): m * 2^(e - 15 - 9) */
    for (int i = 0; i < 3; i++)
      v[i] = vm_f2u_bits(ldexpf((float)(w >> (9 * i) & 0x1ffu), (int)(w >> 27) - 24));
    return;
  }
}

static void tx_decode(uint32_t format, const uint8_t *p, uint32_t v[4]) {
  const tx_fmt *f = &tx_fmts[format < LS_FORMAT_COUNT_ ? format : 0];
  /* channels the format lacks read as 0, and alpha as 1 */
  v[0] = v[1] = v[2] = 0;
  v[3] = tx_is_int(f->codec) ? 1u : 0x3f800000u;
  if (f->codec >= TXC_RGB10A2UI) {
    tx_decode_packed(f->codec, p, v);
    return;
  }
  /* one switch per texel, the channel loop inside, in memory order; four
   * channels get a loop of fixed length, which the compiler unrolls: the
   * blur-like loads of 8-bit images spend their time here */
  const unsigned n = f->ch;
  uint16_t h;
  uint32_t w;
#define TX_EACH_(expr)                                                         \
  do {                                                                         \
    if (n == 4)                                                                \
      for (unsigned i = 0; i < 4; i++) v[i] = (expr);                          \
    else                                                                       \
      for (unsigned i = 0; i < n; i++) v[i] = (expr);                          \
  } while (0)
#define TX_H_(i) (memcpy(&h, p + 2 * (i), 2), h)
#define TX_W_(i) (memcpy(&w, p + 4 * (i), 4), w)
  switch (f->codec) {
  case TXC_UNORM8: TX_EACH_(vm_f2u_bits(tx_unorm8[p[i]])); break;
  case TXC_SNORM8: TX_EACH_(tx_snorm((int8_t)p[i], 127.0f)); break;
  case TXC_UINT8: TX_EACH_(p[i]); break;
  case TXC_SINT8: TX_EACH_((uint32_t)(int32_t)(int8_t)p[i]); break;
  case TXC_SRGB8:
    for (unsigned i = 0; i < 3; i++) v[i] = tx_srgb_bits[p[i]];
    v[3] = vm_f2u_bits(tx_unorm8[p[3]]); /* alpha is linear */
    break;
  case TXC_UNORM16: TX_EACH_(vm_f2u_bits((float)TX_H_(i) / 65535.0f)); break;
  case TXC_SNORM16: TX_EACH_(tx_snorm((int16_t)TX_H_(i), 32767.0f)); break;
  case TXC_UINT16: TX_EACH_(TX_H_(i)); break;
  case TXC_SINT16: TX_EACH_((uint32_t)(int32_t)(int16_t)TX_H_(i)); break;
  case TXC_FLOAT16: TX_EACH_(vm_f16_decode(TX_H_(i))); break;
  default: TX_EACH_(TX_W_(i)); break; /* the 32-bit channels */
  }
#undef TX_EACH_
#undef TX_H_
#undef TX_W_
  if (f->bgra) {
    /* memory holds b, g, r, a */
    const uint32_t b = v[0];
    v[0] = v[2];
    v[2] = b;
  }
}

/* Shader components for channels the format lacks are ignored. */
static void tx_encode(uint32_t format, uint8_t *p, const uint32_t v[4]) {
  const tx_fmt *f = &tx_fmts[format < LS_FORMAT_COUNT_ ? format : 0];
  uint32_t w = 0;
  switch (f->codec) {
  case TXC_RGB10A2UI:
  case TXC_RGB10A2UN:
    for (int i = 0; i < 4; i++) {
      const uint32_t hi = i < 3 ? 1023 : 3;
      const uint32_t c = f->codec == TXC_RGB10A2UI ? tx_umin(v[i], hi)
                                                   : (uint32_t)tx_norm(vm_bits_f(v[i]), 0.0f, (int32_t)hi);
      w |= c << (10 * i);
    }
    memcpy(p, &w, 4);
    return;
  case TXC_RG11B10F:
    w = tx_to_ufloat(v[0], 6) | tx_to_ufloat(v[1], 6) << 11 | tx_to_ufloat(v[2], 5) << 22;
    memcpy(p, &w, 4);
    return;
  case TXC_RGB9E5F: return; /* not a storage format */
  case TXC_UINT32:
  case TXC_SINT32:
  case TXC_FLOAT32: /* the ICTF is T; a fixed length for four, so no call */
    if (f->ch == 4) memcpy(p, v, 16);
    else memcpy(p, v, 4 * (size_t)f->ch);
    return;
  default:
    for (unsigned i = 0; i < f->ch; i++) tx_put(f->codec, p, i, v[tx_swz[f->bgra][i]]);
    return;
  }
}

int vm_tex_fetch(const vm_texture *t, uint32_t x, uint32_t y, uint32_t z, uint32_t lv,
                 uint32_t v[4]) {
  const uint8_t *p = tx_addr(t, x, y, z, lv);
  if (!p) {
    memset(v, 0, 16);
    return 0;
  }
  tx_decode(t->format, p, v);
  return 1;
}

uint64_t vm_tex_load(const vm_texture *t, uint32_t *dst, const uint32_t *adr, uint64_t live,
                     unsigned w) {
  uint64_t miss = 0;
  for (uint64_t m = live; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    uint32_t v[4];
    if (!vm_tex_fetch(t, adr[l], adr[w + l], adr[2 * w + l], adr[3 * w + l], v)) miss |= 1ull << l;
    for (unsigned i = 0; i < 4; i++) dst[i * w + l] = v[i];
  }
  return miss;
}

uint64_t vm_tex_store(const vm_texture *t, const uint32_t *adr, const uint32_t *val,
                      uint64_t live, unsigned w) {
  uint64_t stored = 0;
  /* lane order: the highest live lane wins a texel written twice */
  for (uint64_t m = live; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    uint8_t *p = tx_addr(t, adr[l], adr[w + l], adr[2 * w + l], 0);
    if (!p) continue;
    const uint32_t v[4] = {val[l], val[w + l], val[2 * w + l], val[3 * w + l]};
    tx_encode(t->format, p, v);
    stored |= 1ull << l;
  }
  return stored;
}

const float *vm_tex_unorm8x4(const vm_texture *t, int *bgra) {
  const tx_fmt *f = &tx_fmts[t->format < LS_FORMAT_COUNT_ ? t->format : 0];
  if (f->codec != TXC_UNORM8 || f->ch != 4 || t->texel_bytes != 4 || t->samples > 1) return NULL;
  *bgra = f->bgra;
  return tx_unorm8;
}

void vm_tex_encode(uint32_t format, const uint32_t v[4], uint8_t out[16]) {
  memset(out, 0, 16);
  tx_encode(format, out, v);
}

void vm_tex_query(const vm_texture *t, uint32_t *dst, const uint32_t *level, unsigned what,
                  unsigned w) {
  for (unsigned l = 0; l < w; l++) {
    if (what == 1) {
      dst[l] = t->levels;
    } else if (what == 2 || what == 3) {
      dst[l] = what == 3 ? t->layers / 6 : t->layers; /* 3: a cube array's cubes */
    } else if (what == 4) {
      dst[l] = t->samples;
    } else {
      const uint32_t lv = level[l];
      const int ok = lv < t->levels;
      /* a level outside the view: an indeterminate value in WGSL; 0 here */
      dst[l] = ok ? t->level[lv].w : 0;
      dst[w + l] = ok ? t->level[lv].h : 0;
      dst[2 * w + l] = ok ? t->level[lv].d : 0;
    }
  }
}
