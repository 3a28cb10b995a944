/*
 * test_texture.c — textures end to end: createTexture and createView with
 * WebGPU's validation, texture entries of bind group layouts and bind
 * groups, writeTexture and the buffer <-> texture copies, and compute
 * shaders that run textureStore, textureLoad, textureDimensions,
 * textureNumLevels and textureNumLayers. Expected texels follow the WGSL
 * channel transfer functions (§Texel Formats), worked out in the comments.
 */
#include "unit_api.h"

#define TU_ALL                                                                 \
  (LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST |                     \
   LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_STORAGE_BINDING)

static ls_texture *tex(ls_device *d, ls_texture_dimension dim, uint32_t w, uint32_t h,
                       uint32_t layers, ls_texture_format f, uint32_t levels, uint32_t usage) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.dimension = dim;
  td.size = (ls_extent3d){w, h, layers};
  td.format = f;
  td.mip_level_count = levels;
  td.usage = usage;
  td.label = "t";
  return ls_device_create_texture(d, &td);
}

static ls_buffer *buffer(ls_device *d, uint64_t size, uint32_t usage) {
  ls_buffer_desc bd = {.size = size, .usage = usage, .label = "b"};
  return ls_device_create_buffer(d, &bd);
}

/* ---------------------------------------------------------------- formats */

static void test_formats(void **state) {
  (void)state;
  assert_int_equal(ls_texture_format_from_name("rgba8unorm"), LS_FORMAT_RGBA8UNORM);
  assert_int_equal(ls_texture_format_from_name("r32float"), LS_FORMAT_R32FLOAT);
  assert_int_equal(ls_texture_format_from_name("bgra8unorm"), LS_FORMAT_BGRA8UNORM);
  assert_int_equal(ls_texture_format_from_name("bc1-rgba-unorm"), LS_FORMAT_UNDEFINED);
  assert_string_equal(ls_texture_format_name(LS_FORMAT_RGBA16FLOAT), "rgba16float");
  assert_null(ls_texture_format_name(LS_FORMAT_UNDEFINED));
  /* texel block copy footprints (WebGPU's format table) */
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_RGBA8UINT), 4);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_RGBA16FLOAT), 8);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_RGBA32UINT), 16);
  assert_int_equal(ls_texture_format_texel_bytes(LS_FORMAT_R32SINT), 4);
}

/* ----------------------------------------------------------- createTexture */

static void test_create_texture(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_RGBA8UNORM, 3, TU_ALL);
  expect_no_error();
  assert_non_null(t);
  assert_int_equal(ls_texture_get_mip_level_count(t), 3);
  ls_extent3d s;
  ls_texture_get_size(t, &s);
  assert_int_equal(s.width, 4);
  ls_texture_release(t);

  struct {
    ls_texture_dimension dim;
    uint32_t w, h, l, levels, usage;
    ls_texture_format f;
    const char *msg;
  } bad[] = {
      {LS_TEXTURE_DIMENSION_2D, 4, 4, 1, 1, 0, LS_FORMAT_R32FLOAT, "usage is 0"},
      {LS_TEXTURE_DIMENSION_2D, 4, 4, 1, 1, 0x100, LS_FORMAT_R32FLOAT, "unknown bits"},
      {LS_TEXTURE_DIMENSION_2D, 4, 4, 1, 1, LS_TEXTURE_USAGE_RENDER_ATTACHMENT,
       LS_FORMAT_RGB9E5UFLOAT, "is not renderable, so it cannot have RENDER_ATTACHMENT"},
      {LS_TEXTURE_DIMENSION_1D, 4, 1, 1, 1, LS_TEXTURE_USAGE_RENDER_ATTACHMENT, LS_FORMAT_R32FLOAT,
       "a 1d texture cannot have RENDER_ATTACHMENT usage"},
      {LS_TEXTURE_DIMENSION_2D, 0, 4, 1, 1, TU_ALL, LS_FORMAT_R32FLOAT, "zero extent"},
      {LS_TEXTURE_DIMENSION_2D, 4, 4, 1, 1, TU_ALL, LS_FORMAT_UNDEFINED, "not a texture format"},
      /* 1 + floor(log2(4)) = 3 levels at most */
      {LS_TEXTURE_DIMENSION_2D, 4, 3, 1, 4, TU_ALL, LS_FORMAT_R32FLOAT,
       "exceeds the maximum mipLevel count 3"},
      {LS_TEXTURE_DIMENSION_1D, 8, 2, 1, 1, TU_ALL, LS_FORMAT_R32FLOAT, "a 1d texture must have"},
      {LS_TEXTURE_DIMENSION_1D, 8, 1, 1, 2, TU_ALL, LS_FORMAT_R32FLOAT, "maximum mipLevel count 1"},
      {LS_TEXTURE_DIMENSION_1D, 8193, 1, 1, 1, TU_ALL, LS_FORMAT_R32FLOAT, "maxTextureDimension1D"},
      {LS_TEXTURE_DIMENSION_2D, 8193, 1, 1, 1, TU_ALL, LS_FORMAT_R32FLOAT, "maxTextureDimension2D"},
      {LS_TEXTURE_DIMENSION_2D, 4, 4, 257, 1, TU_ALL, LS_FORMAT_R32FLOAT, "maxTextureArrayLayers"},
      {LS_TEXTURE_DIMENSION_3D, 4, 4, 2049, 1, TU_ALL, LS_FORMAT_R32FLOAT, "maxTextureDimension3D"},
      {(ls_texture_dimension)7, 4, 4, 1, 1, TU_ALL, LS_FORMAT_R32FLOAT, "not 1d, 2d or 3d"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_null(tex(d, bad[i].dim, bad[i].w, bad[i].h, bad[i].l, bad[i].f, bad[i].levels,
                    bad[i].usage));
    expect_error(bad[i].msg);
  }
  /* a 3D texture mips over its depth too: 1 + floor(log2(8)) = 4 */
  t = tex(d, LS_TEXTURE_DIMENSION_3D, 2, 2, 8, LS_FORMAT_R32UINT, 4, TU_ALL);
  expect_no_error();
  assert_non_null(t);
  ls_texture_release(t);
  ls_texture_desc ms;
  memset(&ms, 0, sizeof ms);
  ms.size = (ls_extent3d){4, 4, 1};
  ms.format = LS_FORMAT_RGBA8UNORM;
  ms.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING;
  ms.sample_count = 4;
  assert_null(ls_device_create_texture(d, &ms));
  expect_error("needs RENDER_ATTACHMENT");
  tu_free_env(&e);
}

/* viewFormats: a view's format is the texture's or one of its viewFormats,
 * which differ from it only in -srgb (spec/index.bs "texture view format
 * compatible") */
static void test_view_formats(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  const ls_texture_format srgb = LS_FORMAT_RGBA8UNORM_SRGB, snorm = LS_FORMAT_RGBA8SNORM;
  ls_texture_desc td = {.dimension = LS_TEXTURE_DIMENSION_2D, .size = {2, 2, 1},
                        .format = LS_FORMAT_RGBA8UNORM, .usage = TU_ALL & ~LS_TEXTURE_USAGE_STORAGE_BINDING,
                        .label = "vf", .view_formats = &snorm, .view_format_count = 1};
  assert_null(ls_device_create_texture(d, &td));
  expect_error("viewFormats[0] rgba8snorm is not view-compatible with format rgba8unorm");
  ls_texture *plain = tex(d, LS_TEXTURE_DIMENSION_2D, 2, 2, 1, LS_FORMAT_RGBA8UNORM, 1,
                          LS_TEXTURE_USAGE_TEXTURE_BINDING);
  ls_texture_view_desc vd = {.format = srgb};
  assert_null(ls_texture_create_view(plain, &vd));
  expect_error("format rgba8unorm-srgb is neither the texture's format rgba8unorm nor one of its "
               "viewFormats");
  td.view_formats = &srgb;
  ls_texture *t = ls_device_create_texture(d, &td);
  expect_no_error();
  assert_non_null(t);
  ls_texture_view *v = ls_texture_create_view(t, &vd);
  expect_no_error();
  assert_non_null(v);
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_texture_release(plain);
  tu_free_env(&e);
}

/* ------------------------------------------------------------- createView */

static void test_views(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_texture *arr = tex(d, LS_TEXTURE_DIMENSION_2D, 8, 4, 3, LS_FORMAT_R32FLOAT, 2, TU_ALL);
  ls_texture *flat = tex(d, LS_TEXTURE_DIMENSION_2D, 8, 4, 1, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  ls_texture *vol = tex(d, LS_TEXTURE_DIMENSION_3D, 4, 4, 4, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  assert_non_null(arr);
  assert_non_null(flat);
  assert_non_null(vol);
  ls_texture_view *v = ls_texture_create_view(arr, NULL); /* "2d-array", 3 layers, 2 levels */
  expect_no_error();
  assert_non_null(v);
  ls_texture_view_release(v);
  ls_texture_view_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.dimension = LS_VIEW_DIMENSION_2D;
  vd.base_array_layer = 2;
  vd.base_mip_level = 1;
  v = ls_texture_create_view(arr, &vd);
  expect_no_error();
  assert_non_null(v);
  ls_texture_view_release(v);

  struct {
    ls_texture *t;
    ls_texture_view_desc d;
    const char *msg;
  } bad[] = {
      {arr, {.dimension = LS_VIEW_DIMENSION_2D, .array_layer_count = 2}, "exactly 1 array layer"},
      {arr, {.base_mip_level = 2}, "mip levels [2, 2 + 0)"},
      {arr, {.mip_level_count = 3}, "outside the texture's 2"},
      {arr, {.base_array_layer = 1, .array_layer_count = 3}, "array layers [1, 1 + 3)"},
      {arr, {.dimension = LS_VIEW_DIMENSION_3D}, "a 3d view needs a 3d texture"},
      {vol, {.dimension = LS_VIEW_DIMENSION_2D}, "a 2d view needs a 2d texture"},
      {flat, {.dimension = LS_VIEW_DIMENSION_1D}, "a 1d view needs a 1d texture"},
      {arr, {.format = LS_FORMAT_R32UINT}, "neither the texture's format r32float"},
      {flat, {.dimension = LS_VIEW_DIMENSION_CUBE, .array_layer_count = 6}, "outside the texture's 1"},
      {arr, {.dimension = LS_VIEW_DIMENSION_CUBE, .array_layer_count = 3}, "needs 6 array layers"},
      {flat, {.usage = 0x20}, "not a subset"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_null(ls_texture_create_view(bad[i].t, &bad[i].d));
    expect_error(bad[i].msg);
  }
  /* a view keeps its texture's handle alive, not its memory; a destroyed
   * texture is still valid to bind (WebGPU refuses it at submit, tested in
   * test_pipeline_rules) */
  ls_texture_view *vf = ls_texture_create_view(flat, NULL);
  ls_texture_destroy(flat);
  ls_texture_release(flat);
  ls_bind_group_layout_entry le = {.binding = 0, .type = LS_BINDING_SAMPLED_TEXTURE,
                                   .sample_type = LS_SAMPLE_UNFILTERABLE_FLOAT};
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_bind_group_entry be = {.binding = 0, .texture_view = vf};
  ls_bind_group *bg = ls_device_create_bind_group(
      d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  assert_non_null(bg);
  expect_no_error();
  ls_bind_group_release(bg);
  ls_bind_group_layout_release(l);
  ls_texture_view_release(vf);
  ls_texture_release(arr);
  ls_texture_release(vol);
  tu_free_env(&e);
}

/* ------------------------------------------------- layouts and bind groups */

static ls_bind_group *one_entry_group(ls_device *d, ls_binding_type type,
                                      ls_texture_sample_type st, ls_view_dimension vd,
                                      ls_texture_format f, ls_texture_view *view, ls_buffer *b) {
  ls_bind_group_layout_entry le;
  memset(&le, 0, sizeof le);
  le.binding = 0;
  le.type = type;
  le.sample_type = st;
  le.view_dimension = vd;
  le.format = f;
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  if (!l) return NULL;
  ls_bind_group_entry be;
  memset(&be, 0, sizeof be);
  be.texture_view = view;
  be.buffer = b;
  be.size = LS_WHOLE_SIZE;
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = &be, .entry_count = 1});
  ls_bind_group_layout_release(l);
  return g;
}

static void test_layouts_and_groups(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_texture *rgba = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_RGBA8UNORM, 2, TU_ALL);
  ls_texture *r32 = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  ls_texture *nost = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_R32FLOAT, 1,
                         LS_TEXTURE_USAGE_TEXTURE_BINDING);
  ls_texture_view *vrgba = ls_texture_create_view(rgba, NULL); /* 2 levels */
  ls_texture_view_desc one = {.mip_level_count = 1};
  ls_texture_view *vrgba1 = ls_texture_create_view(rgba, &one);
  ls_texture_view *vr32 = ls_texture_create_view(r32, NULL);
  ls_texture_view *vnost = ls_texture_create_view(nost, NULL);
  ls_buffer *buf = buffer(d, 256, LS_BUFFER_USAGE_STORAGE);
  expect_no_error();

  /* the good ones */
  ls_bind_group *g;
  g = one_entry_group(d, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, 0, 0, LS_FORMAT_RGBA8UNORM,
                      vrgba1, NULL);
  expect_no_error();
  assert_non_null(g);
  ls_bind_group_release(g);
  g = one_entry_group(d, LS_BINDING_READ_WRITE_STORAGE_TEXTURE, 0, LS_VIEW_DIMENSION_2D,
                      LS_FORMAT_R32FLOAT, vr32, NULL);
  expect_no_error();
  ls_bind_group_release(g);
  g = one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, LS_SAMPLE_FLOAT, 0, 0, vrgba, NULL);
  expect_no_error();
  ls_bind_group_release(g);
  g = one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, LS_SAMPLE_UNFILTERABLE_FLOAT, 0, 0, vr32, NULL);
  expect_no_error();
  ls_bind_group_release(g);

  /* layouts */
  assert_null(one_entry_group(d, LS_BINDING_READ_WRITE_STORAGE_TEXTURE, 0, 0,
                              LS_FORMAT_RGBA8UNORM, vrgba1, NULL));
  expect_error("does not allow read-write storage access");
  assert_null(one_entry_group(d, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, 0, LS_VIEW_DIMENSION_CUBE,
                              LS_FORMAT_R32FLOAT, vr32, NULL));
  expect_error("cannot have viewDimension \"cube\"");
  assert_null(one_entry_group(d, LS_BINDING_READ_ONLY_STORAGE_TEXTURE, 0, 0, 0, vr32, NULL));
  expect_error("needs a format");
  assert_null(one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, (ls_texture_sample_type)9, 0, 0,
                              vr32, NULL));
  expect_error("bad sampleType");

  /* bind groups */
  assert_null(one_entry_group(d, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, 0, 0,
                              LS_FORMAT_RGBA8UNORM, vrgba, NULL));
  expect_error("has 2 mip levels");
  assert_null(one_entry_group(d, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, 0, 0, LS_FORMAT_R32UINT,
                              vr32, NULL));
  expect_error("the layout's format is r32uint");
  assert_null(one_entry_group(d, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, 0, 0, LS_FORMAT_R32FLOAT,
                              vnost, NULL));
  expect_error("lacks STORAGE_BINDING");
  assert_null(one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, LS_SAMPLE_FLOAT, 0, 0, vr32, NULL));
  expect_error("not compatible with sampleType \"float\""); /* r32float is unfilterable */
  assert_null(one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, LS_SAMPLE_UINT, 0, 0, vrgba, NULL));
  expect_error("not compatible with sampleType \"uint\"");
  assert_null(one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, LS_SAMPLE_FLOAT,
                              LS_VIEW_DIMENSION_2D_ARRAY, 0, vrgba, NULL));
  expect_error("the layout's viewDimension is \"2d-array\"");
  assert_null(one_entry_group(d, LS_BINDING_SAMPLED_TEXTURE, LS_SAMPLE_FLOAT, 0, 0, NULL, buf));
  expect_error("needs a texture view and no buffer");
  assert_null(one_entry_group(d, LS_BINDING_STORAGE, 0, 0, 0, vr32, buf));
  expect_error("a texture view where the layout wants a buffer");

  /* maxStorageTexturesPerShaderStage is 4 by default */
  ls_bind_group_layout_entry many[5];
  memset(many, 0, sizeof many);
  for (uint32_t i = 0; i < 5; i++) {
    many[i].binding = i;
    many[i].type = LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE;
    many[i].format = LS_FORMAT_R32FLOAT;
  }
  assert_null(ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = many, .entry_count = 5}));
  expect_error("maxStorageTexturesPerShaderStage (4)");

  ls_texture_view_release(vrgba);
  ls_texture_view_release(vrgba1);
  ls_texture_view_release(vr32);
  ls_texture_view_release(vnost);
  ls_texture_release(rgba);
  ls_texture_release(r32);
  ls_texture_release(nost);
  ls_buffer_release(buf);
  tu_free_env(&e);
}

/* ------------------------------------------------------------------ copies */

/* Finishes and submits an encoder's commands: LS_VALIDATION when finish()
 * refused the encoder, else the submit's status. */
static ls_status finish_submit(ls_device *d, ls_command_encoder *enc) {
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  if (!cb) return LS_VALIDATION;
  const ls_status submitted = ls_queue_submit(d, &cb, 1);
  ls_command_buffer_release(cb);
  return submitted;
}

static ls_status copy_out(ls_device *d, ls_texture *t, uint32_t level, ls_origin3d o,
                          ls_extent3d size, uint32_t bpr, uint32_t rpi, ls_buffer *b) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_texel_copy_texture_info src = {t, level, o};
  ls_texel_copy_buffer_layout lay = {0, bpr, rpi};
  ls_command_encoder_copy_texture_to_buffer(enc, &src, b, &lay, &size);
  return finish_submit(d, enc);
}

static void test_write_and_copy(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  /* 4x2 rgba8uint, 3 levels (4x2, 2x1, 1x1) */
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 2, 1, LS_FORMAT_RGBA8UINT, 3, TU_ALL);
  uint8_t px[32];
  for (int i = 0; i < 32; i++) px[i] = (uint8_t)(i * 7 + 1);
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}};
  ls_texel_copy_buffer_layout tight = {0, 16, LS_COPY_STRIDE_UNDEFINED};
  ls_extent3d full = {4, 2, 1};
  assert_int_equal(ls_queue_write_texture(d, &dst, px, sizeof px, &tight, &full), LS_OK);
  /* level 1: 2x1 texels written from offset 4 of the data */
  uint8_t lv1[12] = {0, 0, 0, 0, 10, 11, 12, 13, 14, 15, 16, 17};
  ls_texel_copy_texture_info dst1 = {t, 1, {0, 0, 0}};
  ls_texel_copy_buffer_layout off4 = {4, LS_COPY_STRIDE_UNDEFINED, LS_COPY_STRIDE_UNDEFINED};
  ls_extent3d two = {2, 1, 1};
  assert_int_equal(ls_queue_write_texture(d, &dst1, lv1, sizeof lv1, &off4, &two), LS_OK);
  expect_no_error();

  ls_buffer *b = buffer(d, 1024, LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC);
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, 256, LS_COPY_STRIDE_UNDEFINED, b),
                   LS_OK);
  uint8_t out[512];
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
  /* row y of the texture at buffer offset 256 y */
  assert_memory_equal(out, px, 16);
  assert_memory_equal(out + 256, px + 16, 16);
  assert_int_equal(copy_out(d, t, 1, (ls_origin3d){1, 0, 0}, (ls_extent3d){1, 1, 1},
                            LS_COPY_STRIDE_UNDEFINED, LS_COPY_STRIDE_UNDEFINED, b),
                   LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, 4), LS_OK);
  const uint8_t want1[4] = {14, 15, 16, 17};
  assert_memory_equal(out, want1, 4);
  expect_no_error();

  /* the encoder's rules */
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, 16, LS_COPY_STRIDE_UNDEFINED, b),
                   LS_VALIDATION);
  expect_error("bytesPerRow (16) is not a multiple of 256");
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, LS_COPY_STRIDE_UNDEFINED,
                            LS_COPY_STRIDE_UNDEFINED, b),
                   LS_VALIDATION);
  expect_error("needs bytesPerRow");
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){1, 0, 0}, full, 256, LS_COPY_STRIDE_UNDEFINED, b),
                   LS_VALIDATION);
  expect_error("is outside mip level 0");
  assert_int_equal(copy_out(d, t, 3, (ls_origin3d){0, 0, 0}, two, 256, LS_COPY_STRIDE_UNDEFINED, b),
                   LS_VALIDATION);
  expect_error("mipLevel 3 is not below");
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, 256, 1, b), LS_VALIDATION);
  expect_error("rowsPerImage (1) is less than");
  ls_buffer *small = buffer(d, 256 + 15, LS_BUFFER_USAGE_COPY_DST);
  /* needs 256 (1 row) + 16 bytes */
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, 256, LS_COPY_STRIDE_UNDEFINED,
                            small),
                   LS_VALIDATION);
  expect_error("needs 272 bytes from offset 0, the data has 271");
  ls_buffer *nodst = buffer(d, 1024, LS_BUFFER_USAGE_COPY_SRC);
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, 256, LS_COPY_STRIDE_UNDEFINED,
                            nodst),
                   LS_VALIDATION);
  expect_error("lacks COPY_DST usage");
  ls_texture *nosrc = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 2, 1, LS_FORMAT_RGBA8UINT, 1,
                          LS_TEXTURE_USAGE_COPY_DST);
  assert_int_equal(copy_out(d, nosrc, 0, (ls_origin3d){0, 0, 0}, full, 256,
                            LS_COPY_STRIDE_UNDEFINED, b),
                   LS_VALIDATION);
  expect_error("texture 't' lacks COPY_SRC usage");
  /* writeTexture: no 256 rule, but the texture needs COPY_DST */
  ls_texture *ro = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 2, 1, LS_FORMAT_RGBA8UINT, 1,
                       LS_TEXTURE_USAGE_COPY_SRC);
  ls_texel_copy_texture_info dro = {ro, 0, {0, 0, 0}};
  assert_int_equal(ls_queue_write_texture(d, &dro, px, sizeof px, &tight, &full), LS_VALIDATION);
  expect_error("lacks COPY_DST usage");
  assert_int_equal(ls_queue_write_texture(d, &dst, px, 31, &tight, &full), LS_VALIDATION);
  expect_error("needs 32 bytes from offset 0, the data has 31");

  /* buffer to texture, then back: offset 256, rows 256 apart */
  uint8_t up[2 * 256 + 16];
  memset(up, 0xEE, sizeof up);
  for (int i = 0; i < 16; i++) {
    up[256 + i] = (uint8_t)(200 + i);
    up[512 + i] = (uint8_t)(100 + i);
  }
  ls_buffer *src = buffer(d, sizeof up, LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST);
  assert_int_equal(ls_queue_write_buffer(d, src, 0, up, sizeof up), LS_OK);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_texel_copy_buffer_layout lay = {256, 256, LS_COPY_STRIDE_UNDEFINED};
  ls_command_encoder_copy_buffer_to_texture(enc, src, &lay, &dst, &full);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  assert_int_equal(copy_out(d, t, 0, (ls_origin3d){0, 0, 0}, full, 256, LS_COPY_STRIDE_UNDEFINED, b),
                   LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, b, 0, out, sizeof out), LS_OK);
  assert_memory_equal(out, up + 256, 16);
  assert_memory_equal(out + 256, up + 512, 16);
  /* an offset that is not a multiple of the texel size (4) */
  enc = ls_device_create_command_encoder(d, NULL);
  lay.offset = 2;
  ls_command_encoder_copy_buffer_to_texture(enc, src, &lay, &dst, &(ls_extent3d){1, 1, 1});
  assert_null(ls_command_encoder_finish(enc, NULL));
  ls_command_encoder_release(enc);
  expect_error("offset 2 is not a multiple of the texel size 4");

  ls_texture_release(t);
  ls_texture_release(nosrc);
  ls_texture_release(ro);
  ls_buffer_release(b);
  ls_buffer_release(small);
  ls_buffer_release(nodst);
  ls_buffer_release(src);
  tu_free_env(&e);
}

/* ------------------------------------------------ copyTextureToTexture */

/* One copyTextureToTexture in its own command buffer: LS_OK when it ran,
 * LS_VALIDATION when finish() refused the encoder. */
static ls_status copy_t2t(ls_device *d, ls_texel_copy_texture_info src,
                          ls_texel_copy_texture_info dst, ls_extent3d size) {
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_command_encoder_copy_texture_to_texture(enc, &src, &dst, &size);
  return finish_submit(d, enc);
}

static void test_copy_texture_to_texture(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  /* a: 4x4, 3 layers of rgba8unorm; b: the same in rgba8unorm-srgb, which
   * differs only in -srgb (copy-compatible: the bytes move unchanged) */
  ls_texture *a = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 3, LS_FORMAT_RGBA8UNORM, 2, TU_ALL);
  ls_texture *b = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 3, LS_FORMAT_RGBA8UNORM_SRGB, 1,
                      LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST);
  uint8_t px[64];
  for (int i = 0; i < 64; i++) px[i] = (uint8_t)(3 * i + 5);
  ls_texel_copy_buffer_layout tight = {0, 16, 4};
  assert_int_equal(ls_queue_write_texture(d, &(ls_texel_copy_texture_info){a, 0, {0, 0, 0}}, px,
                                          sizeof px, &tight, &(ls_extent3d){4, 4, 1}),
                   LS_OK);
  /* texels (1..2, 1..2) of a's layer 0 to (0..1, 2..3) of b's layer 2 */
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 0, {1, 1, 0}},
                            (ls_texel_copy_texture_info){b, 0, {0, 2, 2}}, (ls_extent3d){2, 2, 1}),
                   LS_OK);
  expect_no_error();
  ls_buffer *out = buffer(d, 256 * 4, LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC);
  assert_int_equal(copy_out(d, b, 0, (ls_origin3d){0, 0, 2}, (ls_extent3d){4, 4, 1}, 256,
                            LS_COPY_STRIDE_UNDEFINED, out),
                   LS_OK);
  uint8_t got[256 * 4];
  assert_int_equal(ls_queue_read_buffer(d, out, 0, got, sizeof got), LS_OK);
  static const uint8_t zero[8];
  assert_memory_equal(got + 2 * 256, px + 1 * 16 + 4, 8); /* row 2: a's row 1, x 1..2 */
  assert_memory_equal(got + 3 * 256, px + 2 * 16 + 4, 8); /* row 3: a's row 2, x 1..2 */
  assert_memory_equal(got + 0 * 256, zero, 8);            /* rows 0-1 untouched */
  assert_memory_equal(got + 2 * 256 + 8, zero, 8);        /* x 2..3 untouched */
  /* within one texture: layer 0 to layer 1 is disjoint */
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){a, 0, {0, 0, 1}}, (ls_extent3d){4, 4, 1}),
                   LS_OK);
  assert_int_equal(copy_out(d, a, 0, (ls_origin3d){0, 0, 1}, (ls_extent3d){4, 4, 1}, 256,
                            LS_COPY_STRIDE_UNDEFINED, out),
                   LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, out, 0, got, sizeof got), LS_OK);
  for (int y = 0; y < 4; y++) assert_memory_equal(got + 256 * y, px + 16 * y, 16);
  expect_no_error();

  /* the rules, each one checked alone */
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){a, 0, {0, 0, 1}}, (ls_extent3d){4, 4, 2}),
                   LS_VALIDATION);
  expect_error("layers [0, 2) and [1, 3) of mip level 0 of texture 't' overlap");
  /* level 0 to level 1 of the same layer is disjoint */
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){a, 1, {0, 0, 0}}, (ls_extent3d){2, 2, 1}),
                   LS_OK);
  expect_no_error();
  ls_texture *f = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){f, 0, {0, 0, 0}}, (ls_extent3d){1, 1, 1}),
                   LS_VALIDATION);
  expect_error("formats rgba8unorm (texture 't') and r32float (texture 't') are not copy-compatible");
  /* an empty copy is validated all the same */
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 5, {0, 0, 0}},
                            (ls_texel_copy_texture_info){b, 0, {0, 0, 0}}, (ls_extent3d){0, 0, 0}),
                   LS_VALIDATION);
  expect_error("mipLevel 5 is not below texture 't''s mipLevelCount 2");
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){b, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){a, 0, {3, 0, 0}}, (ls_extent3d){2, 1, 1}),
                   LS_VALIDATION);
  expect_error("is outside mip level 0");
  ls_texture *nodst = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_RGBA8UNORM, 1,
                          LS_TEXTURE_USAGE_COPY_SRC);
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){a, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){nodst, 0, {0, 0, 0}},
                            (ls_extent3d){1, 1, 1}),
                   LS_VALIDATION);
  expect_error("destination texture 't' lacks COPY_DST usage");
  /* 3D: one subresource per level, so a copy within one level overlaps */
  ls_texture *v = tex(d, LS_TEXTURE_DIMENSION_3D, 2, 2, 4, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){v, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){v, 0, {0, 0, 2}}, (ls_extent3d){2, 2, 1}),
                   LS_VALIDATION);
  expect_error("one subresource");
  /* multisampled: equal sample counts, whole levels */
  ls_texture_desc md = {.dimension = LS_TEXTURE_DIMENSION_2D, .size = {4, 4, 1},
                        .format = LS_FORMAT_RGBA8UNORM, .mip_level_count = 1, .sample_count = 4,
                        .usage = LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST |
                                 LS_TEXTURE_USAGE_RENDER_ATTACHMENT, .label = "ms"};
  ls_texture *ms = ls_device_create_texture(d, &md), *ms2 = ls_device_create_texture(d, &md);
  expect_no_error();
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){ms, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){b, 0, {0, 0, 0}}, (ls_extent3d){4, 4, 1}),
                   LS_VALIDATION);
  expect_error("texture 'ms' has sampleCount 4 and texture 't' 1");
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){ms, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){ms2, 0, {0, 0, 0}}, (ls_extent3d){2, 2, 1}),
                   LS_VALIDATION);
  expect_error("a copy of multisampled texture 'ms'");
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){ms, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){ms2, 0, {0, 0, 0}}, (ls_extent3d){4, 4, 1}),
                   LS_OK);
  /* depth-stencil: every aspect of both */
  ls_texture *ds = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_DEPTH24PLUS_STENCIL8, 1,
                       LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST);
  ls_texture *ds2 = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 1, LS_FORMAT_DEPTH24PLUS_STENCIL8, 1,
                        LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST);
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){ds, 0, {0, 0, 0}, LS_ASPECT_DEPTH_ONLY},
                            (ls_texel_copy_texture_info){ds2, 0, {0, 0, 0}, LS_ASPECT_DEPTH_ONLY},
                            (ls_extent3d){4, 4, 1}),
                   LS_VALIDATION);
  expect_error("takes every aspect of both");
  assert_int_equal(copy_t2t(d, (ls_texel_copy_texture_info){ds, 0, {0, 0, 0}},
                            (ls_texel_copy_texture_info){ds2, 0, {0, 0, 0}}, (ls_extent3d){4, 4, 1}),
                   LS_OK);
  expect_no_error();
  ls_texture *all[] = {a, b, f, nodst, v, ms, ms2, ds, ds2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ls_texture_release(all[i]);
  ls_buffer_release(out);
  tu_free_env(&e);
}

/* --------------------------------------------------------------- shaders */

static ls_compute_pipeline *pipeline(ls_device *d, const char *code) {
  ls_shader_module_desc sd = {.code = code, .label = "tex.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  assert_non_null(m);
  if (!ls_shader_module_is_valid(m)) fprintf(stderr, "%s", ls_shader_module_format_messages(m));
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  ls_shader_module_release(m);
  return p;
}

/* Binds entries 0..n-1 of group 0 of the auto layout and runs x*y groups. */
static ls_status run(ls_device *d, ls_compute_pipeline *p, const ls_bind_group_entry *be, size_t n,
                     uint32_t x, uint32_t y) {
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = n});
  ls_bind_group_layout_release(l);
  if (!g) return LS_VALIDATION;
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, x, y, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  ls_bind_group_release(g);
  if (!cb) return LS_VALIDATION;
  const ls_status submitted = ls_queue_submit(d, &cb, 1);
  ls_command_buffer_release(cb);
  return submitted;
}

static void read_texture(ls_device *d, ls_texture *t, uint32_t level, uint32_t layer,
                         uint32_t w, uint32_t h, uint32_t bpt, uint8_t *out) {
  ls_buffer *b = buffer(d, 256 * h, LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC);
  assert_int_equal(copy_out(d, t, level, (ls_origin3d){0, 0, layer}, (ls_extent3d){w, h, 1}, 256,
                            LS_COPY_STRIDE_UNDEFINED, b),
                   LS_OK);
  uint8_t *tmp = malloc(256 * h);
  assert_int_equal(ls_queue_read_buffer(d, b, 0, tmp, 256 * h), LS_OK);
  for (uint32_t y = 0; y < h; y++) memcpy(out + y * w * bpt, tmp + 256 * y, w * bpt);
  free(tmp);
  ls_buffer_release(b);
}

/* textureStore to rgba8unorm: the inverse transfer function clamps to
 * [0, 1], and the 8-bit value is floor(0.5 + 255 v) (pack4x8unorm's
 * rounding). x / 3 for x = 0..3 gives 0, 85, 170, 255; 0.5 -> 128;
 * 1.5 -> 255; -0.2 -> 0. A store at x = 4 or y = -1 is out of bounds. */
static const char *store_unorm =
    "@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(4, 2) fn main(@builtin(local_invocation_id) l: vec3u) {\n"
    "  let x = f32(l.x) / 3.0;\n"
    "  textureStore(img, vec2i(i32(l.x), i32(l.y)), vec4f(x, 0.5, 1.5, -0.2));\n"
    "  textureStore(img, vec2i(4, 0), vec4f(0.7));\n"
    "  textureStore(img, vec2i(0, -1), vec4f(0.7));\n"
    "}\n";

static void test_store_unorm(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, store_unorm);
  assert_non_null(p);
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 2, 1, LS_FORMAT_RGBA8UNORM, 1, TU_ALL);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_bind_group_entry be = {.binding = 0, .texture_view = v};
  assert_int_equal(run(d, p, &be, 1, 1, 1), LS_OK);
  expect_no_error();
  uint8_t px[32];
  read_texture(d, t, 0, 0, 4, 2, 4, px);
  const uint8_t xs[4] = {0, 85, 170, 255};
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 4; x++) {
      const uint8_t *q = px + (y * 4 + x) * 4;
      assert_int_equal(q[0], xs[x]);
      assert_int_equal(q[1], 128);
      assert_int_equal(q[2], 255);
      assert_int_equal(q[3], 0);
    }
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* A read-write r32float texture: t = 2 t + 1 in place; textureLoad of a
 * storage texture gives vec4(r, 0, 0, 1). */
static const char *rw_r32 =
    "@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;\n"
    "@group(0) @binding(1) var<storage, read_write> tail: array<f32, 3>;\n"
    "@compute @workgroup_size(8, 4) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  let dims = textureDimensions(img);\n"
    "  if (g.x >= dims.x || g.y >= dims.y) { return; }\n"
    "  let v = textureLoad(img, g.xy);\n"
    "  textureStore(img, g.xy, vec4f(2.0 * v.x + 1.0, 9.0, 9.0, 9.0));\n"
    "  if (all(g.xy == vec2u(0u))) { tail[0] = v.y; tail[1] = v.z; tail[2] = v.w; }\n"
    "}\n";

static void test_read_write_r32float(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, rw_r32);
  assert_non_null(p);
  /* 5x3: the guard leaves the 8x4 workgroup's other lanes idle */
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 5, 3, 1, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  float in[15];
  for (int i = 0; i < 15; i++) in[i] = (float)i - 4.0f;
  ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}};
  ls_texel_copy_buffer_layout lay = {0, 20, LS_COPY_STRIDE_UNDEFINED};
  assert_int_equal(ls_queue_write_texture(d, &dst, in, sizeof in, &lay, &(ls_extent3d){5, 3, 1}),
                   LS_OK);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_buffer *tail = buffer(d, 12, LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC);
  ls_bind_group_entry be[2] = {{.binding = 0, .texture_view = v},
                               {.binding = 1, .buffer = tail, .size = LS_WHOLE_SIZE}};
  assert_int_equal(run(d, p, be, 2, 1, 1), LS_OK);
  expect_no_error();
  float out[15];
  read_texture(d, t, 0, 0, 5, 3, 4, (uint8_t *)out);
  for (int i = 0; i < 15; i++) assert_true(out[i] == 2.0f * in[i] + 1.0f);
  float tl[3];
  assert_int_equal(ls_queue_read_buffer(d, tail, 0, tl, sizeof tl), LS_OK);
  assert_true(tl[0] == 0.0f && tl[1] == 0.0f && tl[2] == 1.0f);
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_buffer_release(tail);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* A texture_storage_2d<r32float, write> variable in a "read-write"
 * storageTexture layout entry (spec/index.bs, "validating shader binding":
 * a read-write entry takes access read_write or write): the pipeline is
 * created and the stores land, x + 10 y at (x, y). A read-only variable
 * there is refused. */
static const char *write_in_rw_layout =
    "@group(0) @binding(0) var img: texture_storage_2d<r32float, write>;\n"
    "@compute @workgroup_size(4, 2) fn main(@builtin(local_invocation_id) l: vec3u) {\n"
    "  textureStore(img, l.xy, vec4f(f32(l.x + 10u * l.y), 0.0, 0.0, 1.0));\n"
    "}\n";
static const char *read_in_rw_layout =
    "@group(0) @binding(0) var img: texture_storage_2d<r32float, read>;\n"
    "@compute @workgroup_size(1) fn main() { _ = textureLoad(img, vec2u(0u)); }\n";

static void test_write_variable_read_write_layout(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_bind_group_layout_entry le = {.binding = 0, .type = LS_BINDING_READ_WRITE_STORAGE_TEXTURE,
                                   .format = LS_FORMAT_R32FLOAT};
  ls_bind_group_layout *bgl = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &bgl, .bind_group_layout_count = 1});
  assert_non_null(pl);
  ls_shader_module *m = ls_device_create_shader_module(d, &(ls_shader_module_desc){.code = write_in_rw_layout, .label = "tex.wgsl"});
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &(ls_compute_pipeline_desc){.module = m, .layout = pl});
  expect_no_error();
  assert_non_null(p);
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 2, 1, LS_FORMAT_R32FLOAT, 1, TU_ALL);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_bind_group_entry be = {.binding = 0, .texture_view = v};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = bgl, .entries = &be, .entry_count = 1});
  assert_non_null(g);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  expect_no_error();
  float out[8];
  read_texture(d, t, 0, 0, 4, 2, 4, (uint8_t *)out);
  for (int i = 0; i < 8; i++) assert_true(out[i] == (float)(i % 4 + 10 * (i / 4)));
  ls_shader_module *mr = ls_device_create_shader_module(d, &(ls_shader_module_desc){.code = read_in_rw_layout, .label = "tex.wgsl"});
  assert_null(ls_device_create_compute_pipeline(d, &(ls_compute_pipeline_desc){.module = mr, .layout = pl}));
  expect_error("is a read-only storage texture but the layout's entry is 'read-write storageTexture'");
  ls_shader_module_release(mr);
  ls_bind_group_release(g);
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  ls_pipeline_layout_release(pl);
  ls_bind_group_layout_release(bgl);
  tu_free_env(&e);
}

/* A sampled texture_2d_array<u32> of rgba8uint with 2 layers and 2 levels:
 * textureLoad by layer and level, the queries, and loads out of bounds
 * (level 2, layer 2, x = 4), which give (0, 0, 0, 0). */
static const char *sampled_array =
    "@group(0) @binding(0) var t: texture_2d_array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  var k = 0u;\n"
    "  for (var lv = 0; lv < 2; lv++) {\n"
    "    let dm = textureDimensions(t, lv);\n"
    "    for (var layer = 0u; layer < 2u; layer++) {\n"
    "      for (var y = 0u; y < dm.y; y++) {\n"
    "        for (var x = 0u; x < dm.x; x++) {\n"
    "          let v = textureLoad(t, vec2u(x, y), layer, lv);\n"
    "          o[k] = v.x | (v.y << 8u) | (v.z << 16u) | (v.w << 24u);\n"
    "          k++;\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "  let d0 = textureDimensions(t);\n"
    "  let d1 = textureDimensions(t, 1);\n"
    "  o[40] = d0.x; o[41] = d0.y; o[42] = d1.x; o[43] = d1.y;\n"
    "  o[44] = textureNumLevels(t); o[45] = textureNumLayers(t);\n"
    "  let a = textureLoad(t, vec2u(0u), 0u, 2);\n"
    "  let b = textureLoad(t, vec2u(0u), 2u, 0);\n"
    "  let c = textureLoad(t, vec2i(4, 0), 0, 0u);\n"
    "  o[46] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w;\n"
    "}\n";

static void test_sampled_array(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, sampled_array);
  assert_non_null(p);
  /* 4x4, 2 layers; level 1 is 2x2 */
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 4, 2, LS_FORMAT_RGBA8UINT, 2, TU_ALL);
  uint32_t want[40];
  size_t k = 0;
  for (uint32_t lv = 0; lv < 2; lv++) {
    uint32_t n = lv ? 2 : 4;
    uint32_t words[2 * 16];
    for (uint32_t layer = 0; layer < 2; layer++)
      for (uint32_t i = 0; i < n * n; i++) {
        /* a distinct texel per level, layer and position, bytes r g b a */
        uint32_t w = (lv + 1) | (layer + 1) << 8 | i << 16 | (0xA0u + i) << 24;
        words[layer * n * n + i] = w;
        want[k++] = w;
      }
    ls_texel_copy_texture_info dst = {t, lv, {0, 0, 0}};
    ls_texel_copy_buffer_layout lay = {0, 4 * n, n};
    assert_int_equal(ls_queue_write_texture(d, &dst, words, 2 * n * n * 4, &lay,
                                            &(ls_extent3d){n, n, 2}),
                     LS_OK);
  }
  assert_int_equal(k, 40);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_buffer *o = buffer(d, 4 * 48,
                        LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST);
  ls_bind_group_entry be[2] = {{.binding = 0, .texture_view = v},
                               {.binding = 1, .buffer = o, .size = LS_WHOLE_SIZE}};
  assert_int_equal(run(d, p, be, 2, 1, 1), LS_OK);
  expect_no_error();
  uint32_t out[48];
  assert_int_equal(ls_queue_read_buffer(d, o, 0, out, sizeof out), LS_OK);
  for (int i = 0; i < 40; i++) assert_int_equal(out[i], want[i]);
  assert_int_equal(out[40], 4);
  assert_int_equal(out[41], 4);
  assert_int_equal(out[42], 2);
  assert_int_equal(out[43], 2);
  assert_int_equal(out[44], 2);
  assert_int_equal(out[45], 2);
  assert_int_equal(out[46], 0);

  /* a view of layer 1, level 1 alone: layer 0 and level 0 of the view */
  ls_texture_view_desc vd = {.dimension = LS_VIEW_DIMENSION_2D_ARRAY, .base_mip_level = 1,
                             .base_array_layer = 1, .array_layer_count = 1};
  ls_texture_view *v11 = ls_texture_create_view(t, &vd);
  assert_non_null(v11);
  be[0].texture_view = v11;
  memset(out, 0, sizeof out);
  assert_int_equal(ls_queue_write_buffer(d, o, 0, out, sizeof out), LS_OK);
  assert_int_equal(run(d, p, be, 2, 1, 1), LS_OK);
  assert_int_equal(ls_queue_read_buffer(d, o, 0, out, sizeof out), LS_OK);
  /* level 0 of the view is 2x2, its one layer is texture layer 1 of level 1;
   * the loop's layer 1 and level 1 are out of bounds (0) */
  for (int i = 0; i < 4; i++) assert_int_equal(out[i], want[16 * 2 + 4 + i]);
  for (int i = 4; i < 8; i++) assert_int_equal(out[i], 0);
  assert_int_equal(out[44], 1);
  assert_int_equal(out[45], 1);
  ls_texture_view_release(v11);
  ls_texture_view_release(v);
  ls_texture_release(t);
  ls_buffer_release(o);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* rgba16float stores quantizeToF16: 1/3 is the f16 0x3555
 * (0.333251953125), 65504 the largest finite 0x7bff, 2^-24 the smallest
 * subnormal 0x0001; a 1D and a 3D texture answer textureDimensions with a
 * u32 and a vec3u; textureLoad of an rgba8unorm texel 51 is 51 / 255 = 0.2. */
static const char *f16_1d_3d =
    "@group(0) @binding(0) var h: texture_storage_1d<rgba16float, write>;\n"
    "@group(0) @binding(1) var vol: texture_3d<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<f32, 8>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  textureStore(h, 1, vec4f(1.0 / 3.0, 65504.0, 5.9604644775390625e-8, -2.0));\n"
    "  let d = textureDimensions(vol);\n"
    "  o[0] = f32(textureDimensions(h));\n"
    "  o[1] = f32(d.x); o[2] = f32(d.y); o[3] = f32(d.z);\n"
    "  let v = textureLoad(vol, vec3u(1u, 0u, 2u), 0);\n"
    "  o[4] = v.x; o[5] = v.y; o[6] = v.z; o[7] = v.w;\n"
    "}\n";

static void test_f16_1d_3d(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, f16_1d_3d);
  assert_non_null(p);
  ls_texture *h = tex(d, LS_TEXTURE_DIMENSION_1D, 3, 1, 1, LS_FORMAT_RGBA16FLOAT, 1, TU_ALL);
  ls_texture *vol = tex(d, LS_TEXTURE_DIMENSION_3D, 2, 1, 3, LS_FORMAT_RGBA8UNORM, 1, TU_ALL);
  uint8_t texels[2 * 3 * 4] = {0};
  /* texel (1, 0, 2): slice 2, x 1 */
  uint8_t *q = texels + (2 * 2 + 1) * 4;
  q[0] = 51;
  q[1] = 255;
  q[2] = 0;
  q[3] = 102;
  ls_texel_copy_texture_info dst = {vol, 0, {0, 0, 0}};
  ls_texel_copy_buffer_layout lay = {0, 8, 1};
  assert_int_equal(ls_queue_write_texture(d, &dst, texels, sizeof texels, &lay,
                                          &(ls_extent3d){2, 1, 3}),
                   LS_OK);
  ls_texture_view *vh = ls_texture_create_view(h, NULL);
  ls_texture_view *vv = ls_texture_create_view(vol, NULL);
  ls_buffer *o = buffer(d, 32, LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC);
  ls_bind_group_entry be[3] = {{.binding = 0, .texture_view = vh},
                               {.binding = 1, .texture_view = vv},
                               {.binding = 2, .buffer = o, .size = LS_WHOLE_SIZE}};
  assert_int_equal(run(d, p, be, 3, 1, 1), LS_OK);
  expect_no_error();
  uint8_t px[24];
  read_texture(d, h, 0, 0, 3, 1, 8, px);
  uint16_t hv[4];
  memcpy(hv, px + 8, 8);
  assert_int_equal(hv[0], 0x3555);
  assert_int_equal(hv[1], 0x7bff);
  assert_int_equal(hv[2], 0x0001);
  assert_int_equal(hv[3], 0xc000);
  for (int i = 0; i < 8; i++) assert_int_equal(px[i], 0); /* texel 0 untouched */
  float of[8];
  assert_int_equal(ls_queue_read_buffer(d, o, 0, of, sizeof of), LS_OK);
  assert_true(of[0] == 3.0f);
  assert_true(of[1] == 2.0f && of[2] == 1.0f && of[3] == 3.0f);
  assert_true(of[4] == 51.0f / 255.0f && of[5] == 1.0f && of[6] == 0.0f &&
              of[7] == 102.0f / 255.0f);
  assert_true(of[4] == 0.2f);
  ls_texture_view_release(vh);
  ls_texture_view_release(vv);
  ls_texture_release(h);
  ls_texture_release(vol);
  ls_buffer_release(o);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* Integer formats clamp on store (min(255, T), max(-128, min(127, T)))
 * and sign-extend on load. */
static const char *int_formats =
    "@group(0) @binding(0) var u: texture_storage_2d<rgba8uint, write>;\n"
    "@group(0) @binding(1) var s: texture_storage_2d<rgba8sint, read_write>;\n"
    "@group(0) @binding(2) var<storage, read_write> o: array<i32, 4>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  textureStore(u, vec2u(0u), vec4u(7u, 255u, 256u, 4000000000u));\n"
    "  let v = textureLoad(s, vec2u(0u));\n"
    "  o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w;\n"
    "  textureStore(s, vec2u(0u), vec4i(-129, 128, -5, 127));\n"
    "}\n";

static void test_int_formats(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, int_formats);
  if (!p) {
    /* rgba8sint allows no read-write access: createBindGroupLayout of
     * layout "auto" would refuse it, and so must the pipeline */
    assert_non_null(strstr(last_error, "rgba8sint"));
    tu_free_env(&e);
    return;
  }
  fail_msg("a read-write rgba8sint storage texture was accepted");
}

static const char *int_formats_ok =
    "@group(0) @binding(0) var u: texture_storage_2d<rgba8uint, write>;\n"
    "@group(0) @binding(1) var s: texture_storage_2d<rgba8sint, read>;\n"
    "@group(0) @binding(2) var s2: texture_storage_2d<rgba8sint, write>;\n"
    "@group(0) @binding(3) var<storage, read_write> o: array<i32, 4>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  textureStore(u, vec2u(0u), vec4u(7u, 255u, 256u, 4000000000u));\n"
    "  let v = textureLoad(s, vec2u(0u));\n"
    "  o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w;\n"
    "  textureStore(s2, vec2u(0u), vec4i(-129, 128, -5, 127));\n"
    "}\n";

static void test_int_formats_run(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, int_formats_ok);
  assert_non_null(p);
  ls_texture *u = tex(d, LS_TEXTURE_DIMENSION_2D, 1, 1, 1, LS_FORMAT_RGBA8UINT, 1, TU_ALL);
  ls_texture *s = tex(d, LS_TEXTURE_DIMENSION_2D, 1, 1, 1, LS_FORMAT_RGBA8SINT, 1, TU_ALL);
  ls_texture *s2 = tex(d, LS_TEXTURE_DIMENSION_2D, 1, 1, 1, LS_FORMAT_RGBA8SINT, 1, TU_ALL);
  const uint8_t init[4] = {0x80, 0xff, 0x7f, 0x01}; /* -128, -1, 127, 1 */
  ls_texel_copy_texture_info dst = {s, 0, {0, 0, 0}};
  ls_texel_copy_buffer_layout lay = {0, LS_COPY_STRIDE_UNDEFINED, LS_COPY_STRIDE_UNDEFINED};
  assert_int_equal(ls_queue_write_texture(d, &dst, init, 4, &lay, &(ls_extent3d){1, 1, 1}), LS_OK);
  ls_texture_view *vu = ls_texture_create_view(u, NULL);
  ls_texture_view *vs = ls_texture_create_view(s, NULL);
  ls_texture_view *vs2 = ls_texture_create_view(s2, NULL);
  ls_buffer *o = buffer(d, 16, LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC);
  ls_bind_group_entry be[4] = {{.binding = 0, .texture_view = vu},
                               {.binding = 1, .texture_view = vs},
                               {.binding = 2, .texture_view = vs2},
                               {.binding = 3, .buffer = o, .size = LS_WHOLE_SIZE}};
  assert_int_equal(run(d, p, be, 4, 1, 1), LS_OK);
  expect_no_error();
  uint8_t px[4];
  read_texture(d, u, 0, 0, 1, 1, 4, px);
  assert_int_equal(px[0], 7);
  assert_int_equal(px[1], 255);
  assert_int_equal(px[2], 255);
  assert_int_equal(px[3], 255);
  read_texture(d, s2, 0, 0, 1, 1, 4, px);
  assert_int_equal((int8_t)px[0], -128);
  assert_int_equal((int8_t)px[1], 127);
  assert_int_equal((int8_t)px[2], -5);
  assert_int_equal((int8_t)px[3], 127);
  int32_t ov[4];
  assert_int_equal(ls_queue_read_buffer(d, o, 0, ov, sizeof ov), LS_OK);
  assert_int_equal(ov[0], -128);
  assert_int_equal(ov[1], -1);
  assert_int_equal(ov[2], 127);
  assert_int_equal(ov[3], 1);
  ls_texture_view_release(vu);
  ls_texture_view_release(vs);
  ls_texture_view_release(vs2);
  ls_texture_release(u);
  ls_texture_release(s);
  ls_texture_release(s2);
  ls_buffer_release(o);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

/* The other formats' inverse transfer functions on store:
 * rgba8snorm floor(0.5 + 127 clamp(v, -1, 1)): 0.5 -> 64, -1.5 -> -127,
 * -0.25 -> floor(-31.25) = -32, 1/3 -> floor(42.83) = 42;
 * rgba16sint clamps to [-32768, 32767], rgba16uint to 65535; rgba32float
 * keeps the bits (-0 and 1e30 included). */
static const char *more_stores =
    "@group(0) @binding(0) var s8: texture_storage_2d<rgba8snorm, write>;\n"
    "@group(0) @binding(1) var i16: texture_storage_2d<rgba16sint, write>;\n"
    "@group(0) @binding(2) var u16: texture_storage_2d<rgba16uint, write>;\n"
    "@group(0) @binding(3) var f32x4: texture_storage_2d<rgba32float, write>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let c = vec2u(0u);\n"
    "  textureStore(s8, c, vec4f(0.5, -1.5, -0.25, 1.0 / 3.0));\n"
    "  textureStore(i16, c, vec4i(-40000, 40000, -7, 32767));\n"
    "  textureStore(u16, c, vec4u(70000u, 65535u, 0u, 12345u));\n"
    "  textureStore(f32x4, c, vec4f(1.5, -0.0, 1e30, -2.5));\n"
    "}\n";

/* ... and the transfer functions on load: 8snorm v / 127 with -128 -> -1,
 * 16sint sign-extended, 32-bit channels as stored, r32sint (v, 0, 0, 1). */
static const char *more_loads =
    "@group(0) @binding(0) var s8: texture_storage_2d<rgba8snorm, read>;\n"
    "@group(0) @binding(1) var i16: texture_storage_2d<rgba16sint, read>;\n"
    "@group(0) @binding(2) var u32x4: texture_storage_2d<rgba32uint, read>;\n"
    "@group(0) @binding(3) var r: texture_storage_2d<r32sint, read_write>;\n"
    "@group(0) @binding(4) var<storage, read_write> o: array<u32, 16>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  let c = vec2u(0u);\n"
    "  let a = textureLoad(s8, c);\n"
    "  o[0] = bitcast<u32>(a.x); o[1] = bitcast<u32>(a.y); o[2] = bitcast<u32>(a.z); o[3] = bitcast<u32>(a.w);\n"
    "  let b = textureLoad(i16, c);\n"
    "  o[4] = bitcast<u32>(b.x); o[5] = bitcast<u32>(b.y); o[6] = bitcast<u32>(b.z); o[7] = bitcast<u32>(b.w);\n"
    "  let u = textureLoad(u32x4, c);\n"
    "  o[8] = u.x; o[9] = u.y; o[10] = u.z; o[11] = u.w;\n"
    "  let v = textureLoad(r, c);\n"
    "  o[12] = bitcast<u32>(v.y); o[13] = bitcast<u32>(v.z); o[14] = bitcast<u32>(v.w);\n"
    "  textureStore(r, c, vec4i(v.x * 3, 0, 0, 0));\n"
    "}\n";

static void test_more_formats(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *ps = pipeline(d, more_stores);
  ls_compute_pipeline *pl = pipeline(d, more_loads);
  assert_non_null(ps);
  assert_non_null(pl);
  const ls_texture_format sf[4] = {LS_FORMAT_RGBA8SNORM, LS_FORMAT_RGBA16SINT,
                                   LS_FORMAT_RGBA16UINT, LS_FORMAT_RGBA32FLOAT};
  ls_texture *st[4];
  ls_texture_view *sv[4];
  ls_bind_group_entry be[5];
  memset(be, 0, sizeof be);
  for (int i = 0; i < 4; i++) {
    st[i] = tex(d, LS_TEXTURE_DIMENSION_2D, 1, 1, 1, sf[i], 1, TU_ALL);
    sv[i] = ls_texture_create_view(st[i], NULL);
    be[i].binding = (uint32_t)i;
    be[i].texture_view = sv[i];
  }
  assert_int_equal(run(d, ps, be, 4, 1, 1), LS_OK);
  expect_no_error();
  uint8_t px[16];
  read_texture(d, st[0], 0, 0, 1, 1, 4, px);
  assert_int_equal((int8_t)px[0], 64);
  assert_int_equal((int8_t)px[1], -127);
  assert_int_equal((int8_t)px[2], -32);
  assert_int_equal((int8_t)px[3], 42);
  int16_t h[4];
  read_texture(d, st[1], 0, 0, 1, 1, 8, (uint8_t *)h);
  assert_int_equal(h[0], -32768);
  assert_int_equal(h[1], 32767);
  assert_int_equal(h[2], -7);
  assert_int_equal(h[3], 32767);
  uint16_t uh[4];
  read_texture(d, st[2], 0, 0, 1, 1, 8, (uint8_t *)uh);
  assert_int_equal(uh[0], 65535);
  assert_int_equal(uh[1], 65535);
  assert_int_equal(uh[2], 0);
  assert_int_equal(uh[3], 12345);
  uint32_t fw[4];
  read_texture(d, st[3], 0, 0, 1, 1, 16, (uint8_t *)fw);
  assert_int_equal(fw[0], 0x3fc00000); /* 1.5 */
  assert_int_equal(fw[1], 0x80000000); /* -0 */
  float big = 1e30f;
  uint32_t bigw;
  memcpy(&bigw, &big, 4);
  assert_int_equal(fw[2], bigw);
  assert_int_equal(fw[3], 0xc0200000); /* -2.5 */

  /* loads */
  ls_texture *lt[4];
  ls_texture_view *lv[4];
  const ls_texture_format lf[4] = {LS_FORMAT_RGBA8SNORM, LS_FORMAT_RGBA16SINT,
                                   LS_FORMAT_RGBA32UINT, LS_FORMAT_R32SINT};
  const uint8_t snorm[4] = {0x80, 0x81, 0x40, 0x7f};           /* -128, -127, 64, 127 */
  const uint16_t sint16[4] = {0x8000, 0xffff, 0x7fff, 0x0001}; /* -32768, -1, 32767, 1 */
  const uint32_t u32x4[4] = {0, 0xffffffffu, 0x80000000u, 7};
  const int32_t r32 = -5;
  const void *data[4] = {snorm, sint16, u32x4, &r32};
  for (int i = 0; i < 4; i++) {
    lt[i] = tex(d, LS_TEXTURE_DIMENSION_2D, 1, 1, 1, lf[i], 1, TU_ALL);
    ls_texel_copy_texture_info dst = {lt[i], 0, {0, 0, 0}};
    ls_texel_copy_buffer_layout lay = {0, LS_COPY_STRIDE_UNDEFINED, LS_COPY_STRIDE_UNDEFINED};
    assert_int_equal(ls_queue_write_texture(d, &dst, data[i], ls_texture_format_texel_bytes(lf[i]),
                                            &lay, &(ls_extent3d){1, 1, 1}),
                     LS_OK);
    lv[i] = ls_texture_create_view(lt[i], NULL);
    be[i].texture_view = lv[i];
  }
  ls_buffer *o = buffer(d, 64, LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC);
  be[4].binding = 4;
  be[4].buffer = o;
  be[4].size = LS_WHOLE_SIZE;
  assert_int_equal(run(d, pl, be, 5, 1, 1), LS_OK);
  expect_no_error();
  uint32_t ow[16];
  assert_int_equal(ls_queue_read_buffer(d, o, 0, ow, sizeof ow), LS_OK);
  float fv[4];
  memcpy(fv, ow, sizeof fv);
  assert_true(fv[0] == -1.0f && fv[1] == -1.0f && fv[2] == 64.0f / 127.0f && fv[3] == 1.0f);
  assert_int_equal((int32_t)ow[4], -32768);
  assert_int_equal((int32_t)ow[5], -1);
  assert_int_equal((int32_t)ow[6], 32767);
  assert_int_equal((int32_t)ow[7], 1);
  for (int i = 0; i < 4; i++) assert_int_equal(ow[8 + i], u32x4[i]);
  assert_int_equal(ow[12], 0);
  assert_int_equal(ow[13], 0);
  assert_int_equal(ow[14], 1); /* alpha of a one-channel integer format */
  int32_t back;
  read_texture(d, lt[3], 0, 0, 1, 1, 4, (uint8_t *)&back);
  assert_int_equal(back, -15);
  for (int i = 0; i < 4; i++) {
    ls_texture_view_release(sv[i]);
    ls_texture_view_release(lv[i]);
    ls_texture_release(st[i]);
    ls_texture_release(lt[i]);
  }
  ls_buffer_release(o);
  ls_compute_pipeline_release(ps);
  ls_compute_pipeline_release(pl);
  tu_free_env(&e);
}

/* --------------------------------------------- pipelines, submit, refusals */

static void test_pipeline_rules(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  /* an explicit layout whose format differs from the shader's */
  ls_bind_group_layout_entry le = {.binding = 0, .type = LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE,
                                   .format = LS_FORMAT_R32UINT};
  ls_bind_group_layout *bgl = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &bgl, .bind_group_layout_count = 1});
  ls_shader_module_desc sd = {.code = store_unorm, .label = "tex.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  ls_compute_pipeline_desc pd = {.module = m, .layout = pl};
  assert_null(ls_device_create_compute_pipeline(d, &pd));
  expect_error("the layout's format for 'img'");
  le.format = LS_FORMAT_RGBA8UNORM;
  le.view_dimension = LS_VIEW_DIMENSION_2D_ARRAY;
  ls_bind_group_layout *bgl2 = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_pipeline_layout *pl2 = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &bgl2, .bind_group_layout_count = 1});
  pd.layout = pl2;
  assert_null(ls_device_create_compute_pipeline(d, &pd));
  expect_error("the layout's viewDimension for 'img'");
  le.view_dimension = 0;
  ls_bind_group_layout *bgl3 = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = &le, .entry_count = 1});
  ls_pipeline_layout *pl3 = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = &bgl3, .bind_group_layout_count = 1});
  pd.layout = pl3;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  expect_no_error();
  assert_non_null(p);

  /* a destroyed texture in a bind group: submit refuses */
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 4, 2, 1, LS_FORMAT_RGBA8UNORM, 1, TU_ALL);
  ls_texture_view *v = ls_texture_create_view(t, NULL);
  ls_bind_group_entry be = {.binding = 0, .texture_view = v};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = bgl3, .entries = &be, .entry_count = 1});
  assert_non_null(g);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 1, 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  ls_texture_destroy(t);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_VALIDATION);
  ls_command_buffer_release(cb);
  expect_error("uses texture 't', which is destroyed");
  ls_texture_release(t);

  ls_bind_group_release(g);
  ls_texture_view_release(v);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  ls_pipeline_layout_release(pl);
  ls_pipeline_layout_release(pl2);
  ls_pipeline_layout_release(pl3);
  ls_bind_group_layout_release(bgl);
  ls_bind_group_layout_release(bgl2);
  ls_bind_group_layout_release(bgl3);

  tu_free_env(&e);
}

/* One dispatch may not sample (or read through a read-only binding) a
 * texture subresource it also binds as a writable storage texture;
 * disjoint layers are fine. */
static const char *usage_scope =
    "@group(0) @binding(0) var src: texture_2d<f32>;\n"
    "@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  textureStore(dst, vec2u(0u), textureLoad(src, vec2u(0u), 0));\n"
    "}\n";

static void test_usage_scope(void **state) {
  (void)state;
  env e = tu_make_env(2, NULL);
  ls_device *d = e.device;
  ls_compute_pipeline *p = pipeline(d, usage_scope);
  assert_non_null(p);
  ls_texture *t = tex(d, LS_TEXTURE_DIMENSION_2D, 2, 2, 2, LS_FORMAT_RGBA8UNORM, 1, TU_ALL);
  ls_texture_view_desc l0 = {.dimension = LS_VIEW_DIMENSION_2D, .base_array_layer = 0};
  ls_texture_view_desc l1 = {.dimension = LS_VIEW_DIMENSION_2D, .base_array_layer = 1};
  ls_texture_view *v0 = ls_texture_create_view(t, &l0);
  ls_texture_view *v0b = ls_texture_create_view(t, &l0);
  ls_texture_view *v1 = ls_texture_create_view(t, &l1);
  ls_bind_group_entry be[2] = {{.binding = 0, .texture_view = v0}, {.binding = 1, .texture_view = v0b}};
  assert_int_equal(run(d, p, be, 2, 1, 1), LS_VALIDATION);
  expect_error("one dispatch cannot use a texture subresource both ways");
  be[1].texture_view = v1; /* layer 1 written, layer 0 sampled */
  assert_int_equal(run(d, p, be, 2, 1, 1), LS_OK);
  expect_no_error();
  ls_texture_view_release(v0);
  ls_texture_view_release(v0b);
  ls_texture_view_release(v1);
  ls_texture_release(t);
  ls_compute_pipeline_release(p);
  tu_free_env(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_formats),
      cmocka_unit_test(test_create_texture),
      cmocka_unit_test(test_views),
      cmocka_unit_test(test_view_formats),
      cmocka_unit_test(test_layouts_and_groups),
      cmocka_unit_test(test_write_and_copy),
      cmocka_unit_test(test_copy_texture_to_texture),
      cmocka_unit_test(test_store_unorm),
      cmocka_unit_test(test_read_write_r32float),
      cmocka_unit_test(test_write_variable_read_write_layout),
      cmocka_unit_test(test_sampled_array),
      cmocka_unit_test(test_f16_1d_3d),
      cmocka_unit_test(test_int_formats),
      cmocka_unit_test(test_int_formats_run),
      cmocka_unit_test(test_pipeline_rules),
      cmocka_unit_test(test_usage_scope),
      cmocka_unit_test(test_more_formats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
