/*
 * test_sampler.c — samplers end to end: createSampler's validation,
 * sampler entries of bind group layouts and bind groups, the pipeline
 * rules that pair textures with samplers (a filtering sampler reads
 * "float" textures only; layout "auto" makes a sampled f32 texture
 * "float"), and sampled values worked out by hand from the filtering rules
 * in the comments (address modes, linear weights, mipmap rounding, cube
 * faces); and the VM's fast path for the common sampling (one level of
 * a four-channel 8-bit unorm 2D texture, linear, clamped to the edge)
 * against its general path, bit for bit.
 */
#include <math.h>

#include "unit_api.h"
#include "vm/vm.h" /* vm_tex_sample: the fast path against the general one */

static ls_sampler *sampler(ls_device *d, ls_filter_mode f, ls_address_mode a,
                           ls_compare_function cmp) {
  ls_sampler_desc sd = LS_SAMPLER_DESC_DEFAULT;
  sd.mag_filter = sd.min_filter = f;
  sd.address_mode_u = sd.address_mode_v = sd.address_mode_w = a;
  sd.compare = cmp;
  ls_sampler *s = ls_device_create_sampler(d, &sd);
  assert_non_null(s);
  return s;
}

static void test_create_sampler(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_sampler *s = ls_device_create_sampler(d, NULL);
  assert_non_null(s);
  expect_no_error();
  ls_sampler_release(s);

  ls_sampler_desc zero;
  memset(&zero, 0, sizeof zero);
  assert_null(ls_device_create_sampler(d, &zero));
  expect_error("maxAnisotropy (0) must be at least 1 (start the descriptor from "
               "LS_SAMPLER_DESC_DEFAULT)");

  ls_sampler_desc sd = LS_SAMPLER_DESC_DEFAULT;
  sd.lod_min_clamp = -1.0f;
  assert_null(ls_device_create_sampler(d, &sd));
  expect_error("lodMinClamp (-1) must be at least 0");
  sd.lod_min_clamp = 0.0f / 0.0f;
  assert_null(ls_device_create_sampler(d, &sd));
  expect_error("lodMinClamp (");
  sd = (ls_sampler_desc)LS_SAMPLER_DESC_DEFAULT;
  sd.lod_min_clamp = 3.0f;
  sd.lod_max_clamp = 2.0f;
  assert_null(ls_device_create_sampler(d, &sd));
  expect_error("lodMaxClamp (2) must be at least lodMinClamp (3)");
  sd.lod_max_clamp = 3.0f; /* equal is valid */
  s = ls_device_create_sampler(d, &sd);
  assert_non_null(s);
  ls_sampler_release(s);

  sd = (ls_sampler_desc)LS_SAMPLER_DESC_DEFAULT;
  sd.max_anisotropy = 4;
  sd.mag_filter = sd.min_filter = LS_FILTER_LINEAR;
  assert_null(ls_device_create_sampler(d, &sd));
  expect_error("maxAnisotropy 4 needs magFilter, minFilter and mipmapFilter \"linear\" "
               "(mipmapFilter is \"nearest\")");
  sd.mipmap_filter = LS_FILTER_LINEAR;
  s = ls_device_create_sampler(d, &sd);
  assert_non_null(s);
  expect_no_error();
  ls_sampler_release(s);

  sd = (ls_sampler_desc)LS_SAMPLER_DESC_DEFAULT;
  sd.address_mode_v = (ls_address_mode)7;
  assert_null(ls_device_create_sampler(d, &sd));
  expect_error("bad addressModeV 7");
  sd = (ls_sampler_desc)LS_SAMPLER_DESC_DEFAULT;
  sd.compare = (ls_compare_function)42;
  assert_null(ls_device_create_sampler(d, &sd));
  expect_error("bad compare function 42");
  tu_free_env(&e);
}

static ls_bind_group_layout *one_layout(ls_device *d, ls_binding_type t) {
  ls_bind_group_layout_entry le;
  memset(&le, 0, sizeof le);
  le.binding = 0;
  le.type = t;
  return ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
}

static ls_bind_group *one_group(ls_device *d, ls_bind_group_layout *l, ls_sampler *s,
                                ls_buffer *b) {
  ls_bind_group_entry be;
  memset(&be, 0, sizeof be);
  be.binding = 0;
  be.sampler = s;
  be.buffer = b;
  be.size = LS_WHOLE_SIZE;
  return ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
}

/* createBindGroup's sampler rules (GPUSamplerBindingLayout.type). */
static void test_bind_groups(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_bind_group_layout *filt = one_layout(d, LS_BINDING_FILTERING_SAMPLER);
  ls_bind_group_layout *nonf = one_layout(d, LS_BINDING_NON_FILTERING_SAMPLER);
  ls_bind_group_layout *cmp = one_layout(d, LS_BINDING_COMPARISON_SAMPLER);
  ls_bind_group_layout *buf = one_layout(d, LS_BINDING_STORAGE);
  assert_non_null(filt);
  assert_non_null(nonf);
  assert_non_null(cmp);
  expect_no_error();
  ls_sampler *near = sampler(d, LS_FILTER_NEAREST, LS_ADDRESS_REPEAT, LS_COMPARE_UNDEFINED);
  ls_sampler *lin = sampler(d, LS_FILTER_LINEAR, LS_ADDRESS_REPEAT, LS_COMPARE_UNDEFINED);
  ls_sampler *less = sampler(d, LS_FILTER_LINEAR, LS_ADDRESS_CLAMP_TO_EDGE, LS_COMPARE_LESS);

  struct {
    ls_bind_group_layout *l;
    ls_sampler *s;
    const char *err; /* NULL = valid */
  } rows[] = {
      {filt, near, NULL},
      {filt, lin, NULL},
      {filt, less, "sampler '(unlabelled)' is a comparison sampler"},
      {nonf, near, NULL},
      {nonf, lin, "filters (a linear magFilter, minFilter or mipmapFilter)"},
      {nonf, less, "is a comparison sampler"},
      {cmp, less, NULL},
      {cmp, near, "is not a comparison sampler (it has no compare function)"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ls_bind_group *g = one_group(d, rows[i].l, rows[i].s, NULL);
    if (rows[i].err) {
      assert_null(g);
      expect_error(rows[i].err);
    } else {
      assert_non_null(g);
      expect_no_error();
      ls_bind_group_release(g);
    }
  }
  /* a sampler where a buffer goes, and nothing where a sampler goes */
  assert_null(one_group(d, buf, near, NULL));
  expect_error("a sampler where the layout wants a buffer");
  assert_null(one_group(d, filt, NULL, NULL));
  expect_error("binding 0 (filtering sampler): needs a sampler and no buffer or texture view");

  /* maxSamplersPerShaderStage (16) */
  ls_bind_group_layout_entry many[17];
  memset(many, 0, sizeof many);
  for (uint32_t i = 0; i < 17; i++) {
    many[i].binding = i;
    many[i].type = LS_BINDING_FILTERING_SAMPLER;
  }
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = many, .entry_count = 17}));
  expect_error("17 samplers visible to the COMPUTE stage exceed maxSamplersPerShaderStage (16)");
  ls_bind_group_layout *sixteen = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = many, .entry_count = 16});
  assert_non_null(sixteen);
  ls_bind_group_layout_release(sixteen);

  /* the group holds its sampler: destroying the handle first is fine */
  ls_bind_group *g = one_group(d, filt, near, NULL);
  assert_non_null(g);
  ls_sampler_release(near);
  ls_bind_group_release(g);
  ls_sampler_release(lin);
  ls_sampler_release(less);
  ls_bind_group_layout_release(filt);
  ls_bind_group_layout_release(nonf);
  ls_bind_group_layout_release(cmp);
  ls_bind_group_layout_release(buf);
  tu_free_env(&e);
}

static ls_compute_pipeline *pipeline(ls_device *d, const char *code, ls_pipeline_layout *pl) {
  return tu_pipeline(d, code, "smp.wgsl", pl);
}

/* An explicit layout: texture (sample type st) at 0, sampler (type t) at 1,
 * storage buffer at 2. */
static ls_pipeline_layout *layout3(ls_device *d, ls_texture_sample_type st,
                                   ls_binding_type t) {
  ls_bind_group_layout_entry le[3];
  memset(le, 0, sizeof le);
  le[0].binding = 0;
  le[0].type = LS_BINDING_SAMPLED_TEXTURE;
  le[0].sample_type = st;
  le[1].binding = 1;
  le[1].type = t;
  le[2].binding = 2;
  le[2].type = LS_BINDING_STORAGE;
  ls_bind_group_layout *g = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = le, .entry_count = 3});
  assert_non_null(g);
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &g, .bind_group_layout_count = 1});
  ls_bind_group_layout_release(g);
  assert_non_null(pl);
  return pl;
}

static const char *sample_f32 =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<vec4f>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  o[0] = textureSampleLevel(t, s, vec2f(0.5), 0.0);\n"
    "}\n";

static const char *gather_u32 =
    "@group(0) @binding(0) var t: texture_2d<u32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<vec4u>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  o[0] = textureGather(1, t, s, vec2f(0.5));\n"
    "}\n";

/* "validating GPUProgrammableStage": a filtering sampler only with "float"
 * textures; sampler vs sampler_comparison against the layout's type. */
static void test_pipeline_pairs(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_pipeline_layout *pl = layout3(d, LS_SAMPLE_UNFILTERABLE_FLOAT, LS_BINDING_FILTERING_SAMPLER);
  assert_null(pipeline(d, sample_f32, pl));
  expect_error("smp.wgsl:5:10: 's' is a filtering sampler but texture 't' has sampleType "
               "\"unfilterable-float\"; only \"float\" textures can be filtered");
  ls_pipeline_layout_release(pl);
  pl = layout3(d, LS_SAMPLE_UNFILTERABLE_FLOAT, LS_BINDING_NON_FILTERING_SAMPLER);
  ls_compute_pipeline *p = pipeline(d, sample_f32, pl);
  assert_non_null(p);
  expect_no_error();
  ls_compute_pipeline_release(p);
  ls_pipeline_layout_release(pl);
  pl = layout3(d, LS_SAMPLE_FLOAT, LS_BINDING_COMPARISON_SAMPLER);
  assert_null(pipeline(d, sample_f32, pl));
  expect_error("'s' (@group(0) @binding(1)) is a sampler but the layout's entry is 'comparison "
               "sampler'");
  ls_pipeline_layout_release(pl);

  /* textureGather on a u32 texture: layout "auto" makes the sampler
   * "filtering" and the texture "uint", which WebGPU rejects; a
   * non-filtering layout entry makes it valid */
  assert_null(pipeline(d, gather_u32, NULL));
  expect_error("has sampleType \"uint\"");
  pl = layout3(d, LS_SAMPLE_UINT, LS_BINDING_NON_FILTERING_SAMPLER);
  p = pipeline(d, gather_u32, pl);
  assert_non_null(p);
  ls_compute_pipeline_release(p);
  ls_pipeline_layout_release(pl);

  /* layout "auto": an f32 texture read with a sampler is "float", so an
   * unfilterable r32float view does not fit it */
  p = pipeline(d, sample_f32, NULL);
  assert_non_null(p);
  expect_no_error();
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){2, 2, 1};
  td.format = LS_FORMAT_R32FLOAT;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING;
  ls_texture *t = ls_device_create_texture(d, &td);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_buffer_desc bd = {.size = 64, .usage = LS_BUFFER_USAGE_STORAGE, .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  ls_sampler *s = sampler(d, LS_FILTER_LINEAR, LS_ADDRESS_REPEAT, LS_COMPARE_UNDEFINED);
  ls_bind_group_entry be[3];
  memset(be, 0, sizeof be);
  be[0].binding = 0;
  be[0].texture_view = v;
  be[1].binding = 1;
  be[1].sampler = s;
  be[2].binding = 2;
  be[2].buffer = b;
  be[2].size = LS_WHOLE_SIZE;
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3}));
  expect_error("format r32float of texture '(unlabelled)' is not compatible with sampleType "
               "\"float\"");
  ls_sampler_release(s);
  ls_buffer_release(b);
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* Runs code (its bindings: 0 texture, 1 sampler, 2 storage) with layout
 * "auto" on `groups` workgroups and returns n words of the storage buffer
 * in out; with in, the buffer starts as in's n words (else zeros). */
static void run_sampling_io(ls_device *d, const char *code, ls_texture_view *v, ls_sampler *s,
                            const uint32_t *in, uint32_t *out, size_t n, uint32_t groups) {
  ls_compute_pipeline *p = pipeline(d, code, NULL);
  assert_non_null(p);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_buffer_desc bd = {.size = n * 4,
                       .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST,
                       .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  if (in) assert_int_equal(ls_queue_write_buffer(d, b, 0, in, n * 4), LS_OK);
  ls_bind_group_entry be[3];
  memset(be, 0, sizeof be);
  be[0].binding = 0;
  be[0].texture_view = v;
  be[1].binding = 1;
  be[1].sampler = s;
  be[2].binding = 2;
  be[2].buffer = b;
  be[2].size = LS_WHOLE_SIZE;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
  assert_non_null(g);
  assert_int_equal(tu_dispatch(d, p, g, groups, 1), LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, n * 4), LS_OK);
  expect_no_error();
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
}

static void run_sampling(ls_device *d, const char *code, ls_texture_view *v, ls_sampler *s,
                         uint32_t *out, size_t n) {
  run_sampling_io(d, code, v, s, NULL, out, n, 1);
}

static float f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* A 4x1 rgba8unorm texture with red 0, 51, 102, 255 (0, 0.2, 0.4, 1). */
static ls_texture *red_row(ls_device *d, uint32_t levels) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){4, 1, 1};
  td.format = LS_FORMAT_RGBA8UNORM;
  td.mip_level_count = levels;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  ls_texture *t = ls_device_create_texture(d, &td);
  assert_non_null(t);
  const uint8_t px[16] = {0, 0, 0, 255, 51, 0, 0, 255, 102, 0, 0, 255, 255, 0, 0, 255};
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, 16, 1};
  ls_extent3d e = {4, 1, 1};
  assert_int_equal(ls_queue_write_texture(d, &dst, px, 16, &lay, &e), LS_OK);
  if (levels > 1) { /* level 1: 2x1, red 0.6 and 0.8 (153, 204) */
    const uint8_t l1[8] = {153, 0, 0, 255, 204, 0, 0, 255};
    ls_texel_copy_texture_info d1 = {t, 1, {0, 0, 0}, LS_ASPECT_ALL};
    ls_texel_copy_buffer_layout lay1 = {0, 8, 1};
    ls_extent3d e1 = {2, 1, 1};
    assert_int_equal(ls_queue_write_texture(d, &d1, l1, 8, &lay1, &e1), LS_OK);
  }
  return t;
}

static const char *red_at =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 8>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let u = array(0.375, 0.5, -0.125, 1.125, 0.0625, 0.9375, -0.3125, 2.375);\n"
    "  for (var i = 0; i < 8; i++) { o[i] = textureSampleLevel(t, s, vec2f(u[i], 0.5), 0.0).r; }\n"
    "}\n";

/* Texel coordinates u * 4: 1.5, 2, -0.5, 4.5, 0.25, 3.75, -1.25, 9.5. */
static void test_address_and_filter(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture *t = red_row(d, 1);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  const float r[4] = {0.0f, 51.0f / 255, 102.0f / 255, 1.0f};
  struct {
    ls_filter_mode f;
    ls_address_mode a;
    float want[8];
  } rows[] = {
      /* nearest: floor(u * 4) = 1, 2, -1, 4, 0, 3, -2, 9 */
      {LS_FILTER_NEAREST, LS_ADDRESS_CLAMP_TO_EDGE, {r[1], r[2], r[0], r[3], r[0], r[3], r[0], r[3]}},
      /* repeat: -1 -> 3, 4 -> 0, -2 -> 2, 9 -> 1 */
      {LS_FILTER_NEAREST, LS_ADDRESS_REPEAT, {r[1], r[2], r[3], r[0], r[0], r[3], r[2], r[1]}},
      /* mirror-repeat, (n - 1) - mirror((i mod 2n) - n) with mirror(m) = m
       * or -(1 + m): -1 -> 3 - mirror(3) = 0, 4 -> 3 - mirror(0) = 3,
       * -2 -> 3 - mirror(2) = 1, 9 -> 3 - mirror(-3) = 1 */
      {LS_FILTER_NEAREST, LS_ADDRESS_MIRROR_REPEAT, {r[1], r[2], r[0], r[3], r[0], r[3], r[1], r[1]}},
      /* linear, clamp: u * 4 - 0.5 = 1, 1.5, -1, 4, -0.25, 3.25, -1.75, 9:
       * texel 1; halfway 1..2; texel 0 (both clamp); texel 3; 0 and 1 at 0.75 /
       * 0.25 -> clamp(-1) = 0 and 0: 0; 3 and 4(->3): 1; -2, -1 -> 0; 9 -> 3 */
      {LS_FILTER_LINEAR, LS_ADDRESS_CLAMP_TO_EDGE,
       {r[1], 0.5f * r[1] + 0.5f * r[2], r[0], r[3], r[0], r[3], r[0], r[3]}},
      /* linear, repeat: -1 -> 3 with 0 (weight 0) gives texel 3 = 1; 4 -> 0;
       * -0.25: texels -1 (3) and 0, weights 0.25 and 0.75: 0.25; 3.25: texels 3
       * and 4 (0), weights 0.75 and 0.25: 0.75; -1.75: texels -2 (2) and -1
       * (3), weights 0.75 and 0.25: 0.3 + 0.25; 9: texel 9 -> 1 */
      {LS_FILTER_LINEAR, LS_ADDRESS_REPEAT,
       {r[1], 0.5f * r[1] + 0.5f * r[2], r[3], r[0], 0.25f * r[3] + 0.75f * r[0],
        0.75f * r[3] + 0.25f * r[0], 0.75f * r[2] + 0.25f * r[3], r[1]}},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ls_sampler *s = sampler(d, rows[i].f, rows[i].a, LS_COMPARE_UNDEFINED);
    uint32_t out[8];
    run_sampling(d, red_at, v, s, out, 8);
    for (int k = 0; k < 8; k++) {
      if (f32(out[k]) != rows[i].want[k] &&
          !(f32(out[k]) - rows[i].want[k] < 1e-6f && rows[i].want[k] - f32(out[k]) < 1e-6f))
        fprintf(stderr, "row %zu u[%d]: got %.9g want %.9g\n", i, k, (double)f32(out[k]),
                (double)rows[i].want[k]);
      assert_true(f32(out[k]) - rows[i].want[k] < 1e-6f && rows[i].want[k] - f32(out[k]) < 1e-6f);
    }
    ls_sampler_release(s);
  }
  ls_texture_view_release(v);
  ls_texture_release(t);
  tu_free_env(&e);
}

static const char *red_levels =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 6>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let lv = array(0.0, 0.5, 0.5001, 0.25, 1.0, 7.0);\n"
    "  for (var i = 0; i < 6; i++) { o[i] = textureSampleLevel(t, s, vec2f(0.125, 0.5), lv[i]).r; }\n"
    "}\n";

/* u = 0.125: texel 0 of level 0 (red 0), texel 0 of level 1 (red 0.6). */
static void test_mip_levels(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture *t = red_row(d, 2);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_sampler_desc sd = LS_SAMPLER_DESC_DEFAULT;
  ls_sampler *s = ls_device_create_sampler(d, &sd);
  uint32_t out[6];
  run_sampling(d, red_levels, v, s, out, 6);
  /* nearest mipmap: ceil(d + 0.5) - 1 rounds 0.5 down to level 0 and 0.5001
   * up to 1; 0.25 -> 0; 1 -> 1; 7 -> clamped to the last level, 1 */
  const float l1 = 153.0f / 255;
  const float want_nearest[6] = {0.0f, 0.0f, l1, 0.0f, l1, l1};
  for (int k = 0; k < 6; k++) assert_true(f32(out[k]) == want_nearest[k]);
  ls_sampler_release(s);
  /* linear mipmap: (1 - frac) * level 0 + frac * level 1 */
  sd.mipmap_filter = LS_FILTER_LINEAR;
  s = ls_device_create_sampler(d, &sd);
  run_sampling(d, red_levels, v, s, out, 6);
  const float want_linear[6] = {0.0f, 0.5f * l1, 0.5001f * l1, 0.25f * l1, l1, l1};
  for (int k = 0; k < 6; k++) {
    const float diff = f32(out[k]) - want_linear[k];
    assert_true(diff < 1e-6f && diff > -1e-6f);
  }
  ls_sampler_release(s);
  /* lodMinClamp 1: every level reads level 1 */
  sd.mipmap_filter = LS_FILTER_NEAREST;
  sd.lod_min_clamp = 1.0f;
  s = ls_device_create_sampler(d, &sd);
  run_sampling(d, red_levels, v, s, out, 6);
  for (int k = 0; k < 6; k++) assert_true(f32(out[k]) == l1);
  ls_sampler_release(s);
  ls_texture_view_release(v);
  ls_texture_release(t);
  tu_free_env(&e);
}

static const char *cube_faces =
    "@group(0) @binding(0) var t: texture_cube<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 8>;\n"
    "fn face(c: texture_cube<f32>, d: vec3f) -> f32 { return textureSampleLevel(c, s, d, 0.0).r; }\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  o[0] = face(t, vec3f(1.0, 0.2, -0.3));\n"
    "  o[1] = face(t, vec3f(-2.0, 1.5, 1.9));\n"
    "  o[2] = face(t, vec3f(0.1, 0.9, -0.2));\n"
    "  o[3] = face(t, vec3f(0.4, -3.0, 2.0));\n"
    "  o[4] = face(t, vec3f(-0.5, 0.25, 0.75));\n"
    "  o[5] = face(t, vec3f(0.0, 0.0, -1.0));\n"
    "  o[6] = f32(textureDimensions(t).x);\n"
    "  o[7] = f32(textureNumLevels(t));\n"
    "}\n";

/* A 1x1 cube whose face f has red f * 51 / 255: the major axis picks it. */
static void test_cube_faces(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){1, 1, 6};
  td.format = LS_FORMAT_RGBA8UNORM;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  ls_texture *t = ls_device_create_texture(d, &td);
  uint8_t px[24];
  memset(px, 0, sizeof px);
  for (int f = 0; f < 6; f++) px[4 * f] = (uint8_t)(51 * f);
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, 4, 1};
  ls_extent3d ext = {1, 1, 6};
  assert_int_equal(ls_queue_write_texture(d, &dst, px, 24, &lay, &ext), LS_OK);
  ls_texture_view_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.dimension = LS_VIEW_DIMENSION_CUBE;
  ls_texture_view *v = ls_texture_create_view(t, &vd);
  assert_non_null(v);
  /* nearest: a linear filter on a 1x1 face would blend in the neighbours */
  ls_sampler *s = sampler(d, LS_FILTER_NEAREST, LS_ADDRESS_CLAMP_TO_EDGE, LS_COMPARE_UNDEFINED);
  uint32_t out[8];
  run_sampling(d, cube_faces, v, s, out, 8);
  /* +x, -x, +y, -y, +z, -z */
  for (int f = 0; f < 6; f++) assert_true(f32(out[f]) == (float)(51 * f) / 255.0f);
  assert_true(f32(out[6]) == 1.0f);
  assert_true(f32(out[7]) == 1.0f);
  ls_sampler_release(s);
  ls_texture_view_release(v);
  ls_texture_release(t);
  tu_free_env(&e);
}

static const char *handles =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 2>;\n"
    "fn g(tt: texture_2d<f32>, ss: sampler) -> f32 {\n"
    "  _ = tt;\n"
    "  _ = ss;\n"
    "  return textureSampleLevel(tt, ss, vec2f(0.5), 0.0).r;\n"
    "}\n"
    "fn f(tt: texture_2d<f32>, ss: sampler) -> f32 { return g(tt, ss) + f32(textureDimensions(tt).x); }\n"
    "@compute @workgroup_size(1) fn main() { o[0] = f(t, s); o[1] = g(t, s); }\n";

static const char *let_handles =
    "requires texture_and_sampler_let;\n"
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 2>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let tt = t;\n"
    "  let ss = s;\n"
    "  o[0] = textureSampleLevel(tt, ss, vec2f(0.5), 0.0).r + f32(textureDimensions(tt).x);\n"
    "  o[1] = textureLoad(tt, vec2u(3u, 0u), 0).r;\n"
    "}\n";

static const char *phony_only =
    "@group(0) @binding(0) var t: texture_2d<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 2>;\n"
    "@compute @workgroup_size(1) fn main() { _ = t; _ = s; o[0] = 1.0; }\n";

/* Handle parameters through two calls, lets of handles, and `_ = handle`
 * (a static use: the binding is in the layout). u = 0.5: texel 2 of the red row, 0.4; plus
 * its width 4. */
static void test_handle_params(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture *t = red_row(d, 1);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_sampler *s = sampler(d, LS_FILTER_NEAREST, LS_ADDRESS_CLAMP_TO_EDGE, LS_COMPARE_UNDEFINED);
  uint32_t out[2];
  run_sampling(d, handles, v, s, out, 2);
  assert_true(f32(out[0]) == 102.0f / 255 + 4.0f);
  assert_true(f32(out[1]) == 102.0f / 255);
  /* the same through lets (the texture_and_sampler_let language feature);
   * texel 3 is red 1 */
  run_sampling(d, let_handles, v, s, out, 2);
  assert_true(f32(out[0]) == 102.0f / 255 + 4.0f);
  assert_true(f32(out[1]) == 1.0f);
  /* the phony assignments alone put t and s in layout "auto": binding
   * only the buffer is an error */
  ls_compute_pipeline *p = pipeline(d, phony_only, NULL);
  assert_non_null(p);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_buffer_desc bd = {.size = 8, .usage = LS_BUFFER_USAGE_STORAGE, .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  ls_bind_group_entry be;
  memset(&be, 0, sizeof be);
  be.binding = 2;
  be.buffer = b;
  be.size = LS_WHOLE_SIZE;
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1}));
  assert_int_equal(nerrors, 1);
  nerrors = 0;
  run_sampling(d, phony_only, v, s, out, 2);
  assert_true(f32(out[0]) == 1.0f);
  ls_buffer_release(b);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
  ls_sampler_release(s);
  ls_texture_view_release(v);
  ls_texture_release(t);
  tu_free_env(&e);
}

static const char *array_index =
    "@group(0) @binding(0) var t: texture_2d_array<f32>;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 4>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  var big = 0x80000000u;\n"
    "  var neg = -5;\n"
    "  var one = 1u;\n"
    "  o[0] = textureSampleLevel(t, s, vec2f(0.5), big, 0.0).r;\n"
    "  o[1] = textureSampleLevel(t, s, vec2f(0.5), neg, 0.0).r;\n"
    "  o[2] = textureSampleLevel(t, s, vec2f(0.5), one, 0.0).r;\n"
    "  o[3] = textureGather(0, t, s, vec2f(0.5), big).x;\n"
    "}\n";

/* The array index is clamped to [0, layers - 1] in its own type: u32
 * 2^31 is past the last layer (not a negative i32), -5 before the first.
 * Layers of a 1x1x3 rgba8unorm array: red 0, 0.2, 0.4. */
static void test_array_index_clamp(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){1, 1, 3};
  td.format = LS_FORMAT_RGBA8UNORM;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  ls_texture *t = ls_device_create_texture(d, &td);
  const uint8_t px[12] = {0, 0, 0, 255, 51, 0, 0, 255, 102, 0, 0, 255};
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, 4, 1};
  ls_extent3d ext = {1, 1, 3};
  assert_int_equal(ls_queue_write_texture(d, &dst, px, 12, &lay, &ext), LS_OK);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_sampler *s = sampler(d, LS_FILTER_LINEAR, LS_ADDRESS_CLAMP_TO_EDGE, LS_COMPARE_UNDEFINED);
  uint32_t out[4];
  run_sampling(d, array_index, v, s, out, 4);
  assert_true(f32(out[0]) == 102.0f / 255);
  assert_true(f32(out[1]) == 0.0f);
  assert_true(f32(out[2]) == 51.0f / 255);
  assert_true(f32(out[3]) == 102.0f / 255);
  ls_sampler_release(s);
  ls_texture_view_release(v);
  ls_texture_release(t);
  tu_free_env(&e);
}

static const char *compare_clamp =
    "@group(0) @binding(0) var t: texture_depth_2d;\n"
    "@group(0) @binding(1) var s: sampler_comparison;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 4>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let refs = array(1.5, 1.0, 0.99, -3.0);\n"
    "  for (var i = 0; i < 4; i++) { o[i] = textureSampleCompareLevel(t, s, vec2f(0.5), refs[i]); }\n"
    "}\n";

/* A depth16unorm texel of 65535 (depth 1.0) under "less-equal": depth_ref
 * 1.5 is clamped to 1 and passes (1 <= 1; unclamped it would fail), 1.0,
 * 0.99 and -3 (clamped to 0) pass. Under "greater" all four fail: none of
 * 1, 1, 0.99, 0 is above 1. */
static void test_compare_clamp(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){1, 1, 1};
  td.format = LS_FORMAT_DEPTH16UNORM;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  ls_texture *t = ls_device_create_texture(d, &td);
  assert_non_null(t);
  const uint16_t px[2] = {65535, 0};
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, 256, 1};
  ls_extent3d ext = {1, 1, 1};
  assert_int_equal(ls_queue_write_texture(d, &dst, px, 2, &lay, &ext), LS_OK);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_sampler *s = sampler(d, LS_FILTER_NEAREST, LS_ADDRESS_CLAMP_TO_EDGE, LS_COMPARE_LESS_EQUAL);
  uint32_t out[4];
  run_sampling(d, compare_clamp, v, s, out, 4);
  for (int k = 0; k < 4; k++) assert_true(f32(out[k]) == 1.0f);
  ls_sampler_release(s);
  s = sampler(d, LS_FILTER_NEAREST, LS_ADDRESS_CLAMP_TO_EDGE, LS_COMPARE_GREATER);
  run_sampling(d, compare_clamp, v, s, out, 4);
  for (int k = 0; k < 4; k++) assert_true(f32(out[k]) == 0.0f);
  ls_sampler_release(s);
  ls_texture_view_release(v);
  ls_texture_release(t);
  tu_free_env(&e);
}

/* The fast path (sample.c, smp_fast_2d) takes a one-level view; the same
 * texels as level 0 of a two-level view take the general path and, with a
 * level of detail of 0 or less and nearest mipmap filtering, read level 0
 * only. The two must agree bit for bit on every lane, the first-texel rows
 * the observers get included, for hostile coordinates too (NaN, infinities,
 * far outside, exactly on texel centres), offsets, array indices out of
 * range and lanes that are not live. */
static uint32_t lcg_next(uint32_t *x) {
  *x = *x * 1664525u + 1013904223u;
  return *x >> 8;
}

static void test_fast_path_agrees(void **state) {
  (void)state;
  enum { TW = 13, TH = 7, TL = 3, W = 32 };
  static uint8_t texels[TW * TH * TL * 4];
  uint32_t seed = 12345;
  for (size_t i = 0; i < sizeof texels; i++) texels[i] = (uint8_t)lcg_next(&seed);
  /* NaN, infinities, far away, zeros, texel centres (u - 0.5 whole), texel
   * edges, just off them, a floor below -2^23 and above 2^23 */
  const float special[] = {NAN,         INFINITY,    -INFINITY,   1.0e20f,      -1.0e20f,
                           -0.0f,       0.0f,        1.0f,        0.5f / TW,    1.5f / TH,
                           2.0f,        -1.0f,       -0.5f / TW,  -2.5f / TH,   3.0f / TW,
                           0.50001f / TW, 0.49999f / TW, -1.0e7f, 1.0e7f,       1.0e9f / TW,
                           -1.0e9f / TW, 0x1.3b13bp-5f /* 13 u - 0.5 = -2^-25 */,
                           0x1.249248p-4f /* 7 v - 0.5 = -2^-25 */};
  const ls_texture_format formats[2] = {LS_FORMAT_RGBA8UNORM, LS_FORMAT_BGRA8UNORM};
  const unsigned dims[2] = {IR_TEXDIM_2D, IR_TEXDIM_2D_ARRAY};
  unsigned fast_runs = 0;
  for (int f = 0; f < 2; f++)
    for (int dm = 0; dm < 2; dm++)
      for (int round = 0; round < 60; round++) {
        vm_texture one;
        memset(&one, 0, sizeof one);
        one.data = texels;
        one.format = (uint32_t)formats[f];
        one.texel_bytes = 4;
        one.levels = 1;
        one.layers = dims[dm] == IR_TEXDIM_2D ? 1 : TL;
        one.samples = 1;
        one.level[0].w = TW;
        one.level[0].h = TH;
        one.level[0].d = one.layers;
        one.level[0].row = TW * 4;
        one.level[0].slice = TW * TH * 4;
        vm_texture two = one;
        two.levels = 2;
        two.level[1] = one.level[0];
        vm_sampler smp = {{LS_ADDRESS_CLAMP_TO_EDGE, LS_ADDRESS_CLAMP_TO_EDGE, LS_ADDRESS_CLAMP_TO_EDGE},
                          LS_FILTER_LINEAR, LS_FILTER_LINEAR, LS_FILTER_NEAREST, 0, 0.0f, 32.0f};
        ir_sample is;
        memset(&is, 0, sizeof is);
        is.kind = IR_SMP_LEVEL;
        is.flags = round & 1 ? IR_SMPF_INDEX_U32 : 0;
        is.offset[0] = (int8_t)((int)(lcg_next(&seed) % 16) - 8);
        is.offset[1] = (int8_t)((int)(lcg_next(&seed) % 16) - 8);
        if (round < 10) is.offset[0] = is.offset[1] = 0;
        uint32_t in[IR_SMPIN_COUNT * W];
        memset(in, 0, sizeof in);
        for (unsigned l = 0; l < W; l++) {
          for (unsigned k = 0; k < 2; k++) {
            const uint32_t r = lcg_next(&seed);
            const float v = r % 3 == 0 ? special[r / 5 % (sizeof special / sizeof special[0])]
                                       : -0.25f + 1.5f * (float)(r % 100000) / 100000.0f;
            in[(IR_SMPIN_COORD + k) * W + l] = vm_f2u_bits(v);
          }
          in[IR_SMPIN_INDEX * W + l] = lcg_next(&seed) % 7 - 2; /* -2 .. 4 as i32; huge as u32 */
          in[IR_SMPIN_LEVEL * W + l] = vm_f2u_bits(l % 3 ? 0.0f : -2.5f);
        }
        const uint64_t live = round % 3 ? UINT64_C(0xffffffff) : ((uint64_t)lcg_next(&seed) << 8 | lcg_next(&seed)) & 0xffffffffu;
        uint32_t d1[4 * W], d2[4 * W], a1[4 * W], a2[4 * W];
        for (unsigned i = 0; i < 4 * W; i++) d1[i] = d2[i] = a1[i] = a2[i] = 0xdeadbeefu + i;
        vm_tex_sample(&one, dims[dm], &smp, &is, d1, in, live, W, a1);
        vm_tex_sample(&two, dims[dm], &smp, &is, d2, in, live, W, a2);
        assert_memory_equal(d1, d2, sizeof d1);
        assert_memory_equal(a1, a2, sizeof a1);
        /* the comparison is not vacuous: the lanes got filtered values */
        for (unsigned l = 0; l < W; l++)
          if (live >> l & 1) {
            const float a = vm_bits_f(d1[3 * W + l]);
            assert_true(a >= 0.0f && a <= 1.0f);
            fast_runs++;
          }
      }
  assert_true(fast_runs > 2000);
}

/* The interpreter's lane kernel for the same sampling (vm_sample.inc, one
 * copy per width and instruction set) against the general path, through
 * the API: the same texels as a one-level texture (the kernel) and as
 * level 0 of a two-level one (the general path, which a level of detail of
 * 0 and nearest mipmap filtering keep on level 0), at every subgroup
 * width. Each lane reads its coordinates, array index and whether it
 * samples from the buffer and writes its result there, so that lanes out
 * of range (NaN, infinities, far away: the kernel hands them to the
 * general path) sit beside lanes in range and inactive ones in one
 * subgroup. tests/isa.cmake runs this file under each instruction set
 * the CPU has. */
enum { LK_TW = 13, LK_TH = 7, LK_TL = 3, LK_N = 256 };

static ls_texture *lk_texture(ls_device *d, ls_texture_format fmt, uint32_t layers,
                              uint32_t levels, const uint8_t *texels) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){LK_TW, LK_TH, layers};
  td.format = fmt;
  td.mip_level_count = levels;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  ls_texture *t = ls_device_create_texture(d, &td);
  assert_non_null(t);
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, LK_TW * 4, LK_TH};
  ls_extent3d ext = {LK_TW, LK_TH, layers};
  assert_int_equal(ls_queue_write_texture(d, &dst, texels, (size_t)LK_TW * LK_TH * layers * 4, &lay, &ext), LS_OK);
  return t;
}

static void test_lane_kernel_agrees(void **state) {
  (void)state;
  static uint8_t texels[LK_TW * LK_TH * LK_TL * 4];
  uint32_t seed = 777;
  for (size_t i = 0; i < sizeof texels; i++) texels[i] = (uint8_t)lcg_next(&seed);
  const float special[] = {NAN, INFINITY, -INFINITY, 1.0e20f, -1.0e20f, -0.0f, 0.0f, 1.0f,
                           0.5f / LK_TW, 1.5f / LK_TH, -1.0f, -2.5f / LK_TH, 3.0f / LK_TW,
                           0.50001f / LK_TW, 0.49999f / LK_TW, -1.0e7f, 1.0e7f,
                           1.0e9f / LK_TW, -1.0e9f / LK_TW, 1.0e8f, -1.0e8f,
                           /* u - 0.5 = -2^-25 on x (13 texels) and on y (7): the
                            * weight f - floor(f) rounds to 1, which counts as 0
                            * (at the clamped edge, where both texels are one) */
                           0x1.3b13bp-5f, 0x1.249248p-4f};
  /* texture type, array index expression (with its comma), offset */
  const char *const kinds[4][3] = {
      {"texture_2d<f32>", "", ""},
      {"texture_2d<f32>", "", ", vec2i(-3, 5)"},
      {"texture_2d_array<f32>", "bitcast<i32>(c.z), ", ""},
      {"texture_2d_array<f32>", "bitcast<u32>(c.z), ", ", vec2i(7, -8)"},
  };
  const ls_texture_format formats[2] = {LS_FORMAT_RGBA8UNORM, LS_FORMAT_BGRA8UNORM};
  const uint32_t widths[4] = {8, 16, 32, 64};
  unsigned filtered = 0, sampled = 0;
  for (int wi = 0; wi < 4; wi++) {
    ls_adapter_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.threads = 1;
    o.subgroup_size = widths[wi];
    char err[256];
    ls_adapter *a = ls_adapter_create(&o, err, sizeof err);
    assert_non_null(a);
    ls_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.struct_size = sizeof dd;
    ls_status st;
    ls_device *d = ls_adapter_create_device(a, &dd, &st, err, sizeof err);
    assert_non_null(d);
    ls_device_set_error_callback(d, tu_on_error, NULL);
    nerrors = 0;
    ls_sampler_desc sd = LS_SAMPLER_DESC_DEFAULT;
    sd.mag_filter = sd.min_filter = LS_FILTER_LINEAR;
    sd.mipmap_filter = LS_FILTER_NEAREST;
    ls_sampler *s = ls_device_create_sampler(d, &sd);
    assert_non_null(s);
    for (int k = 0; k < 4; k++)
      for (int f = 0; f < 2; f++) {
        const uint32_t layers = k >= 2 ? LK_TL : 1;
        char code[1024];
        snprintf(code, sizeof code,
                 "@group(0) @binding(0) var t: %s;\n"
                 "@group(0) @binding(1) var s: sampler;\n"
                 "@group(0) @binding(2) var<storage, read_write> io: array<vec4f>;\n"
                 "@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
                 "  let c = io[g.x];\n"
                 "  var r = vec4f(-7.0);\n"
                 "  if (bitcast<u32>(c.w) %% 4u != 0u) {\n"
                 "    r = textureSampleLevel(t, s, c.xy, %s0.0%s);\n"
                 "  }\n"
                 "  io[g.x] = r;\n"
                 "}\n",
                 kinds[k][0], kinds[k][1], kinds[k][2]);
        uint32_t in[LK_N * 4];
        for (unsigned l = 0; l < LK_N; l++) {
          for (unsigned c = 0; c < 2; c++) {
            const uint32_t r = lcg_next(&seed);
            const float v = r % 3 == 0 ? special[r / 5 % (sizeof special / sizeof special[0])]
                                       : -0.25f + 1.5f * (float)(r % 100000) / 100000.0f;
            in[4 * l + c] = vm_f2u_bits(v);
          }
          in[4 * l + 2] = lcg_next(&seed) % 7 - 2; /* -2 .. 4 as i32; huge as u32 */
          /* whole subgroups off, or every lane on, or a mix */
          const unsigned grp = l / 8 % 4;
          in[4 * l + 3] = grp == 0 ? 0 : grp == 1 ? 1 : lcg_next(&seed);
        }
        uint32_t fast[LK_N * 4], slow[LK_N * 4];
        memcpy(fast, in, sizeof in);
        memcpy(slow, in, sizeof in);
        for (int pass = 0; pass < 2; pass++) {
          ls_texture *t = lk_texture(d, formats[f], layers, pass ? 2 : 1, texels);
          ls_texture_view *v = ls_texture_create_view(t, NULL); /* 2d, or 2d-array */
          assert_non_null(v);
          uint32_t *const io = pass ? slow : fast;
          run_sampling_io(d, code, v, s, io, io, LK_N * 4, LK_N / 64);
          ls_texture_view_release(v);
          ls_texture_release(t);
        }
        assert_memory_equal(fast, slow, sizeof fast);
        for (unsigned l = 0; l < LK_N; l++)
          if (in[4 * l + 3] % 4) {
            sampled++;
            const float alpha = vm_bits_f(fast[4 * l + 3]);
            filtered += alpha > 0.0f && alpha < 1.0f && alpha != vm_bits_f(fast[4 * l]);
          }
      }
    ls_sampler_release(s);
    ls_device_release(d);
    ls_adapter_release(a);
  }
  /* not vacuous: most lanes sampled, and blended between texels */
  assert_true(sampled > 4 * 8 * LK_N / 2);
  assert_true(filtered > sampled / 2);
}

/* The lane kernel decodes an 8-bit unorm channel as (float)(code * (1.0 /
 * 255.0)) in double, or with FMA as the float product corrected by its
 * residual, where the general path reads the table of code / 255.0f
 * (texture.c): all three must agree on all 256 codes. */
static void test_unorm8_product(void **state) {
  (void)state;
  vm_texture t;
  memset(&t, 0, sizeof t);
  t.format = LS_FORMAT_RGBA8UNORM;
  t.texel_bytes = 4;
  t.samples = 1;
  int bgra = -1;
  const float *dec = vm_tex_unorm8x4(&t, &bgra);
  assert_non_null(dec);
  assert_int_equal(bgra, 0);
  for (int i = 0; i < 256; i++) {
    const float product = (float)((double)i * (1.0 / 255.0));
    assert_true(vm_f2u_bits(product) == vm_f2u_bits(dec[i]));
    assert_true(dec[i] == (float)i / 255.0f);
    /* the FMA variants' form: the float product, corrected once */
    const float r = 1.0f / 255.0f, t = (float)i * r;
    const float corrected = fmaf(fmaf(-t, 255.0f, (float)i), r, t);
    assert_true(vm_f2u_bits(corrected) == vm_f2u_bits(dec[i]));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_sampler),  cmocka_unit_test(test_bind_groups),
      cmocka_unit_test(test_pipeline_pairs),  cmocka_unit_test(test_address_and_filter),
      cmocka_unit_test(test_mip_levels),      cmocka_unit_test(test_cube_faces),
      cmocka_unit_test(test_handle_params),   cmocka_unit_test(test_array_index_clamp),
      cmocka_unit_test(test_compare_clamp),   cmocka_unit_test(test_fast_path_agrees),
      cmocka_unit_test(test_lane_kernel_agrees), cmocka_unit_test(test_unorm8_product),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
