/*
 * test_multisample.c — multisampled textures: createTexture's rules for
 * sampleCount 4 (RENDER_ATTACHMENT, one level and layer, no storage, a
 * multisampling format), views, layout entries and bind groups with
 * GPUTextureBindingLayout.multisampled, copies refused, and shaders that
 * read one: textureNumSamples, textureDimensions and textureLoad of each
 * sample of a texture nothing has rendered to, which holds zeros (WebGPU
 * zero-initialises every texture; lockstep has no render passes).
 */
#include "unit_api.h"

static ls_texture *ms_texture(ls_device *d, ls_texture_format f, uint32_t usage,
                              uint32_t levels, uint32_t layers) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){4, 2, layers};
  td.format = f;
  td.sample_count = 4;
  td.mip_level_count = levels;
  td.usage = usage;
  td.label = "ms";
  return ls_device_create_texture(d, &td);
}

#define MS_USAGE (LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_RENDER_ATTACHMENT)

static void test_create(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  struct {
    ls_texture_format f;
    uint32_t usage, levels, layers;
    const char *err;
  } rows[] = {
      {LS_FORMAT_RGBA8UNORM, MS_USAGE, 1, 1, NULL},
      {LS_FORMAT_R32FLOAT, MS_USAGE, 1, 1, NULL},
      {LS_FORMAT_DEPTH16UNORM, MS_USAGE, 1, 1, NULL},
      {LS_FORMAT_RGBA8UINT, MS_USAGE, 1, 1, NULL},
      {LS_FORMAT_RGBA8UNORM, LS_TEXTURE_USAGE_TEXTURE_BINDING, 1, 1,
       "sampleCount 4 needs RENDER_ATTACHMENT usage"},
      {LS_FORMAT_RGBA8UNORM, MS_USAGE | LS_TEXTURE_USAGE_STORAGE_BINDING, 1, 1,
       "a multisampled texture cannot have STORAGE_BINDING usage"},
      {LS_FORMAT_RGBA8UNORM, MS_USAGE, 2, 1, "a multisampled texture must have mipLevelCount 1"},
      {LS_FORMAT_RGBA8UNORM, MS_USAGE, 1, 2,
       "a multisampled texture must have depthOrArrayLayers 1"},
      {LS_FORMAT_RGBA32FLOAT, MS_USAGE, 1, 1, "format rgba32float does not support multisampling"},
      {LS_FORMAT_R32UINT, MS_USAGE, 1, 1, "format r32uint does not support multisampling"},
      {LS_FORMAT_RGB9E5UFLOAT, MS_USAGE, 1, 1,
       "format rgb9e5ufloat is not renderable, so it cannot have RENDER_ATTACHMENT usage"},
      {LS_FORMAT_RGBA8SNORM, MS_USAGE, 1, 1, "format rgba8snorm is not renderable"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ls_texture *t = ms_texture(d, rows[i].f, rows[i].usage, rows[i].levels, rows[i].layers);
    if (rows[i].err) {
      assert_null(t);
      expect_error(rows[i].err);
    } else {
      assert_non_null(t);
      expect_no_error();
      ls_texture_release(t);
    }
  }
  /* nothing copies into or out of one */
  ls_texture *t = ms_texture(d, LS_FORMAT_RGBA8UNORM, MS_USAGE | LS_TEXTURE_USAGE_COPY_DST, 1, 1);
  assert_non_null(t);
  uint8_t px[32] = {0};
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, 16, 2};
  ls_extent3d ext = {4, 2, 1};
  assert_int_equal(ls_queue_write_texture(d, &dst, px, sizeof px, &lay, &ext), LS_VALIDATION);
  expect_error("texture 'ms' is multisampled (sampleCount 4); buffer copies need sampleCount 1");
  /* its views are 2d */
  ls_texture_view_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.dimension = LS_VIEW_DIMENSION_2D_ARRAY;
  assert_null(ls_texture_create_view(t, &vd));
  expect_error("a view of a multisampled texture is \"2d\", not \"2d-array\"");
  ls_texture_release(t);
  tu_free_env(&e);
}

static ls_bind_group_layout *ms_layout(ls_device *d, ls_texture_sample_type st, int ms) {
  ls_bind_group_layout_entry le;
  memset(&le, 0, sizeof le);
  le.type = LS_BINDING_SAMPLED_TEXTURE;
  le.sample_type = st;
  le.multisampled = ms;
  return ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
}

static void test_bindings(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  assert_null(ms_layout(d, LS_SAMPLE_FLOAT, 1));
  expect_error("a multisampled texture entry has viewDimension \"2d\" and a sampleType other "
               "than \"float\"");
  ls_bind_group_layout *yes = ms_layout(d, LS_SAMPLE_UNFILTERABLE_FLOAT, 1);
  ls_bind_group_layout *no = ms_layout(d, LS_SAMPLE_UNFILTERABLE_FLOAT, 0);
  assert_non_null(yes);
  assert_non_null(no);
  ls_texture *t = ms_texture(d, LS_FORMAT_RGBA8UNORM, MS_USAGE, 1, 1);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_bind_group_entry be;
  memset(&be, 0, sizeof be);
  be.texture_view = v;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = yes, .entries = &be, .entry_count = 1});
  assert_non_null(g);
  expect_no_error();
  ls_bind_group_release(g);
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = no, .entries = &be, .entry_count = 1}));
  expect_error("texture 'ms' has sampleCount 4, the layout entry is not multisampled");
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_bind_group_layout_release(yes);
  ls_bind_group_layout_release(no);
  tu_free_env(&e);
}

static const char *ms_kernel =
    "@group(0) @binding(0) var tu: texture_multisampled_2d<u32>;\n"
    "@group(0) @binding(1) var td: texture_depth_multisampled_2d;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<u32, 8>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  var acc = 0u;\n"
    "  for (var s = 0u; s < 5u; s++) {\n"
    "    acc += textureLoad(tu, vec2u(3u, 1u), s).w + u32(textureLoad(td, vec2i(1, 1), s) * 10.0);\n"
    "  }\n"
    "  o[0] = acc;\n"
    "  o[1] = textureNumSamples(tu);\n"
    "  o[2] = textureNumSamples(td);\n"
    "  o[3] = textureDimensions(tu).x;\n"
    "  o[4] = textureDimensions(td).y;\n"
    "  o[5] = textureLoad(tu, vec2u(4u, 0u), 0u).x + 7u;\n"
    "}\n";

/* Nothing renders to them, so every sample (and the out-of-bounds sample
 * index 4 and x = 4, which WGSL lets return any texel or zero) reads 0. */
static void test_run(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = tu_pipeline(d, ms_kernel, "ms.wgsl", NULL);
  assert_non_null(p);
  expect_no_error();
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_texture *tu = ms_texture(d, LS_FORMAT_RGBA8UINT, MS_USAGE, 1, 1);
  ls_texture *td = ms_texture(d, LS_FORMAT_DEPTH16UNORM, MS_USAGE, 1, 1);
  ls_texture_view *vu = ls_texture_create_view(tu, NULL), *vdp = ls_texture_create_view(td, NULL);
  ls_buffer_desc bd = {.size = 32, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC, .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  ls_bind_group_entry be[3];
  memset(be, 0, sizeof be);
  be[0].binding = 0;
  be[0].texture_view = vu;
  be[1].binding = 1;
  be[1].texture_view = vdp;
  be[2].binding = 2;
  be[2].buffer = b;
  be[2].size = LS_WHOLE_SIZE;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
  assert_non_null(g);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  uint32_t out[8];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
  expect_no_error();
  const uint32_t want[6] = {0, 4, 4, 4, 2, 7};
  for (int k = 0; k < 6; k++) assert_int_equal(out[k], want[k]);
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_texture_view_release(vu);
  ls_texture_view_release(vdp);
  ls_texture_release(tu);
  ls_texture_release(td);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create),
      cmocka_unit_test(test_bindings),
      cmocka_unit_test(test_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
