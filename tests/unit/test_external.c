/*
 * test_external.c — external textures: a texture view imported as the
 * frame of a GPUExternalTexture (ls_device_import_external_texture, with
 * its rules), externalTexture layout entries and bind groups (an external
 * texture counts as 4 sampled textures, 2 samplers and 1 uniform buffer
 * against the per-stage limits), and shaders that read one:
 * textureDimensions, textureLoad and textureSampleBaseClampToEdge, with
 * values worked out from the frame's texels.
 */
#include "unit_api.h"

/* A w x h rgba8unorm frame whose texel (x, y) has red 10 * (x + w y). */
static ls_texture *frame(ls_device *d, uint32_t w, uint32_t h, ls_texture_format f,
                         uint32_t levels) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.size = (ls_extent3d){w, h, 1};
  td.format = f;
  td.mip_level_count = levels;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  td.label = "frame";
  ls_texture *t = ls_device_create_texture(d, &td);
  assert_non_null(t);
  if (f == LS_FORMAT_RGBA8UNORM) {
    uint8_t px[256];
    memset(px, 0, sizeof px);
    for (uint32_t i = 0; i < w * h && i < 64; i++) px[4 * i] = (uint8_t)(10 * i), px[4 * i + 3] = 255;
    ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
    ls_texel_copy_buffer_layout lay = {0, 4 * w, h};
    ls_extent3d ext = {w, h, 1};
    assert_int_equal(ls_queue_write_texture(d, &dst, px, 4 * w * h, &lay, &ext), LS_OK);
  }
  return t;
}

static void test_import(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture *t = frame(d, 4, 2, LS_FORMAT_RGBA8UNORM, 2);
  ls_texture_view_desc vd;
  memset(&vd, 0, sizeof vd);
  ls_texture_view *all = ls_texture_create_view(t, &vd);
  vd.mip_level_count = 1;
  ls_texture_view *one = ls_texture_create_view(t, &vd);
  ls_external_texture_desc xd = {.view = all, .label = "x"};
  assert_null(ls_device_import_external_texture(d, &xd));
  expect_error("importExternalTexture 'x': the view of texture 'frame' is not a 2d view of one "
               "mip level");
  xd.view = NULL;
  assert_null(ls_device_import_external_texture(d, &xd));
  expect_error("no texture view");
  ls_texture *f32 = frame(d, 4, 2, LS_FORMAT_R32FLOAT, 1);
  ls_texture_view *fv = ls_texture_create_view(f32, NULL);
  xd.view = fv;
  assert_null(ls_device_import_external_texture(d, &xd));
  expect_error("is not rgba8unorm, bgra8unorm, their -srgb forms or rgba16float");
  xd.view = one;
  ls_external_texture *x = ls_device_import_external_texture(d, &xd);
  assert_non_null(x);
  expect_no_error();
  /* layout entries: 4 + 4 + 4 + 4 sampled textures fill maxSampledTextures
   * (16), and a fifth external texture is over it */
  ls_bind_group_layout_entry le[5];
  memset(le, 0, sizeof le);
  for (uint32_t i = 0; i < 5; i++) {
    le[i].binding = i;
    le[i].type = LS_BINDING_EXTERNAL_TEXTURE;
  }
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = le, .entry_count = 5}));
  expect_error("20 sampled textures visible to the COMPUTE stage exceed maxSampledTexturesPerShaderStage (16)");
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = le, .entry_count = 1});
  assert_non_null(l);
  ls_bind_group_entry be;
  memset(&be, 0, sizeof be);
  be.external_texture = x;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  assert_non_null(g);
  expect_no_error();
  ls_bind_group_release(g);
  /* both at once is refused; a texture view alone is bound as a one-plane
   * frame (spec/index.bs createBindGroup: an externalTexture entry takes a
   * GPUExternalTexture, a GPUTexture or a GPUTextureView) */
  be.texture_view = one;
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1}));
  expect_error("binding 0 (externalTexture): needs an external texture or a texture view, and "
               "nothing else");
  be.external_texture = NULL;
  assert_non_null(g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1}));
  expect_no_error();
  ls_bind_group_release(g);
  be.texture_view = all; /* two mip levels */
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1}));
  expect_error("the view of texture 'frame' has more than one mip level");
  be.texture_view = fv;
  assert_null(ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1}));
  expect_error("is not rgba8unorm, bgra8unorm or rgba16float");
  ls_bind_group_layout_release(l);
  ls_external_texture_release(x);
  ls_texture_view_release(fv);
  ls_texture_release(f32);
  ls_texture_view_release(one);
  ls_texture_view_release(all);
  ls_texture_release(t);
  tu_free_env(&e);
}

static const char *kernel =
    "@group(0) @binding(0) var x: texture_external;\n"
    "@group(0) @binding(1) var s: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 8>;\n"
    "fn red(t: texture_external, c: vec2u) -> f32 { return textureLoad(t, c).r; }\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let dims = textureDimensions(x);\n"
    "  o[0] = f32(dims.x);\n"
    "  o[1] = f32(dims.y);\n"
    "  o[2] = red(x, vec2u(3u, 1u));\n"
    "  o[3] = textureLoad(x, vec2i(1, 0)).a;\n"
    "  o[4] = textureSampleBaseClampToEdge(x, s, vec2f(0.375, 0.5)).r;\n"
    "  o[5] = textureSampleBaseClampToEdge(x, s, vec2f(-1.0, 0.25)).r;\n"
    "}\n";

/* The 4x2 frame: red(x, y) = 10 (x + 4y) / 255. (3, 1) is 70 / 255; a
 * linear sample at (0.375, 0.5): u * 4 - 0.5 = 1 (texel 1, weight 0),
 * v * 2 - 0.5 = 0.5 (rows 0 and 1 halved): (10 + 50) / 2 / 255; at
 * (-1, 0.25) the clamp to half a texel gives u = 0.125, v = 0.25: texel
 * (0, 0), red 0. */
static void test_read(void **state) {
  (void)state;
  env e = tu_make_env(0, NULL);
  ls_device *d = e.device;
  ls_texture *t = frame(d, 4, 2, LS_FORMAT_RGBA8UNORM, 1);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_external_texture_desc xd = {.view = v, .label = "x"};
  ls_external_texture *x = ls_device_import_external_texture(d, &xd);
  ls_texture_view_release(v);
  ls_compute_pipeline *p = tu_pipeline(d, kernel, "ext.wgsl", NULL);
  assert_non_null(p);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_sampler_desc smd = LS_SAMPLER_DESC_DEFAULT;
  smd.mag_filter = smd.min_filter = LS_FILTER_LINEAR;
  ls_sampler *s = ls_device_create_sampler(d, &smd);
  ls_buffer_desc bd = {.size = 32, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC, .label = "o"};
  ls_buffer *b = ls_device_create_buffer(d, &bd);
  ls_bind_group_entry be[3];
  memset(be, 0, sizeof be);
  be[0].binding = 0;
  be[0].external_texture = x;
  be[1].binding = 1;
  be[1].sampler = s;
  be[2].binding = 2;
  be[2].buffer = b;
  be[2].size = LS_WHOLE_SIZE;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
  assert_non_null(g);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_OK);
  float out[8];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
  expect_no_error();
  assert_true(out[0] == 4.0f && out[1] == 2.0f);
  assert_true(out[2] == 70.0f / 255);
  assert_true(out[3] == 1.0f);
  const float want4 = 0.5f * (10.0f / 255) + 0.5f * (50.0f / 255);
  assert_true(out[4] - want4 < 1e-6f && want4 - out[4] < 1e-6f);
  assert_true(out[5] == 0.0f);
  /* the same frame bound as a texture view, written to a fresh buffer:
   * the same reads */
  ls_buffer *b2 = ls_device_create_buffer(d, &bd);
  be[0].external_texture = NULL;
  be[0].texture_view = v = ls_texture_create_view(t, NULL);
  be[2].buffer = b2;
  ls_bind_group *gv = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
  ls_texture_view_release(v);
  assert_non_null(gv);
  assert_int_equal(tu_dispatch(d, p, gv, 1, 1), LS_OK);
  float again[8];
  assert_int_equal(ls_queue_read_buffer(d, b2, 0, again, sizeof again), LS_OK);
  expect_no_error();
  assert_memory_equal(again, out, 6 * sizeof(float));
  ls_bind_group_release(gv);
  ls_buffer_release(b2);
  /* the frame's texture destroyed: the submit is refused, nothing reads it */
  ls_texture_destroy(t);
  assert_int_equal(tu_dispatch(d, p, g, 1, 1), LS_VALIDATION);
  expect_error("destroyed");
  ls_texture_release(t);
  ls_bind_group_release(g);
  ls_buffer_release(b);
  ls_sampler_release(s);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
  ls_external_texture_release(x);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_import),
      cmocka_unit_test(test_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
