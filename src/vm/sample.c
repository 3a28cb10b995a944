/*
 * sample.c — the sampling opcode (TSMP): what a sampler does to a texture
 * for textureSampleLevel, textureSampleGrad, textureSampleBaseClampToEdge,
 * textureGather, textureGatherCompare and textureSampleCompareLevel.
 * WebGPU leaves the filtering arithmetic to the implementation and points
 * at Vulkan's texel filtering; lockstep follows that description exactly:
 * unnormalized coordinates u = s * size (+ offset); nearest takes
 * floor(u), linear the texels floor(u - 0.5) and the next one with the
 * weight frac(u - 0.5) in f32 (no sub-texel quantization); the address
 * modes act on integer texel coordinates; the level of detail is clamped
 * to [lodMinClamp, lodMaxClamp], magFilter applies when it is <= 0, a
 * nearest mipmap filter rounds half down and a linear one blends the two
 * levels. Cube maps pick the face by the major axis and filter across
 * face edges (seamless, as WebGPU requires), a corner texel taken from
 * one adjacent face. Anisotropic filtering is not done (maxAnisotropy is
 * an upper bound). docs/spec-notes.md lists these choices.
 *
 * One call covers the live lanes of one subgroup: the handler in
 * vm_loop.inc passes rows of w words.
 */
#include <math.h>
#include <string.h>

#include "../../include/lockstep.h"
#include "vm.h"

/* One lane's sampling: the texture, the view dimension, what is sampled
 * where. */
typedef struct smp_ctx {
  const vm_texture *t;
  const vm_sampler *s;
  unsigned dim;   /* ir_tex_dim */
  uint32_t layer; /* array layer; a cube's first layer (6 per cube) */
  uint32_t face;  /* cube face, 0..5 (+x -x +y -y +z -z) */
  int seen;       /* first[] holds the first texel read */
  uint32_t first[4];
} smp_ctx;

static void smp_fetch(smp_ctx *c, uint32_t x, uint32_t y, uint32_t z, uint32_t lv,
                      uint32_t v[4]) {
  if (!c->seen) {
    c->seen = 1;
    c->first[0] = x, c->first[1] = y, c->first[2] = z, c->first[3] = lv;
  }
  vm_tex_fetch(c->t, x, y, z, lv, v);
}

/* floor(x) as an integer; NaN and huge values land far outside any
 * texture, where the address mode brings them back. */
static int32_t smp_floor(float x) {
  if (!(x > -1.0e9f)) return -1000000000;
  if (x > 1.0e9f) return 1000000000;
  return (int32_t)floorf(x);
}

/* The address modes on an integer texel coordinate (Vulkan's wrapping
 * operation). */
static int32_t smp_wrap(int32_t i, int32_t size, unsigned mode) {
  if (mode == LS_ADDRESS_REPEAT) {
    int32_t r = i % size;
    return r < 0 ? r + size : r;
  }
  if (mode == LS_ADDRESS_MIRROR_REPEAT) {
    int32_t p = i % (2 * size);
    if (p < 0) p += 2 * size;
    p -= size;
    return (size - 1) - (p >= 0 ? p : -(1 + p));
  }
  return i < 0 ? 0 : i >= size ? size - 1 : i;
}

/* Major-axis face selection: face, the face coordinates sc, tc and |ma|. */
static unsigned smp_face(const float d[3], float *sc, float *tc, float *ma) {
  const float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
  if (ax >= ay && ax >= az) {
    *ma = ax;
    *sc = d[0] >= 0 ? -d[2] : d[2];
    *tc = -d[1];
    return d[0] >= 0 ? 0 : 1;
  }
  if (ay >= az) {
    *ma = ay;
    *sc = d[0];
    *tc = d[1] >= 0 ? d[2] : -d[2];
    return d[1] >= 0 ? 2 : 3;
  }
  *ma = az;
  *sc = d[2] >= 0 ? d[0] : -d[0];
  *tc = -d[1];
  return d[2] >= 0 ? 4 : 5;
}

/* The direction of face coordinates (sc, tc) on face f: the inverse of
 * smp_face with |ma| = 1. */
static void smp_unface(unsigned f, float sc, float tc, float d[3]) {
  switch (f) {
  case 0: d[0] = 1, d[1] = -tc, d[2] = -sc; break;
  case 1: d[0] = -1, d[1] = -tc, d[2] = sc; break;
  case 2: d[0] = sc, d[1] = 1, d[2] = tc; break;
  case 3: d[0] = sc, d[1] = -1, d[2] = -tc; break;
  case 4: d[0] = sc, d[1] = -tc, d[2] = 1; break;
  default: d[0] = -sc, d[1] = -tc, d[2] = -1; break;
  }
}

static int32_t smp_clampi(int32_t i, int32_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* Texel (i, j, k) of level lv after the address modes, decoded. A cube
 * texel off its face is the texel of the adjacent face under the same
 * direction from the centre (a corner: j clamped first). */
static void smp_texel(smp_ctx *c, uint32_t lv, int32_t i, int32_t j, int32_t k,
                      uint32_t v[4]) {
  const vm_texture *t = c->t;
  const int32_t w = (int32_t)t->level[lv].w, h = (int32_t)t->level[lv].h,
                d = (int32_t)t->level[lv].d;
  switch (c->dim) {
  case IR_TEXDIM_1D:
    smp_fetch(c, (uint32_t)smp_wrap(i, w, c->s->address[0]), 0, 0, lv, v);
    return;
  case IR_TEXDIM_CUBE:
  case IR_TEXDIM_CUBE_ARRAY: {
    unsigned f = c->face;
    if (i < 0 || i >= w || j < 0 || j >= w) {
      if ((i < 0 || i >= w) && (j < 0 || j >= w)) j = smp_clampi(j, w);
      float dir[3], sc, tc, ma;
      smp_unface(f, 2.0f * ((float)i + 0.5f) / (float)w - 1.0f,
                 2.0f * ((float)j + 0.5f) / (float)w - 1.0f, dir);
      f = smp_face(dir, &sc, &tc, &ma);
      i = smp_clampi(smp_floor(0.5f * (sc / ma + 1.0f) * (float)w), w);
      j = smp_clampi(smp_floor(0.5f * (tc / ma + 1.0f) * (float)w), w);
    }
    smp_fetch(c, (uint32_t)i, (uint32_t)j, c->layer + f, lv, v);
    return;
  }
  case IR_TEXDIM_3D:
    smp_fetch(c, (uint32_t)smp_wrap(i, w, c->s->address[0]),
              (uint32_t)smp_wrap(j, h, c->s->address[1]),
              (uint32_t)smp_wrap(k, d, c->s->address[2]), lv, v);
    return;
  default: /* 2D, 2D array */
    smp_fetch(c, (uint32_t)smp_wrap(i, w, c->s->address[0]),
              (uint32_t)smp_wrap(j, h, c->s->address[1]), c->layer, lv, v);
    return;
  }
}

/* Whether depth_ref passes against a texel's depth (GPUCompareFunction:
 * "less" passes when the reference is less than the texel). */
static int smp_pass(unsigned fn, float ref, float d) {
  switch (fn) {
  case LS_COMPARE_LESS: return ref < d;
  case LS_COMPARE_EQUAL: return ref == d;
  case LS_COMPARE_LESS_EQUAL: return ref <= d;
  case LS_COMPARE_GREATER: return ref > d;
  case LS_COMPARE_NOT_EQUAL: return ref != d;
  case LS_COMPARE_GREATER_EQUAL: return ref >= d;
  case LS_COMPARE_ALWAYS: return 1;
  default: return 0; /* never */
  }
}

/* The footprint of one axis: nearest (i0 only) or linear (i0, i0 + 1 and
 * the weight a of the second). */
typedef struct smp_axis {
  int32_t i0;
  float a;
} smp_axis;

static smp_axis smp_axis_of(float u, int linear) {
  smp_axis x;
  if (linear) {
    const float f = u - 0.5f;
    x.i0 = smp_floor(f);
    x.a = f - floorf(f);
    if (!(x.a >= 0.0f && x.a < 1.0f)) x.a = 0.0f; /* NaN, inf */
  } else {
    x.i0 = smp_floor(u);
    x.a = 0.0f;
  }
  return x;
}

/* Texel-space coordinates of level lv (cube: of the face), into u[]; the
 * number of axes. */
static unsigned smp_unnorm(const smp_ctx *c, const float co[3], const int8_t off[3], uint32_t lv,
                           float u[3]) {
  const vm_texture *t = c->t;
  const float w = (float)t->level[lv].w, h = (float)t->level[lv].h, d = (float)t->level[lv].d;
  switch (c->dim) {
  case IR_TEXDIM_1D: u[0] = co[0] * w + off[0]; return 1;
  case IR_TEXDIM_CUBE:
  case IR_TEXDIM_CUBE_ARRAY: /* co: the face's (s, t) */
    u[0] = co[0] * w, u[1] = co[1] * w;
    return 2;
  case IR_TEXDIM_3D:
    u[0] = co[0] * w + off[0], u[1] = co[1] * h + off[1], u[2] = co[2] * d + off[2];
    return 3;
  default: u[0] = co[0] * w + off[0], u[1] = co[1] * h + off[1]; return 2;
  }
}

/* One filtered value (4 channels, f32) at level lv. cmp: a comparison
 * sampler's function, each texel replaced by pass ? 1 : 0 against ref;
 * depth: a depth texture (its value is channel 0). Nearest returns the
 * texel's bits unchanged. */
static void smp_filter(smp_ctx *c, const float co[3], const int8_t off[3], uint32_t lv,
                       int linear, unsigned cmp, float ref, uint32_t out[4]) {
  float u[3];
  const unsigned n = smp_unnorm(c, co, off, lv, u);
  smp_axis ax[3] = {{0, 0}, {0, 0}, {0, 0}};
  for (unsigned k = 0; k < n; k++) ax[k] = smp_axis_of(u[k], linear);
  if (!linear) {
    smp_texel(c, lv, ax[0].i0, ax[1].i0, ax[2].i0, out);
    if (cmp) {
      out[0] = vm_f2u_bits(smp_pass(cmp, ref, vm_bits_f(out[0])) ? 1.0f : 0.0f);
      out[1] = out[2] = 0;
      out[3] = vm_f2u_bits(1.0f);
    }
    return;
  }
  float acc[4] = {0, 0, 0, 0};
  for (unsigned corner = 0; corner < (1u << n); corner++) {
    float wgt = 1.0f;
    int32_t ii[3] = {ax[0].i0, ax[1].i0, ax[2].i0};
    for (unsigned k = 0; k < n; k++) {
      const int hi = (corner >> k) & 1;
      ii[k] += hi;
      wgt *= hi ? ax[k].a : 1.0f - ax[k].a;
    }
    uint32_t v[4];
    smp_texel(c, lv, ii[0], ii[1], ii[2], v);
    if (cmp) {
      acc[0] += wgt * (smp_pass(cmp, ref, vm_bits_f(v[0])) ? 1.0f : 0.0f);
    } else {
      for (unsigned ch = 0; ch < 4; ch++) acc[ch] += wgt * vm_bits_f(v[ch]);
    }
  }
  if (cmp) acc[1] = acc[2] = 0.0f, acc[3] = 1.0f;
  for (unsigned ch = 0; ch < 4; ch++) out[ch] = vm_f2u_bits(acc[ch]);
}

/* The four texels of the linear footprint at level 0, one channel each,
 * in textureGather's order: (umin, vmax), (umax, vmax), (umax, vmin),
 * (umin, vmin). */
static void smp_gather(smp_ctx *c, const float co[3], const int8_t off[3], unsigned comp,
                       unsigned cmp, float ref, uint32_t out[4]) {
  float u[3];
  smp_unnorm(c, co, off, 0, u);
  const smp_axis x = smp_axis_of(u[0], 1), y = smp_axis_of(u[1], 1);
  static const int du[4] = {0, 1, 1, 0}, dv[4] = {1, 1, 0, 0};
  for (unsigned q = 0; q < 4; q++) {
    uint32_t v[4];
    smp_texel(c, 0, x.i0 + du[q], y.i0 + dv[q], 0, v);
    out[q] = cmp ? vm_f2u_bits(smp_pass(cmp, ref, vm_bits_f(v[0])) ? 1.0f : 0.0f) : v[comp];
  }
}

/* Level of detail from textureSampleGrad's gradients: log2 of the larger
 * scaled gradient length at the view's base level (isotropic). */
static float smp_lambda(const smp_ctx *c, const float co[3], const float dx[3],
                        const float dy[3]) {
  const vm_texture *t = c->t;
  const float w = (float)t->level[0].w, h = (float)t->level[0].h, d = (float)t->level[0].d;
  float rx, ry;
  if (c->dim == IR_TEXDIM_CUBE || c->dim == IR_TEXDIM_CUBE_ARRAY) {
    /* d(sc / |ma|) for the face the direction picks */
    float sc, tc, ma;
    const unsigned f = smp_face(co, &sc, &tc, &ma);
    float g[2][2];
    for (int k = 0; k < 2; k++) {
      const float *dd = k ? dy : dx;
      /* the face table applied to the gradient */
      float dsc, dtc, dma;
      switch (f) {
      case 0: dsc = -dd[2], dtc = -dd[1], dma = dd[0]; break;
      case 1: dsc = dd[2], dtc = -dd[1], dma = -dd[0]; break;
      case 2: dsc = dd[0], dtc = dd[2], dma = dd[1]; break;
      case 3: dsc = dd[0], dtc = -dd[2], dma = -dd[1]; break;
      case 4: dsc = dd[0], dtc = -dd[1], dma = dd[2]; break;
      default: dsc = -dd[0], dtc = -dd[1], dma = -dd[2]; break;
      }
      const float m2 = ma * ma;
      g[k][0] = 0.5f * (dsc * ma - sc * dma) / m2 * w;
      g[k][1] = 0.5f * (dtc * ma - tc * dma) / m2 * w;
    }
    rx = sqrtf(g[0][0] * g[0][0] + g[0][1] * g[0][1]);
    ry = sqrtf(g[1][0] * g[1][0] + g[1][1] * g[1][1]);
  } else if (c->dim == IR_TEXDIM_1D) {
    rx = fabsf(dx[0] * w);
    ry = fabsf(dy[0] * w);
  } else {
    const int z = c->dim == IR_TEXDIM_3D;
    const float zx = z ? dx[2] * d : 0.0f, zy = z ? dy[2] * d : 0.0f;
    rx = sqrtf(dx[0] * w * dx[0] * w + dx[1] * h * dx[1] * h + zx * zx);
    ry = sqrtf(dy[0] * w * dy[0] * w + dy[1] * h * dy[1] * h + zy * zy);
  }
  return log2f(rx > ry ? rx : ry);
}

static float smp_clampf(float x, float lo, float hi) {
  if (!(x >= lo)) return lo; /* NaN too */
  return x > hi ? hi : x;
}

/* Level selection and filtering for a level of detail lambda. */
static void smp_lod(smp_ctx *c, const float co[3], const int8_t off[3], float lambda,
                    unsigned cmp, float ref, uint32_t out[4]) {
  const vm_sampler *s = c->s;
  if (lambda != lambda) lambda = 0.0f;
  lambda = smp_clampf(lambda, s->lod_min, s->lod_max);
  const int linear = (lambda <= 0.0f ? s->mag : s->min) == LS_FILTER_LINEAR;
  const float q = (float)(c->t->levels - 1);
  const float dl = smp_clampf(lambda, 0.0f, q);
  if (s->mip != LS_FILTER_LINEAR) {
    smp_filter(c, co, off, (uint32_t)(ceilf(dl + 0.5f) - 1.0f), linear, cmp, ref, out);
    return;
  }
  const uint32_t hi = (uint32_t)floorf(dl), lo = hi + 1 < c->t->levels ? hi + 1 : hi;
  const float delta = dl - floorf(dl);
  smp_filter(c, co, off, hi, linear, cmp, ref, out);
  if (delta == 0.0f || lo == hi) return;
  uint32_t o2[4];
  smp_filter(c, co, off, lo, linear, cmp, ref, o2);
  for (unsigned ch = 0; ch < 4; ch++)
    out[ch] = vm_f2u_bits((1.0f - delta) * vm_bits_f(out[ch]) + delta * vm_bits_f(o2[ch]));
}

/* smp_axis_of(u, 1) without libm's floorf, a call each on a baseline
 * x86-64: in (-1e9, 1e9] the truncation, one less where it rounded up, is
 * floor exactly (a value of 2^23 or more is already whole, and below that
 * the subtraction is exact). f is never -0 (u - 0.5 is +0 at u = 0.5), so
 * the zero's sign needs no care. Anything else goes to smp_axis_of. */
static inline smp_axis smp_axis_lin(float u) {
  const float f = u - 0.5f;
  if (!(f > -1.0e9f && f <= 1.0e9f)) return smp_axis_of(u, 1);
  int32_t i = (int32_t)f;
  float fl = (float)i;
  if (fl > f) {
    i--;
    fl -= 1.0f;
  }
  smp_axis x = {i, f - fl};
  if (!(x.a >= 0.0f && x.a < 1.0f)) x.a = 0.0f;
  return x;
}

/* Whether the sampling is the common kind, and its numbers: see vm.h.
 * Every layer the index can pick must lie inside the level, so that the
 * general path's bounds test could fail nowhere. */
int vm_tex_sample_fast(const vm_texture *t, unsigned dim, const vm_sampler *s,
                       const ir_sample *smp, vm_smp_fast *f) {
  int bgra = 0;
  const float *dec;
  if (smp->kind != IR_SMP_LEVEL || (dim != IR_TEXDIM_2D && dim != IR_TEXDIM_2D_ARRAY) ||
      t->levels != 1 || s->mag != LS_FILTER_LINEAR || s->min != LS_FILTER_LINEAR ||
      s->address[0] != LS_ADDRESS_CLAMP_TO_EDGE || s->address[1] != LS_ADDRESS_CLAMP_TO_EDGE ||
      !(dec = vm_tex_unorm8x4(t, &bgra)))
    return 0;
  const int32_t tw = (int32_t)t->level[0].w, th = (int32_t)t->level[0].h;
  const uint32_t layers = dim == IR_TEXDIM_2D_ARRAY ? t->layers : 1u;
  if (tw <= 0 || th <= 0 || t->layers == 0 || t->level[0].d < layers) return 0;
  /* texel indices: whole words, and the largest below 2^31 */
  const uint8_t *const base = t->data + t->level[0].offset;
  const uint64_t row = t->level[0].row, slice = t->level[0].slice;
  if (((uintptr_t)base | row | slice) & 3u ||
      (layers - 1) * (slice / 4) + (uint64_t)(th - 1) * (row / 4) + (uint64_t)tw > INT32_MAX)
    return 0;
  f->base = (const vm_u32a *)(const void *)base;
  f->dec = dec;
  f->row4 = (uint32_t)(row / 4);
  f->slice4 = (uint32_t)(slice / 4);
  f->tw = tw, f->th = th;
  f->fw = (float)tw, f->fh = (float)th;
  f->ox = smp->offset[0], f->oy = smp->offset[1];
  f->layers = dim == IR_TEXDIM_2D_ARRAY ? t->layers : 0;
  f->r = bgra ? 2 : 0, f->b = bgra ? 0 : 2;
  f->index_u32 = (smp->flags & IR_SMPF_INDEX_U32) != 0;
  return 1;
}

/* The common sampling, one lane at a time: the same arithmetic as the
 * general path (smp_axis_of's, then smp_filter's corners and weights in
 * its order, each texel decoded by the same table), without its per-texel
 * dispatch on dimension, address mode and format. The interpreter's lane
 * kernel (vm_sample.inc) does the same across a subgroup and hands the
 * lanes whose coordinates are far outside the texture here. */
static void smp_fast_2d(const vm_smp_fast *f, uint32_t *dst, const uint32_t *in, uint64_t live,
                        unsigned w, uint32_t *at) {
  for (uint64_t m = live; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    uint32_t layer = 0;
    if (f->layers) {
      const uint32_t raw = in[IR_SMPIN_INDEX * w + l];
      const int64_t ix = f->index_u32 ? (int64_t)raw : (int64_t)(int32_t)raw;
      const int64_t n = f->layers;
      layer = (uint32_t)(ix < 0 ? 0 : ix >= n ? n - 1 : ix);
    }
    const smp_axis x = smp_axis_lin(vm_bits_f(in[IR_SMPIN_COORD * w + l]) * f->fw + f->ox);
    const smp_axis y = smp_axis_lin(vm_bits_f(in[(IR_SMPIN_COORD + 1) * w + l]) * f->fh + f->oy);
    const int32_t x0 = smp_wrap(x.i0, f->tw, LS_ADDRESS_CLAMP_TO_EDGE),
                  x1 = smp_wrap(x.i0 + 1, f->tw, LS_ADDRESS_CLAMP_TO_EDGE),
                  y0 = smp_wrap(y.i0, f->th, LS_ADDRESS_CLAMP_TO_EDGE),
                  y1 = smp_wrap(y.i0 + 1, f->th, LS_ADDRESS_CLAMP_TO_EDGE);
    const uint32_t r0 = layer * f->slice4 + (uint32_t)y0 * f->row4,
                   r1 = layer * f->slice4 + (uint32_t)y1 * f->row4;
    const uint8_t *const q[4] = {(const uint8_t *)(f->base + r0 + (uint32_t)x0),
                                 (const uint8_t *)(f->base + r0 + (uint32_t)x1),
                                 (const uint8_t *)(f->base + r1 + (uint32_t)x0),
                                 (const uint8_t *)(f->base + r1 + (uint32_t)x1)};
    /* smp_filter's weights: 1 times the first axis's factor times the
     * second's, corners in the order (lo, lo), (hi, lo), (lo, hi), (hi, hi) */
    const float wx[2] = {1.0f - x.a, x.a}, wy[2] = {1.0f - y.a, y.a};
    const float *const dec = f->dec;
    float acc[4] = {0, 0, 0, 0};
    for (unsigned c = 0; c < 4; c++) {
      float wgt = 1.0f;
      wgt *= wx[c & 1];
      wgt *= wy[c >> 1];
      acc[0] += wgt * dec[q[c][f->r]];
      acc[1] += wgt * dec[q[c][1]];
      acc[2] += wgt * dec[q[c][f->b]];
      acc[3] += wgt * dec[q[c][3]];
    }
    for (unsigned ch = 0; ch < 4; ch++) dst[ch * w + l] = vm_f2u_bits(acc[ch]);
    if (at) {
      at[l] = (uint32_t)x0;
      at[w + l] = (uint32_t)y0;
      at[2 * w + l] = layer;
      at[3 * w + l] = 0;
    }
  }
}

void vm_tex_sample(const vm_texture *t, unsigned dim, const vm_sampler *s, const ir_sample *smp,
                   uint32_t *dst, const uint32_t *in, uint64_t live, unsigned w, uint32_t *at) {
  vm_smp_fast f;
  if (vm_tex_sample_fast(t, dim, s, smp, &f)) {
    smp_fast_2d(&f, dst, in, live, w, at);
    return;
  }
  const int cube = dim == IR_TEXDIM_CUBE || dim == IR_TEXDIM_CUBE_ARRAY;
  /* the comparison function of a comparison built-in; a plain sampler
   * compares nothing */
  const unsigned cmp =
      (smp->kind == IR_SMP_GATHER_CMP || smp->kind == IR_SMP_CMP_LEVEL) ? s->compare : 0;
  const int8_t *off = smp->offset;
  const int unorm_depth = cmp && t->format == LS_FORMAT_DEPTH16UNORM;
  for (uint64_t m = live; m; m &= m - 1) {
    const unsigned l = (unsigned)__builtin_ctzll(m);
    smp_ctx c = {t, s, dim, 0, 0, 0, {0, 0, 0, 0}};
    float co[3];
    for (unsigned k = 0; k < 3; k++) co[k] = vm_bits_f(in[(IR_SMPIN_COORD + k) * w + l]);
    if (dim == IR_TEXDIM_2D_ARRAY || dim == IR_TEXDIM_CUBE_ARRAY) {
      /* arrayed: the index clamped to the layers (cubes) */
      const uint32_t raw = in[IR_SMPIN_INDEX * w + l];
      const int64_t ix = (smp->flags & IR_SMPF_INDEX_U32) ? (int64_t)raw : (int64_t)(int32_t)raw;
      const int64_t n = dim == IR_TEXDIM_CUBE_ARRAY ? t->layers / 6 : t->layers;
      c.layer = (uint32_t)(ix < 0 ? 0 : ix >= n ? (n > 0 ? n - 1 : 0) : ix);
      if (dim == IR_TEXDIM_CUBE_ARRAY) c.layer *= 6;
    }
    float dir[3] = {co[0], co[1], co[2]};
    if (cube) { /* the face, and (s, t) on it */
      float sc, tc, ma;
      c.face = smp_face(dir, &sc, &tc, &ma);
      co[0] = ma > 0.0f ? 0.5f * (sc / ma + 1.0f) : 0.5f;
      co[1] = ma > 0.0f ? 0.5f * (tc / ma + 1.0f) : 0.5f;
      co[2] = 0.0f;
    }
    float ref = vm_bits_f(in[IR_SMPIN_REF * w + l]);
    /* a fixed-point depth format compares against depth_ref clamped to
     * [0, 1], as Vulkan and D3D12 do (a NaN stays a NaN and fails) */
    if (unorm_depth) ref = ref < 0.0f ? 0.0f : ref > 1.0f ? 1.0f : ref;
    uint32_t out[4] = {0, 0, 0, 0};
    switch (smp->kind) {
    case IR_SMP_LEVEL: {
      const uint32_t raw = in[IR_SMPIN_LEVEL * w + l];
      const float lambda = !(smp->flags & IR_SMPF_LEVEL_INT) ? vm_bits_f(raw)
                           : (smp->flags & IR_SMPF_LEVEL_U32) ? (float)raw
                                                              : (float)(int32_t)raw;
      smp_lod(&c, co, off, lambda, cmp, ref, out);
      break;
    }
    case IR_SMP_GRAD: {
      float dx[3], dy[3];
      for (unsigned k = 0; k < 3; k++) {
        dx[k] = vm_bits_f(in[(IR_SMPIN_DDX + k) * w + l]);
        dy[k] = vm_bits_f(in[(IR_SMPIN_DDY + k) * w + l]);
      }
      smp_lod(&c, co, off, smp_lambda(&c, cube ? dir : co, dx, dy), cmp, ref, out);
      break;
    }
    case IR_SMP_BASE_CLAMP: {
      /* level 0 with the coordinates kept half a texel inside the edges */
      const float hw = 0.5f / (float)t->level[0].w, hh = 0.5f / (float)t->level[0].h;
      co[0] = smp_clampf(co[0], hw, 1.0f - hw);
      co[1] = smp_clampf(co[1], hh, 1.0f - hh);
      smp_filter(&c, co, off, 0, s->mag == LS_FILTER_LINEAR, 0, 0.0f, out);
      break;
    }
    case IR_SMP_CMP_LEVEL:
      /* always level 0 (WGSL); the sampler's filter mixes the results */
      smp_filter(&c, co, off, 0, s->mag == LS_FILTER_LINEAR, cmp, ref, out);
      break;
    default: /* gathers */
      smp_gather(&c, co, off, smp->component, cmp, ref, out);
      break;
    }
    for (unsigned ch = 0; ch < 4; ch++) dst[ch * w + l] = out[ch];
    if (at)
      for (unsigned k = 0; k < 4; k++) at[k * w + l] = c.first[k];
  }
}
