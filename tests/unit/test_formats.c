/*
 * test_formats.c — the texel formats: decode (vm_tex_fetch) and encode
 * (vm_tex_store) of every channel layout against values worked out by hand
 * from WGSL's channel transfer functions (§Texel Formats), the sRGB EOTF
 * and the bit layouts of the packed formats; and WebGPU's capability rules
 * (required features, storage accesses, sample types, depth-stencil
 * copies) with their error text; and a depth16unorm texture read through a
 * texture_2d<f32> binding end to end.
 */
#include <math.h>

#include "unit_util.h"

#include "unit_api.h"
#include "wgsl/types.h" /* types_texel_formats: WGSL's storage texel formats */

/* ---------------------------------------------------------- VM codecs */

/* A 1x1 view of format f over the texel bytes p. */
static vm_texture one_texel(ls_texture_format f, uint8_t *p) {
  vm_texture t;
  memset(&t, 0, sizeof t);
  t.data = p;
  t.format = (uint32_t)f;
  t.texel_bytes = ls_texture_format_texel_bytes(f);
  t.levels = t.layers = 1;
  t.level[0].w = t.level[0].h = t.level[0].d = 1;
  t.level[0].row = t.level[0].slice = t.texel_bytes;
  return t;
}

static uint32_t fb(float f) { return vm_f2u_bits(f); }

#define ONE_F 0x3f800000u
#define INF_F 0x7f800000u

typedef struct {
  ls_texture_format f;
  uint8_t bytes[16];
  uint32_t want[4]; /* the shader's vec4, as bits */
} decode_case;

static void check_decode(const decode_case *c) {
  uint8_t p[16];
  memcpy(p, c->bytes, sizeof p);
  vm_texture t = one_texel(c->f, p);
  uint32_t v[4];
  assert_int_equal(vm_tex_fetch(&t, 0, 0, 0, 0, v), 1);
  for (int i = 0; i < 4; i++)
    if (v[i] != c->want[i]) {
      fprintf(stderr, "%s: component %d is 0x%08x, wanted 0x%08x\n",
              ls_texture_format_name(c->f), i, v[i], c->want[i]);
      fail();
    }
}

/* Little-endian bytes of a 32-bit word. */
#define W4(w) (uint8_t)(w), (uint8_t)((w) >> 8), (uint8_t)((w) >> 16), (uint8_t)((w) >> 24)

static void test_decode(void **state) {
  (void)state;
  /* rgb10a2: r = 1023, g = 0, b = 512, a = 2 in bits 0-9, 10-19, 20-29, 30-31 */
  const uint32_t w10 = 1023u | 0u << 10 | 512u << 20 | 2u << 30;
  /* rg11b10ufloat: r = 1.0 (exponent 15, fraction 0: 15 << 6 = 0x3c0),
   * g = infinity (0x7c0), b = the smallest 10-bit subnormal, 1 = 2^-14 *
   * 1/32 = 2^-19 */
  const uint32_t w11 = 0x3c0u | 0x7c0u << 11 | 1u << 22;
  /* g = 0x7bf, the largest finite 11-bit value (1 + 63/64) * 2^15 = 65024;
   * b = 0x3df, the largest 10-bit one (1 + 31/32) * 2^15 = 64512; r = a
   * NaN (exponent 31, fraction 1) */
  const uint32_t w11b = 0x7c1u | 0x7bfu << 11 | 0x3dfu << 22;
  /* rgb9e5ufloat: m * 2^(e - 15 - 9); e = 16: r = 256 / 256 = 1, g = 1 /
   * 256, b = 511 / 256 = 1.99609375 */
  const uint32_t w9 = 256u | 1u << 9 | 511u << 18 | 16u << 27;
  const decode_case cases[] = {
      /* 8unorm v / 255, absent channels (0, 0, 1) */
      {LS_FORMAT_R8UNORM, {51}, {fb(0.2f), 0, 0, ONE_F}},
      /* 8snorm v / 127, -128 clamped to -1 */
      {LS_FORMAT_R8SNORM, {0x81}, {fb(-1.0f), 0, 0, ONE_F}},
      {LS_FORMAT_R8SNORM, {0x80}, {fb(-1.0f), 0, 0, ONE_F}},
      {LS_FORMAT_R8SNORM, {64}, {fb(64.0f / 127.0f), 0, 0, ONE_F}},
      {LS_FORMAT_R8UINT, {200}, {200, 0, 0, 1}},
      {LS_FORMAT_R8SINT, {0xf6}, {(uint32_t)-10, 0, 0, 1}},
      {LS_FORMAT_RG8UNORM, {255, 0}, {ONE_F, 0, 0, ONE_F}},
      {LS_FORMAT_RG8SNORM, {127, 0xc1}, {ONE_F, fb(-63.0f / 127.0f), 0, ONE_F}},
      {LS_FORMAT_RG8UINT, {7, 9}, {7, 9, 0, 1}},
      {LS_FORMAT_RG8SINT, {0x80, 0x7f}, {(uint32_t)-128, 127, 0, 1}},
      /* sRGB EOTF: c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4,
       * rounded to f32 (worked out in double: 128 -> 0.21586050011389926
       * = 0x3e5d0a89, 10 -> 0.003035269835488375 = 0x3b46eb61); alpha is
       * linear, 128 / 255 */
      {LS_FORMAT_RGBA8UNORM_SRGB, {128, 10, 255, 128}, {0x3e5d0a89u, 0x3b46eb61u, ONE_F,
                                                        fb(128.0f / 255.0f)}},
      /* bgra: memory b, g, r, a */
      {LS_FORMAT_BGRA8UNORM, {10, 20, 30, 40},
       {fb(30.0f / 255.0f), fb(20.0f / 255.0f), fb(10.0f / 255.0f), fb(40.0f / 255.0f)}},
      /* 188 -> 0.5028864580325687 = 0x3f00bd2b */
      {LS_FORMAT_BGRA8UNORM_SRGB, {0, 188, 128, 255}, {0x3e5d0a89u, 0x3f00bd2bu, 0, ONE_F}},
      /* 16-bit channels, little-endian */
      {LS_FORMAT_R16UNORM, {0x00, 0x80}, {fb(32768.0f / 65535.0f), 0, 0, ONE_F}},
      {LS_FORMAT_R16SNORM, {0x00, 0x80}, {fb(-1.0f), 0, 0, ONE_F}},
      {LS_FORMAT_RG16SNORM, {0xff, 0x7f, 0x00, 0x40}, {ONE_F, fb(16384.0f / 32767.0f), 0, ONE_F}},
      {LS_FORMAT_R16UINT, {0x34, 0x12}, {0x1234, 0, 0, 1}},
      {LS_FORMAT_R16SINT, {0xfe, 0xff}, {(uint32_t)-2, 0, 0, 1}},
      /* binary16 0x3c00 = 1, 0xc000 = -2, 0x7c00 = infinity */
      {LS_FORMAT_R16FLOAT, {0x00, 0x3c}, {ONE_F, 0, 0, ONE_F}},
      {LS_FORMAT_RG16FLOAT, {0x00, 0xc0, 0x00, 0x7c}, {fb(-2.0f), INF_F, 0, ONE_F}},
      {LS_FORMAT_RG16UINT, {1, 0, 0xff, 0xff}, {1, 65535, 0, 1}},
      {LS_FORMAT_RG16SINT, {0, 0x80, 1, 0}, {(uint32_t)-32768, 1, 0, 1}},
      {LS_FORMAT_RGBA16UNORM, {0xff, 0xff, 0, 0, 0xff, 0xff, 0, 0}, {ONE_F, 0, ONE_F, 0}},
      {LS_FORMAT_RG32FLOAT, {W4(0x40490fdbu), W4(0xbf800000u)}, {0x40490fdbu, 0xbf800000u, 0, ONE_F}},
      {LS_FORMAT_RG32UINT, {W4(0xdeadbeefu), W4(5u)}, {0xdeadbeefu, 5, 0, 1}},
      {LS_FORMAT_RG32SINT, {W4(0xffffffffu), W4(0x80000000u)}, {0xffffffffu, 0x80000000u, 0, 1}},
      /* packed */
      {LS_FORMAT_RGB10A2UNORM, {W4(w10)}, {ONE_F, 0, fb(512.0f / 1023.0f), fb(2.0f / 3.0f)}},
      {LS_FORMAT_RGB10A2UINT, {W4(w10)}, {1023, 0, 512, 2}},
      {LS_FORMAT_RG11B10UFLOAT, {W4(w11)}, {ONE_F, INF_F, fb(0x1p-19f), ONE_F}},
      {LS_FORMAT_RGB9E5UFLOAT, {W4(w9)}, {ONE_F, fb(0x1p-8f), fb(1.99609375f), ONE_F}},
      /* depth and stencil: (V, 0, 0, 1), depth16unorm v / 65535 */
      {LS_FORMAT_DEPTH16UNORM, {0xff, 0xff}, {ONE_F, 0, 0, ONE_F}},
      {LS_FORMAT_DEPTH16UNORM, {0x01, 0x00}, {fb(1.0f / 65535.0f), 0, 0, ONE_F}},
      {LS_FORMAT_DEPTH32FLOAT, {W4(0x3f000000u)}, {0x3f000000u, 0, 0, ONE_F}},
      {LS_FORMAT_STENCIL8, {7}, {7, 0, 0, 1}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_decode(&cases[i]);
  /* the NaN and the largest finite values of the small floats */
  decode_case nan = {LS_FORMAT_RG11B10UFLOAT, {W4(w11b)}, {0, fb(65024.0f), fb(64512.0f), ONE_F}};
  uint8_t p[4];
  memcpy(p, nan.bytes, 4);
  vm_texture t = one_texel(nan.f, p);
  uint32_t v[4];
  assert_int_equal(vm_tex_fetch(&t, 0, 0, 0, 0, v), 1);
  assert_true(isnan(vm_bits_f(v[0])));
  for (int k = 1; k < 4; k++) assert_int_equal(v[k], nan.want[k]);
}

/* Every sRGB code against the EOTF computed here in double and rounded
 * once to f32: r, g and b decoded, alpha linear (v / 255). */
static void test_srgb_all_codes(void **state) {
  (void)state;
  for (unsigned c = 0; c < 256; c++) {
    const double x = c / 255.0;
    const float want = (float)(x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4));
    uint8_t p[4] = {(uint8_t)c, (uint8_t)c, (uint8_t)c, (uint8_t)c};
    vm_texture t = one_texel(LS_FORMAT_RGBA8UNORM_SRGB, p);
    uint32_t v[4];
    assert_int_equal(vm_tex_fetch(&t, 0, 0, 0, 0, v), 1);
    for (int k = 0; k < 3; k++)
      if (v[k] != fb(want)) {
        fprintf(stderr, "srgb %u: 0x%08x, wanted 0x%08x\n", c, v[k], fb(want));
        fail();
      }
    assert_int_equal(v[3], fb((float)c / 255.0f));
  }
}

/* Stores the vec4 val (bits) into a 1x1 texel of format f; returns the
 * texel's bytes in out. */
static void store1(ls_texture_format f, const uint32_t val[4], uint8_t out[16]) {
  memset(out, 0xaa, 16);
  vm_texture t = one_texel(f, out);
  uint32_t adr[4 * 8] = {0}; /* W = 8: lane 0 stores at (0, 0, 0) */
  uint32_t vals[4 * 8] = {0};
  for (int i = 0; i < 4; i++) vals[i * 8] = val[i];
  assert_int_equal(vm_tex_store(&t, adr, vals, 1, 8), 1);
}

static void expect_bytes(ls_texture_format f, const uint8_t *got, const uint8_t *want, unsigned n) {
  if (memcmp(got, want, n)) {
    fprintf(stderr, "%s stored", ls_texture_format_name(f));
    for (unsigned i = 0; i < n; i++) fprintf(stderr, " %02x", got[i]);
    fprintf(stderr, ", wanted");
    for (unsigned i = 0; i < n; i++) fprintf(stderr, " %02x", want[i]);
    fprintf(stderr, "\n");
    fail();
  }
}

static void test_encode(void **state) {
  (void)state;
  uint8_t b[16];
  struct {
    ls_texture_format f;
    uint32_t val[4];
    uint8_t want[8];
    unsigned n;
  } cases[] = {
      /* floor(0.5 + 255 * 0.5) = 128; the other components are ignored,
       * so the texel's neighbouring bytes keep 0xaa */
      {LS_FORMAT_R8UNORM, {fb(0.5f), ONE_F, ONE_F, ONE_F}, {128, 0xaa}, 2},
      /* floor(0.5 + 127 * -0.5) = floor(-63) = -63 = 0xc1; 2 clamps to 1 */
      {LS_FORMAT_RG8SNORM, {fb(-0.5f), fb(2.0f)}, {0xc1, 127}, 2},
      {LS_FORMAT_R8UINT, {300}, {255}, 1},
      {LS_FORMAT_RG8SINT, {(uint32_t)-300, 100}, {0x80, 100}, 2},
      /* min(65535, T); max(-32768, min(32767, T)) */
      {LS_FORMAT_R16UINT, {70000}, {0xff, 0xff}, 2},
      {LS_FORMAT_RG16SINT, {(uint32_t)-40000, 40000}, {0x00, 0x80, 0xff, 0x7f}, 4},
      /* quantizeToF16: 1/3 -> 0x3555, 65504 -> 0x7bff */
      {LS_FORMAT_RG16FLOAT, {fb(1.0f / 3.0f), fb(65504.0f)}, {0x55, 0x35, 0xff, 0x7b}, 4},
      /* 16unorm: floor(0.5 + 65535 * 0.25) = floor(16384.25) = 16384 */
      {LS_FORMAT_R16UNORM, {fb(0.25f)}, {0x00, 0x40}, 2},
      /* 16snorm: floor(0.5 + 32767 * -1) = -32767 = 0x8001 */
      {LS_FORMAT_R16SNORM, {fb(-3.0f)}, {0x01, 0x80}, 2},
      {LS_FORMAT_RG32FLOAT, {fb(1.5f), fb(-0.0f), ONE_F}, {W4(0x3fc00000u), W4(0x80000000u)}, 8},
      /* bgra: (r, g, b, a) = (1, 0.5, 0, 1) is stored b, g, r, a */
      {LS_FORMAT_BGRA8UNORM, {ONE_F, fb(0.5f), 0, ONE_F}, {0, 128, 255, 255}, 4},
      /* rgb10a2unorm (1, 0.5, 0, 1): 1023, floor(0.5 + 511.5) = 512, 0,
       * 3 -> 1023 | 512 << 10 | 3 << 30 = 0xc00803ff */
      {LS_FORMAT_RGB10A2UNORM, {ONE_F, fb(0.5f), 0, ONE_F}, {W4(0xc00803ffu)}, 4},
      /* rgb10a2uint min(1023, T), min(3, T): (1023, 5, 1023, 3) =
       * 1023 | 5 << 10 | 1023 << 20 | 3 << 30 = 0xfff017ff */
      {LS_FORMAT_RGB10A2UINT, {2000, 5, 1023, 9}, {W4(0xfff017ffu)}, 4},
      /* rg11b10ufloat max(0, T): r = 1 (0x3c0); g = 65536, above the
       * largest finite 65024: 0x7bf; b = -1 -> 0 */
      {LS_FORMAT_RG11B10UFLOAT, {ONE_F, fb(65536.0f), fb(-1.0f)},
       {W4(0x3c0u | 0x7bfu << 11)}, 4},
      /* ties to even: 1 + 2^-7 is halfway between fractions 0 and 1 -> 0;
       * 1 + 3 * 2^-7 between 1 and 2 -> 2 (0x3c2); b = 3 * 2^-20 is 1.5
       * of the 10-bit subnormal ulp 2^-19 -> 2 */
      {LS_FORMAT_RG11B10UFLOAT, {fb(1.0f + 0x1p-7f), fb(1.0f + 3 * 0x1p-7f), fb(3 * 0x1p-20f)},
       {W4(0x3c0u | 0x3c2u << 11 | 2u << 22)}, 4},
      /* infinity stays, NaN gives 0; b = 0.5 = exponent 14 in 10 bits:
       * 14 << 5 = 0x1c0 */
      {LS_FORMAT_RG11B10UFLOAT, {INF_F, 0x7fc00000u, fb(0.5f)}, {W4(0x7c0u | 0x1c0u << 22)}, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    store1(cases[i].f, cases[i].val, b);
    expect_bytes(cases[i].f, b, cases[i].want, cases[i].n);
  }
}

/* Every storage format decodes what it encodes for values its channels
 * hold exactly: (1, 0, 1, 0) in (u32 or f32) comes back with the absent
 * channels as (.., 0, 0, 1). */
static void test_round_trip(void **state) {
  (void)state;
  static const struct {
    ls_texture_format f;
    int ch, is_int;
  } fs[] = {{LS_FORMAT_R8UNORM, 1, 0},      {LS_FORMAT_R8SNORM, 1, 0},
            {LS_FORMAT_R8UINT, 1, 1},       {LS_FORMAT_R8SINT, 1, 1},
            {LS_FORMAT_RG8UNORM, 2, 0},     {LS_FORMAT_RG16FLOAT, 2, 0},
            {LS_FORMAT_RG32UINT, 2, 1},     {LS_FORMAT_RG32SINT, 2, 1},
            {LS_FORMAT_R16UNORM, 1, 0},     {LS_FORMAT_RGBA16SNORM, 4, 0},
            {LS_FORMAT_BGRA8UNORM, 4, 0},   {LS_FORMAT_RGB10A2UNORM, 4, 0},
            {LS_FORMAT_RGB10A2UINT, 4, 1},  {LS_FORMAT_RG11B10UFLOAT, 3, 0}};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
    const uint32_t one = fs[i].is_int ? 1u : ONE_F;
    const uint32_t val[4] = {one, 0, one, 0};
    uint8_t b[16];
    store1(fs[i].f, val, b);
    vm_texture t = one_texel(fs[i].f, b);
    uint32_t v[4];
    assert_int_equal(vm_tex_fetch(&t, 0, 0, 0, 0, v), 1);
    const uint32_t want[4] = {one, 0, fs[i].ch > 2 ? one : 0, fs[i].ch > 3 ? 0 : one};
    if (memcmp(v, want, sizeof want)) {
      fprintf(stderr, "%s: (%08x %08x %08x %08x)\n", ls_texture_format_name(fs[i].f), v[0], v[1],
              v[2], v[3]);
      fail();
    }
  }
}

/* ------------------------------------------------------------ the API */


static ls_texture *tex2d(ls_device *d, uint32_t w, uint32_t h, ls_texture_format f,
                         uint32_t usage) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){w, h, 1};
  td.format = f;
  td.usage = usage;
  td.label = "t";
  return ls_device_create_texture(d, &td);
}

/* A layout of one storage texture entry of format f and access type. */
static ls_bind_group_layout *storage_layout(ls_device *d, ls_texture_format f,
                                            ls_binding_type type) {
  ls_bind_group_layout_entry le;
  memset(&le, 0, sizeof le);
  le.binding = 0;
  le.type = type;
  le.format = f;
  return ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
}

#define TU_COPY (LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST)
#define W_ LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE
#define R_ LS_BINDING_READ_ONLY_STORAGE_TEXTURE
#define RW_ LS_BINDING_READ_WRITE_STORAGE_TEXTURE

static void test_capabilities(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  /* formats that need a feature */
  assert_null(tex2d(d, 2, 2, LS_FORMAT_R16UNORM, LS_TEXTURE_USAGE_TEXTURE_BINDING));
  expect_error("createTexture 't': format r16unorm needs the \"texture-formats-tier1\" feature");
  assert_null(tex2d(d, 2, 2, LS_FORMAT_DEPTH32FLOAT_STENCIL8, LS_TEXTURE_USAGE_TEXTURE_BINDING));
  expect_error("format depth32float-stencil8 needs the \"depth32float-stencil8\" feature");
  /* STORAGE_BINDING usage needs a storage format */
  assert_null(tex2d(d, 2, 2, LS_FORMAT_R8UNORM, LS_TEXTURE_USAGE_STORAGE_BINDING));
  expect_error("format r8unorm does not allow STORAGE_BINDING usage (needs the "
               "\"texture-formats-tier1\" feature)");
  assert_null(tex2d(d, 2, 2, LS_FORMAT_BGRA8UNORM, LS_TEXTURE_USAGE_STORAGE_BINDING));
  expect_error("format bgra8unorm does not allow STORAGE_BINDING usage (needs the "
               "\"bgra8unorm-storage\" feature)");
  assert_null(tex2d(d, 2, 2, LS_FORMAT_RGBA8UNORM_SRGB, LS_TEXTURE_USAGE_STORAGE_BINDING));
  expect_error("format rgba8unorm-srgb does not allow STORAGE_BINDING usage (it is not a "
               "storage format)");
  assert_null(tex2d(d, 2, 2, LS_FORMAT_DEPTH16UNORM, LS_TEXTURE_USAGE_STORAGE_BINDING));
  expect_error("(it is not a storage format)");
  /* core: rg32 formats are write-only and read-only storage formats */
  ls_texture *t = tex2d(d, 2, 2, LS_FORMAT_RG32FLOAT, LS_TEXTURE_USAGE_STORAGE_BINDING);
  assert_non_null(t);
  ls_texture_release(t);
  ls_bind_group_layout *l = storage_layout(d, LS_FORMAT_RG32UINT, R_);
  assert_non_null(l);
  ls_bind_group_layout_release(l);
  assert_null(storage_layout(d, LS_FORMAT_RG32SINT, RW_));
  expect_error("format rg32sint does not allow read-write storage access (no feature allows "
               "that access for it)");
  assert_null(storage_layout(d, LS_FORMAT_R8UINT, W_));
  expect_error("format r8uint does not allow write-only storage access (needs the "
               "\"texture-formats-tier1\" feature)");
  assert_null(storage_layout(d, LS_FORMAT_RGBA16FLOAT, RW_));
  expect_error("format rgba16float does not allow read-write storage access (needs the "
               "\"texture-formats-tier2\" feature)");
  assert_null(storage_layout(d, LS_FORMAT_BGRA8UNORM, W_));
  expect_error("format bgra8unorm does not allow write-only storage access (needs the "
               "\"bgra8unorm-storage\" feature)");
  /* depth-or-stencil formats: 2d only */
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.dimension = LS_TEXTURE_DIMENSION_3D;
  td.size = (ls_extent3d){2, 2, 2};
  td.format = LS_FORMAT_DEPTH16UNORM;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING;
  assert_null(ls_device_create_texture(d, &td));
  expect_error("a 3d texture cannot have the depth-or-stencil format depth16unorm");
  /* the sample types: depth16unorm allows depth and unfilterable-float,
   * r32float unfilterable-float alone without float32-filterable */
  assert_int_equal(ls_texture_format_sample_types(LS_FORMAT_DEPTH16UNORM),
                   1u << LS_SAMPLE_DEPTH | 1u << LS_SAMPLE_UNFILTERABLE_FLOAT);
  assert_int_equal(ls_texture_format_sample_types(LS_FORMAT_R32FLOAT),
                   1u << LS_SAMPLE_UNFILTERABLE_FLOAT);
  assert_int_equal(ls_texture_format_sample_types(LS_FORMAT_RG11B10UFLOAT),
                   1u << LS_SAMPLE_FLOAT | 1u << LS_SAMPLE_UNFILTERABLE_FLOAT);
  assert_int_equal(ls_texture_format_sample_types(LS_FORMAT_STENCIL8), 1u << LS_SAMPLE_UINT);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_R8UNORM), 1);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_RG16FLOAT), 4);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_RG32FLOAT), 8);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_RGB9E5UFLOAT), 4);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_DEPTH16UNORM), 2);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_STENCIL8), 1);
  expect_no_error();
  tu_free_env(&e);

  /* with the features */
  const char *const feats[] = {"texture-formats-tier2", "bgra8unorm-storage", NULL};
  e = tu_make_env(1, feats);
  d = e.device;
  assert_true(ls_device_has_feature(d, "texture-formats-tier1")); /* tier2 enables it */
  assert_true(ls_device_has_feature(d, "rg11b10ufloat-renderable")); /* and tier1 this */
  t = tex2d(d, 2, 2, LS_FORMAT_R8UNORM, LS_TEXTURE_USAGE_STORAGE_BINDING);
  assert_non_null(t);
  ls_texture_release(t);
  t = tex2d(d, 2, 2, LS_FORMAT_R16UNORM, LS_TEXTURE_USAGE_STORAGE_BINDING);
  assert_non_null(t);
  ls_texture_release(t);
  static const struct {
    ls_texture_format f;
    ls_binding_type type;
  } ok[] = {{LS_FORMAT_R8UNORM, RW_},     {LS_FORMAT_RG8SNORM, R_},   {LS_FORMAT_RGBA16FLOAT, RW_},
            {LS_FORMAT_RG11B10UFLOAT, W_}, {LS_FORMAT_RGB10A2UINT, R_}, {LS_FORMAT_BGRA8UNORM, W_},
            {LS_FORMAT_RGBA32FLOAT, RW_}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    l = storage_layout(d, ok[i].f, ok[i].type);
    if (!l) fprintf(stderr, "%s: %s\n", ls_texture_format_name(ok[i].f), last_error);
    assert_non_null(l);
    ls_bind_group_layout_release(l);
  }
  /* still refused: read access to bgra8unorm, read-write to rg8 and the
   * 16-bit normalized formats, any storage of rgb9e5ufloat */
  assert_null(storage_layout(d, LS_FORMAT_BGRA8UNORM, R_));
  expect_error("format bgra8unorm does not allow read-only storage access");
  assert_null(storage_layout(d, LS_FORMAT_RG8UINT, RW_));
  expect_error("format rg8uint does not allow read-write storage access");
  assert_null(storage_layout(d, LS_FORMAT_R16SNORM, RW_));
  expect_error("format r16snorm does not allow read-write storage access");
  assert_null(storage_layout(d, LS_FORMAT_RGB9E5UFLOAT, W_));
  expect_error("format rgb9e5ufloat does not allow write-only storage access (it is not a "
               "storage format)");
  tu_free_env(&e);
}

/* float32-filterable adds "float" to the 32-bit float formats. */
static void test_float32_filterable(void **state) {
  (void)state;
  for (int with = 0; with < 2; with++) {
    const char *const feats[] = {"float32-filterable", NULL};
    env e = tu_make_env(1, with ? feats : NULL);
    ls_device *d = e.device;
    ls_texture *t = tex2d(d, 1, 1, LS_FORMAT_RG32FLOAT, LS_TEXTURE_USAGE_TEXTURE_BINDING);
    ls_texture_view *v = ls_texture_create_view(t, NULL);
    ls_bind_group_layout_entry le;
    memset(&le, 0, sizeof le);
    le.type = LS_BINDING_SAMPLED_TEXTURE;
    le.sample_type = LS_SAMPLE_FLOAT;
    ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
    assert_non_null(l);
    ls_bind_group_entry be = {.binding = 0, .texture_view = v};
    ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
    if (with) {
      expect_no_error();
      assert_non_null(g);
    } else {
      assert_null(g);
      expect_error("format rg32float of texture 't' is not compatible with sampleType \"float\"");
    }
    ls_bind_group_release(g);
    ls_bind_group_layout_release(l);
    ls_texture_view_release(v);
    ls_texture_release(t);
    tu_free_env(&e);
  }
}

static ls_status copy_to_buffer(ls_device *d, ls_texture *t, ls_extent3d size, ls_buffer *b) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_texel_copy_texture_info src = {t, 0, {0, 0, 0}};
  ls_texel_copy_buffer_layout lay = {0, 256, LS_COPY_STRIDE_UNDEFINED};
  ls_command_encoder_copy_texture_to_buffer(enc, &src, b, &lay, &size);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  if (!cb) return LS_VALIDATION;
  const ls_status submitted = ls_queue_submit(d, &cb, 1);
  ls_command_buffer_release(cb);
  return submitted;
}

/* Which depth-stencil aspects are copy sources and destinations
 * (WebGPU's depth-stencil format table), and the whole-subresource rule. */
static void test_depth_copies(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  const uint16_t d16[4] = {0, 0x8000, 0xffff, 1};
  ls_texel_copy_buffer_layout lay = {0, 4, 2};
  ls_extent3d all = {2, 2, 1};
  ls_texture *t16 = tex2d(d, 2, 2, LS_FORMAT_DEPTH16UNORM, TU_COPY);
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){t16, 0, {0, 0, 0}},
                                          d16, sizeof d16, &lay, &all),
                   LS_OK);
  expect_no_error();
  /* a part of the subresource */
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){t16, 0, {1, 0, 0}},
                                          d16, sizeof d16, &lay, &(ls_extent3d){1, 2, 1}),
                   LS_VALIDATION);
  expect_error("a copy of depth-or-stencil texture 't' (depth16unorm) must cover whole mip level 0");
  /* depth32float is a copy source, not a destination */
  ls_texture *t32 = tex2d(d, 2, 2, LS_FORMAT_DEPTH32FLOAT, TU_COPY);
  const float f4[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  ls_texel_copy_buffer_layout lay32 = {0, 8, 2};
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){t32, 0, {0, 0, 0}},
                                          f4, sizeof f4, &lay32, &all),
                   LS_VALIDATION);
  expect_error("writeTexture: texture 't' is depth32float, which is not a valid texel copy "
               "destination");
  ls_buffer_desc bd = {.size = 512, .usage = LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC, .label = "b"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  assert_int_equal(copy_to_buffer(d, t32, all, b), LS_OK);
  expect_no_error();
  /* depth16unorm reads back what was written */
  assert_int_equal(copy_to_buffer(d, t16, all, b), LS_OK);
  uint16_t back[2];
  assert_int_equal(ls_queue_read_buffer(d, b, 256, back, 4), LS_OK);
  assert_int_equal(back[0], 0xffff);
  assert_int_equal(back[1], 1);
  /* depth24plus is neither */
  ls_texture *t24 = tex2d(d, 2, 2, LS_FORMAT_DEPTH24PLUS, TU_COPY);
  assert_int_equal(copy_to_buffer(d, t24, all, b), LS_VALIDATION);
  expect_error("texture 't' is depth24plus, which is not a valid texel copy source");
  /* a combined format's aspect "all" is two aspects */
  ls_texture *tds = tex2d(d, 2, 2, LS_FORMAT_DEPTH24PLUS_STENCIL8, TU_COPY);
  assert_non_null(tds);
  assert_int_equal(copy_to_buffer(d, tds, all, b), LS_VALIDATION);
  expect_error("is depth24plus-stencil8, whose aspect \"all\" is two aspects");
  /* stencil8 copies both ways; its buffer offset must be a multiple of 4 */
  ls_texture *ts = tex2d(d, 4, 1, LS_FORMAT_STENCIL8, TU_COPY);
  const uint8_t s8[8] = {0, 0, 1, 2, 3, 4, 0, 0};
  ls_texel_copy_buffer_layout lays = {2, 256, 1};
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  assert_int_equal(ls_queue_write_buffer(d, b, 0, s8, 8), LS_OK);
  ls_command_encoder_copy_buffer_to_texture(enc, b, &lays,
                                            &(ls_texel_copy_texture_info){ts, 0, {0, 0, 0}},
                                            &(ls_extent3d){4, 1, 1});
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("buffer offset 2 is not a multiple of 4, as a depth-or-stencil format (stencil8) "
               "needs");
  /* writeTexture has no such rule */
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){ts, 0, {0, 0, 0}}, s8,
                                          8, &lays, &(ls_extent3d){4, 1, 1}),
                   LS_OK);
  expect_no_error();
  ls_texture_release(ts);
  ls_texture_release(tds);
  ls_texture_release(t24);
  ls_texture_release(t32);
  ls_texture_release(t16);
  ls_buffer_release(b);
  tu_free_env(&e);
}

/* textureLoad through texture_2d<f32> of a depth16unorm view (WebGPU lets
 * a depth format bind as unfilterable-float): v / 65535, then (0, 0, 1);
 * and a write-only rg32float storage texture in core WebGPU. */
static const char *depth_load =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: texture_storage_2d<rg32float, write>;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<vec4f, 4>;\n"
    "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  let v = textureLoad(t, vec2u(i % 2u, i / 2u), 0);\n"
    "  o[i] = v;\n"
    "  textureStore(s, vec2u(i % 2u, i / 2u), vec4f(v.x * 2.0, -v.x, 7.0, 7.0));\n"
    "}\n";

static void test_depth_load(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  ls_device *d = e.device;
  ls_shader_module_desc sd = {.code = depth_load, .label = "depth.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  ls_shader_module_release(m);
  if (!p) fprintf(stderr, "%s\n", last_error);
  assert_non_null(p);
  ls_texture *t = tex2d(d, 2, 2, LS_FORMAT_DEPTH16UNORM,
                        LS_TEXTURE_USAGE_COPY_DST | LS_TEXTURE_USAGE_TEXTURE_BINDING);
  const uint16_t d16[4] = {0, 0x8000, 0xffff, 1};
  ls_texel_copy_buffer_layout lay = {0, 4, 2};
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){t, 0, {0, 0, 0}}, d16,
                                          sizeof d16, &lay, &(ls_extent3d){2, 2, 1}),
                   LS_OK);
  ls_texture *s = tex2d(d, 2, 2, LS_FORMAT_RG32FLOAT,
                        LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_STORAGE_BINDING);
  ls_buffer_desc bd = {.size = 256 * 2, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC |
                                    LS_BUFFER_USAGE_COPY_DST, .label = "o"};
  ls_buffer *o = ls_device_create_buffer(d, &bd);
  ls_texture_view *tv = ls_texture_create_view(t, NULL), *sv = ls_texture_create_view(s, NULL);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry be[3] = {{.binding = 0, .texture_view = tv},
                               {.binding = 1, .texture_view = sv},
                               {.binding = 2, .buffer = o, .size = 64}};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
  if (!g) fprintf(stderr, "%s\n", last_error);
  assert_non_null(g);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  expect_no_error();
  float out[16];
  assert_int_equal(ls_queue_read_buffer(d, o, 0, out, sizeof out), LS_OK);
  const float want[4] = {0.0f, 32768.0f / 65535.0f, 1.0f, 1.0f / 65535.0f};
  for (int i = 0; i < 4; i++) {
    assert_true(out[4 * i] == want[i]);
    assert_true(out[4 * i + 1] == 0.0f && out[4 * i + 2] == 0.0f && out[4 * i + 3] == 1.0f);
  }
  /* the rg32float texels: (2v, -v); z and w are ignored */
  ls_command_encoder *e2 = ls_device_create_command_encoder(d, NULL);
  ls_texel_copy_texture_info src = {s, 0, {0, 0, 0}};
  ls_texel_copy_buffer_layout ol = {0, 256, 2};
  ls_command_encoder_copy_texture_to_buffer(e2, &src, o, &ol, &(ls_extent3d){2, 2, 1});
  ls_command_buffer *cb = ls_command_encoder_finish(e2, NULL);
  ls_command_encoder_release(e2);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  float rows[2][4];
  assert_int_equal(ls_queue_read_buffer(d, o, 0, rows[0], 16), LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, o, 256, rows[1], 16), LS_OK);
  for (int i = 0; i < 4; i++) {
    assert_true(rows[i / 2][2 * (i % 2)] == want[i] * 2.0f);
    assert_true(rows[i / 2][2 * (i % 2) + 1] == -want[i]);
  }
  ls_bind_group_release(g);
  ls_bind_group_layout_release(l);
  ls_texture_view_release(tv);
  ls_texture_view_release(sv);
  ls_texture_release(t);
  ls_texture_release(s);
  ls_buffer_release(o);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

static ls_status copy_aspect_to_buffer(ls_device *d, ls_texture *t, ls_texture_aspect a,
                                       ls_extent3d size, ls_buffer *b) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_texel_copy_texture_info src = {t, 0, {0, 0, 0}, a};
  ls_texel_copy_buffer_layout lay = {0, 256, LS_COPY_STRIDE_UNDEFINED};
  ls_command_encoder_copy_texture_to_buffer(enc, &src, b, &lay, &size);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  if (!cb) return LS_VALIDATION;
  const ls_status submitted = ls_queue_submit(d, &cb, 1);
  ls_command_buffer_release(cb);
  return submitted;
}

/* One aspect of a combined depth-stencil texture: its stencil written and
 * read back through "stencil-only" copies (the stencil8 footprint, a byte
 * a texel), bound through "stencil-only" and "depth-only" views, whose
 * formats are the aspect-specific ones; and the aspect rules' errors. */
static const char *aspect_load =
    "@group(0) @binding(0) var s: texture_2d<u32>;\n"
    "@group(0) @binding(1) var dpt: texture_2d<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<u32, 8>;\n"
    "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  let c = vec2u(i % 2u, i / 2u);\n"
    "  o[i] = textureLoad(s, c, 0).x;\n"
    "  o[4u + i] = bitcast<u32>(textureLoad(dpt, c, 0).x);\n"
    "}\n";

static void test_aspects(void **state) {
  (void)state;
  const char *const feats[] = {"depth32float-stencil8", NULL};
  env e = tu_make_env(1, feats);
  ls_device *d = e.device;
  ls_texture *t = tex2d(d, 2, 2, LS_FORMAT_DEPTH24PLUS_STENCIL8,
                        TU_COPY | LS_TEXTURE_USAGE_TEXTURE_BINDING);
  assert_non_null(t);
  const uint8_t st[4] = {5, 6, 7, 250};
  ls_texel_copy_buffer_layout lay = {0, 2, 2};
  ls_extent3d all = {2, 2, 1};
  assert_int_equal(ls_queue_write_texture(
                       d, &(ls_texel_copy_texture_info){t, 0, {0, 0, 0}, LS_ASPECT_STENCIL_ONLY},
                       st, sizeof st, &lay, &all),
                   LS_OK);
  expect_no_error();
  /* depth24plus is no copy destination (nor source) */
  const float dz[4] = {0};
  ls_texel_copy_buffer_layout lay4 = {0, 8, 2};
  assert_int_equal(ls_queue_write_texture(
                       d, &(ls_texel_copy_texture_info){t, 0, {0, 0, 0}, LS_ASPECT_DEPTH_ONLY},
                       dz, sizeof dz, &lay4, &all),
                   LS_VALIDATION);
  expect_error("texture 't' is depth24plus, which is not a valid texel copy destination");
  ls_buffer_desc bd = {.size = 512, .usage = LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC |
                                LS_BUFFER_USAGE_STORAGE, .label = "b"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  assert_int_equal(copy_aspect_to_buffer(d, t, LS_ASPECT_STENCIL_ONLY, all, b), LS_OK);
  expect_no_error();
  uint8_t back[2][4]; /* reads are whole words */
  assert_int_equal(ls_queue_read_buffer(d, b, 0, back[0], 4), LS_OK); /* rows at 256 */
  assert_int_equal(ls_queue_read_buffer(d, b, 256, back[1], 4), LS_OK);
  assert_int_equal(back[0][0], 5);
  assert_int_equal(back[0][1], 6);
  assert_int_equal(back[1][0], 7);
  assert_int_equal(back[1][1], 250);

  /* views: the aspect-specific formats, and their errors */
  ls_texture_view_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.aspect = LS_ASPECT_STENCIL_ONLY;
  ls_texture_view *sv = ls_texture_create_view(t, &vd);
  vd.aspect = LS_ASPECT_DEPTH_ONLY;
  ls_texture_view *dv = ls_texture_create_view(t, &vd);
  assert_non_null(sv);
  assert_non_null(dv);
  vd.format = LS_FORMAT_DEPTH32FLOAT;
  assert_null(ls_texture_create_view(t, &vd));
  expect_error("format depth32float is not depth24plus, the format of aspect \"depth-only\" of "
               "depth24plus-stencil8");
  ls_texture *c = tex2d(d, 1, 1, LS_FORMAT_RGBA8UNORM, LS_TEXTURE_USAGE_TEXTURE_BINDING);
  vd.format = 0;
  assert_null(ls_texture_create_view(c, &vd));
  expect_error("aspect \"depth-only\" is not present in format rgba8unorm");
  ls_texture_release(c);

  ls_shader_module_desc sd = {.code = aspect_load, .label = "aspect.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  ls_shader_module_release(m);
  assert_non_null(p);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_texture_view *whole = ls_texture_create_view(t, NULL);
  ls_bind_group_entry be[3] = {{.binding = 0, .texture_view = whole},
                               {.binding = 1, .texture_view = dv},
                               {.binding = 2, .buffer = b, .size = 32}};
  /* aspect "all" of a combined format cannot be bound */
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3}));
  expect_error("texture 't' is depth24plus-stencil8, and a view of both its aspects cannot be "
               "bound");
  be[0].texture_view = sv;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
  assert_non_null(g);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  expect_no_error();
  uint32_t out[8];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
  /* the stencil bytes, and the depth keeps the zeros of creation */
  const uint32_t want[8] = {5, 6, 7, 250, 0, 0, 0, 0};
  for (int i = 0; i < 8; i++) assert_int_equal(out[i], want[i]);
  ls_bind_group_release(g);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
  ls_texture_view_release(whole);
  ls_texture_view_release(sv);
  ls_texture_view_release(dv);
  ls_texture_release(t);

  /* depth32float-stencil8: its depth is a copy source, not a destination;
   * stencil-only of depth16unorm is not present */
  t = tex2d(d, 2, 2, LS_FORMAT_DEPTH32FLOAT_STENCIL8, TU_COPY);
  assert_non_null(t);
  assert_int_equal(copy_aspect_to_buffer(d, t, LS_ASPECT_DEPTH_ONLY, all, b), LS_OK);
  assert_int_equal(ls_queue_write_texture(
                       d, &(ls_texel_copy_texture_info){t, 0, {0, 0, 0}, LS_ASPECT_DEPTH_ONLY},
                       dz, sizeof dz, &lay4, &all),
                   LS_VALIDATION);
  expect_error("texture 't' is depth32float, which is not a valid texel copy destination");
  ls_texture_release(t);
  t = tex2d(d, 2, 2, LS_FORMAT_DEPTH16UNORM, TU_COPY);
  assert_int_equal(copy_aspect_to_buffer(d, t, LS_ASPECT_STENCIL_ONLY, all, b), LS_VALIDATION);
  expect_error("aspect \"stencil-only\" is not present in format depth16unorm of texture 't'");
  assert_int_equal(copy_aspect_to_buffer(d, t, LS_ASPECT_DEPTH_ONLY, all, b), LS_OK);
  expect_no_error();
  ls_texture_release(t);
  ls_buffer_release(b);
  tu_free_env(&e);
}

/* Layout "auto" applies the same storage rules: an r8unorm storage texture
 * needs texture-formats-tier1 at pipeline creation. */
static void test_auto_layout_features(void **state) {
  (void)state;
  const char *code = "@group(0) @binding(0) var s: texture_storage_2d<r8unorm, write>;\n"
                     "@compute @workgroup_size(1) fn main() {\n"
                     "  textureStore(s, vec2u(0u), vec4f(0.5));\n"
                     "}\n";
  for (int with = 0; with < 2; with++) {
    const char *const feats[] = {"texture-formats-tier1", NULL};
    env e = tu_make_env(1, with ? feats : NULL);
    ls_shader_module_desc sd = {.code = code, .label = "r8.wgsl"};
    ls_shader_module *m = ls_device_create_shader_module(e.device, &sd);
    ls_compute_pipeline_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.module = m;
    ls_compute_pipeline *p = ls_device_create_compute_pipeline(e.device, &pd);
    ls_shader_module_release(m);
    if (with) {
      expect_no_error();
      assert_non_null(p);
    } else {
      assert_null(p);
      assert_non_null(strstr(last_error, "r8.wgsl:1:"));
      expect_error("'s' is a write-only storage texture of format r8unorm, which does not allow "
                   "that access (needs the \"texture-formats-tier1\" feature)");
    }
    ls_compute_pipeline_release(p);
    tu_free_env(&e);
  }
}

/* A read-write r8unorm storage texture (texture-formats-tier2): each texel
 * halved in place. Codes 0, 60, 200, 255 read 0, 60/255, 200/255, 1; the
 * halves store floor(0.5 + 255 x): 0, 30, 100 and, for 0.5 (127.5, a
 * tie), 128. */
static void test_read_write_tier2(void **state) {
  (void)state;
  const char *const feats[] = {"texture-formats-tier2", NULL};
  env e = tu_make_env(1, feats);
  ls_device *d = e.device;
  const char *code = "@group(0) @binding(0) var s: texture_storage_2d<r8unorm, read_write>;\n"
                     "@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n"
                     "  let c = vec2u(i, 0u);\n"
                     "  textureStore(s, c, textureLoad(s, c) * 0.5);\n"
                     "}\n";
  ls_shader_module_desc sd = {.code = code, .label = "rw.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  ls_shader_module_release(m);
  if (!p) fprintf(stderr, "%s\n", last_error);
  assert_non_null(p);
  ls_texture *t = tex2d(d, 4, 1, LS_FORMAT_R8UNORM, TU_COPY | LS_TEXTURE_USAGE_STORAGE_BINDING);
  const uint8_t in[4] = {0, 60, 200, 255};
  ls_texel_copy_buffer_layout lay = {0, 4, 1};
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){t, 0, {0, 0, 0}}, in, 4,
                                          &lay, &(ls_extent3d){4, 1, 1}),
                   LS_OK);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry be = {.binding = 0, .texture_view = v};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  assert_non_null(g);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  ls_buffer_desc bd = {.size = 256, .usage = LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC, .label = "b"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  assert_int_equal(copy_to_buffer(d, t, (ls_extent3d){4, 1, 1}, b), LS_OK);
  uint8_t out[4];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, 4), LS_OK);
  expect_no_error();
  const uint8_t want[4] = {0, 30, 100, 128};
  expect_bytes(LS_FORMAT_R8UNORM, out, want, 4);
  ls_buffer_release(b);
  ls_bind_group_release(g);
  ls_bind_group_layout_release(l);
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* The front end and the API agree on the storage formats: every texel
 * format WGSL accepts in texture_storage_* is a format lockstep holds that
 * allows write-only storage on a device with the texture format features,
 * and every format that allows storage there is one WGSL accepts. */
static void test_wgsl_formats_agree(void **state) {
  (void)state;
  const char *const feats[] = {"texture-formats-tier2", "bgra8unorm-storage", NULL};
  env e = tu_make_env(1, feats);
  int n = 0;
  for (int i = 0; types_texel_formats[i]; i++, n++) {
    const ls_texture_format f = ls_texture_format_from_name(types_texel_formats[i]);
    if (!f) fprintf(stderr, "WGSL texel format %s is not a lockstep format\n", types_texel_formats[i]);
    assert_int_not_equal(f, LS_FORMAT_UNDEFINED);
    ls_bind_group_layout *l = storage_layout(e.device, f, W_);
    if (!l) fprintf(stderr, "%s: %s\n", types_texel_formats[i], last_error);
    assert_non_null(l);
    ls_bind_group_layout_release(l);
  }
  assert_int_equal(n, 40); /* the rows of WGSL's "Texel Formats for Storage Textures" */
  int storage = 0;
  for (int f = 1; f < LS_FORMAT_COUNT_; f++) {
    ls_bind_group_layout *l = storage_layout(e.device, (ls_texture_format)f, W_);
    if (!l) {
      nerrors = 0;
      continue;
    }
    ls_bind_group_layout_release(l);
    int found = 0;
    for (int i = 0; types_texel_formats[i]; i++)
      found |= !strcmp(types_texel_formats[i], ls_texture_format_name((ls_texture_format)f));
    if (!found) fprintf(stderr, "%s is a storage format WGSL lacks\n", ls_texture_format_name(f));
    assert_true(found);
    storage++;
  }
  assert_int_equal(storage, 40);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode),
      cmocka_unit_test(test_srgb_all_codes),
      cmocka_unit_test(test_encode),
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_capabilities),
      cmocka_unit_test(test_float32_filterable),
      cmocka_unit_test(test_depth_copies),
      cmocka_unit_test(test_depth_load),
      cmocka_unit_test(test_auto_layout_features),
      cmocka_unit_test(test_wgsl_formats_agree),
      cmocka_unit_test(test_aspects),
      cmocka_unit_test(test_read_write_tier2),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
