/*
 * texture.c — the texel side of the texture opcodes (TLD, TST, TQRY): the
 * address of a texel in a view, and WGSL's channel transfer functions
 * (§Texel Formats) between the stored bits and the shader's vec4 value.
 * Each call covers the live lanes of one subgroup; the handlers in
 * vm_loop.inc only pass rows. Out of bounds, a load gives (0, 0, 0, 0) and
 * a store does nothing: two of the behaviours WGSL allows
 * (docs/spec-notes.md).
 */
#include <math.h>
#include <string.h>

#include "../../include/lockstep.h"
#include "vm.h"

/* max(lo, min(hi, x)) as WGSL writes the inverse transfer functions; a NaN
 * goes to lo (min and max of a NaN may return either operand). */
static float tx_clampf(float x, float lo, float hi) {
  if (!(x >= lo)) return lo;
  return x > hi ? hi : x;
}

/* floor(0.5 + s * clamp(x)): the rounding of pack4x8unorm / pack4x8snorm,
 * which WGSL defines for the same 8-bit normalized channels. */
static int32_t tx_norm(float x, float lo, int32_t s) {
  return (int32_t)floorf(0.5f + (float)s * tx_clampf(x, lo, 1.0f));
}

static uint32_t tx_umin(uint32_t x, uint32_t hi) { return x > hi ? hi : x; }
static int32_t tx_sclamp(int32_t x, int32_t lo, int32_t hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Byte address of texel (x, y, z) of level lv, or NULL out of bounds. */
static uint8_t *tx_addr(const vm_texture *t, uint32_t x, uint32_t y, uint32_t z, uint32_t lv) {
  if (lv >= t->levels) return NULL;
  const uint32_t w = t->level[lv].w, h = t->level[lv].h, d = t->level[lv].d;
  if (x >= w || y >= h || z >= d) return NULL;
  return t->data + t->level[lv].offset + (uint64_t)z * t->level[lv].slice +
         (uint64_t)y * t->level[lv].row + (uint64_t)x * t->texel_bytes;
}

static void tx_decode(uint32_t format, const uint8_t *p, uint32_t v[4]) {
  const uint32_t one_f = 0x3f800000u;
  uint32_t w[4];
  switch (format) {
  case LS_FORMAT_R32FLOAT:
    memcpy(v, p, 4);
    v[1] = v[2] = 0;
    v[3] = one_f;
    return;
  case LS_FORMAT_R32UINT:
  case LS_FORMAT_R32SINT:
    memcpy(v, p, 4);
    v[1] = v[2] = 0;
    v[3] = 1;
    return;
  case LS_FORMAT_RGBA8UNORM:
    for (int i = 0; i < 4; i++) v[i] = vm_f2u_bits((float)p[i] / 255.0f);
    return;
  case LS_FORMAT_RGBA8SNORM:
    /* v / 127, and -128 to -1: the CTF maps {-128, ..., 127} onto [-1, 1] */
    for (int i = 0; i < 4; i++) {
      float f = (float)(int8_t)p[i] / 127.0f;
      v[i] = vm_f2u_bits(f < -1.0f ? -1.0f : f);
    }
    return;
  case LS_FORMAT_RGBA8UINT:
    for (int i = 0; i < 4; i++) v[i] = p[i];
    return;
  case LS_FORMAT_RGBA8SINT:
    for (int i = 0; i < 4; i++) v[i] = (uint32_t)(int32_t)(int8_t)p[i];
    return;
  case LS_FORMAT_RGBA16UINT:
  case LS_FORMAT_RGBA16SINT:
  case LS_FORMAT_RGBA16FLOAT:
    for (int i = 0; i < 4; i++) {
      uint16_t h;
      memcpy(&h, p + 2 * i, 2);
      v[i] = format == LS_FORMAT_RGBA16UINT   ? h
             : format == LS_FORMAT_RGBA16SINT ? (uint32_t)(int32_t)(int16_t)h
                                              : vm_f16_decode(h);
    }
    return;
  case LS_FORMAT_RGBA32FLOAT:
  case LS_FORMAT_RGBA32UINT:
  case LS_FORMAT_RGBA32SINT:
    memcpy(w, p, 16);
    memcpy(v, w, 16);
    return;
  default:
    memset(v, 0, 16);
    return;
  }
}

static void tx_encode(uint32_t format, uint8_t *p, const uint32_t v[4]) {
  switch (format) {
  case LS_FORMAT_R32FLOAT:
  case LS_FORMAT_R32UINT:
  case LS_FORMAT_R32SINT:
    memcpy(p, v, 4); /* the other components are ignored */
    return;
  case LS_FORMAT_RGBA8UNORM:
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)tx_norm(vm_bits_f(v[i]), 0.0f, 255);
    return;
  case LS_FORMAT_RGBA8SNORM:
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(int8_t)tx_norm(vm_bits_f(v[i]), -1.0f, 127);
    return;
  case LS_FORMAT_RGBA8UINT:
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)tx_umin(v[i], 255);
    return;
  case LS_FORMAT_RGBA8SINT:
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(int8_t)tx_sclamp((int32_t)v[i], -128, 127);
    return;
  case LS_FORMAT_RGBA16UINT:
  case LS_FORMAT_RGBA16SINT:
  case LS_FORMAT_RGBA16FLOAT:
    for (int i = 0; i < 4; i++) {
      uint16_t h = format == LS_FORMAT_RGBA16UINT ? (uint16_t)tx_umin(v[i], 65535)
                   : format == LS_FORMAT_RGBA16SINT
                       ? (uint16_t)(int16_t)tx_sclamp((int32_t)v[i], -32768, 32767)
                       : (uint16_t)vm_f16_encode(v[i]); /* quantizeToF16 */
      memcpy(p + 2 * i, &h, 2);
    }
    return;
  case LS_FORMAT_RGBA32FLOAT:
  case LS_FORMAT_RGBA32UINT:
  case LS_FORMAT_RGBA32SINT:
    memcpy(p, v, 16);
    return;
  default:
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
