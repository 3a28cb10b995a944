/*
 * texture.c — GPUTexture, GPUTextureView and GPUExternalTexture: creation
 * from converted descriptors, destroy(), createView, and
 * importExternalTexture (which in Node.js, having no video frames, imports a
 * GPUTextureView or GPUTexture as lockstep's C API does).
 */
#include "addon.h"

#include <stdlib.h>

static const char *const dimension_names[] = {"2d", "1d", "3d", NULL};
static const char *const view_dimension_names[] = {"", "1d", "2d", "2d-array", "cube",
                                                   "cube-array", "3d", NULL};
static const char *const aspect_names[] = {"all", "stencil-only", "depth-only", NULL};

static ls_texture_format format_of(napi_env env, napi_value v) {
  char *s = nd_get_str(env, v);
  ls_texture_format f = s ? ls_texture_format_from_name(s) : LS_FORMAT_UNDEFINED;
  free(s);
  return f;
}

/* textureCreate(js, device, desc): desc {size: [w, h, d], mipLevelCount,
 * sampleCount, dimension, format, usage, label}. True when made. A format
 * lockstep lacks (compressed ones) reaches lockstep as undefined, which it
 * refuses with a validation error. */
ND_FN(texture_create) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  napi_value desc = argv[2];
  ls_extent3d size;
  nd_extent(env, nd_prop(env, desc, "size"), &size);
  char *label = nd_get_str(env, nd_prop(env, desc, "label"));
  /* viewFormats: at most one of each format matters; more entries are
   * repeats, which lockstep accepts as WebGPU does */
  napi_value vfs = nd_prop(env, desc, "viewFormats");
  uint32_t nvf = 0;
  bool is_array = false;
  if (napi_is_array(env, vfs, &is_array) == napi_ok && is_array) napi_get_array_length(env, vfs, &nvf);
  ls_texture_format *view_formats = calloc(nvf + 1, sizeof *view_formats);
  if (!view_formats) {
    free(label);
    return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  }
  for (uint32_t i = 0; i < nvf; i++) {
    napi_value f;
    napi_get_element(env, vfs, i, &f);
    view_formats[i] = format_of(env, f);
  }
  ls_texture_desc td = {
    .struct_size = LS_STRUCT_SIZE(ls_texture_desc),
    .view_formats = view_formats,
    .view_format_count = nvf,
    .dimension = nd_enum(env, nd_prop(env, desc, "dimension"), dimension_names, NULL, 0),
    .size = size,
    .format = format_of(env, nd_prop(env, desc, "format")),
    .mip_level_count = nd_get_u32(env, nd_prop(env, desc, "mipLevelCount")),
    .sample_count = nd_get_u32(env, nd_prop(env, desc, "sampleCount")),
    .usage = nd_get_u32(env, nd_prop(env, desc, "usage")),
    .label = label,
  };
  ls_texture *t = ls_device_create_texture(d->h, &td);
  free(label);
  free(view_formats);
  if (!t) return nd_bool(env, 0);
  nd_obj *o = nd_wrap(env, argv[0], ND_TEXTURE, t, d);
  if (!o) return NULL;
  uint64_t bytes = (uint64_t)size.width * size.height * size.depth_or_array_layers *
                   ls_texture_format_texel_bytes(td.format);
  nd_external_memory(env, o, (int64_t)bytes);
  return nd_bool(env, 1);
}

ND_FN(texture_destroy) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  nd_obj *o = nd_unwrap(env, argv[0], ND_TEXTURE);
  if (o && o->h) {
    ls_texture_destroy(o->h);
    if (o->ext_bytes) nd_external_memory(env, o, -o->ext_bytes);
  }
  return nd_undefined(env);
}

/* textureCreateView(jsView, texture, desc): desc as GPUTextureViewDescriptor
 * after conversion (absent members undefined). True when made. */
ND_FN(texture_create_view) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  nd_obj *t = nd_unwrap(env, argv[1], ND_TEXTURE);
  if (!t || !t->h) return nd_bool(env, 0);
  napi_value desc = argv[2];
  char *label = nd_get_str(env, nd_prop(env, desc, "label"));
  ls_texture_view_desc vd = {
    .struct_size = LS_STRUCT_SIZE(ls_texture_view_desc),
    .format = format_of(env, nd_prop(env, desc, "format")),
    .dimension = nd_enum(env, nd_prop(env, desc, "dimension"), view_dimension_names, NULL, 0),
    .base_mip_level = nd_get_u32(env, nd_prop(env, desc, "baseMipLevel")),
    .mip_level_count = nd_get_u32(env, nd_prop(env, desc, "mipLevelCount")),
    .base_array_layer = nd_get_u32(env, nd_prop(env, desc, "baseArrayLayer")),
    .array_layer_count = nd_get_u32(env, nd_prop(env, desc, "arrayLayerCount")),
    .usage = nd_get_u32(env, nd_prop(env, desc, "usage")),
    .label = label,
    .aspect = nd_enum(env, nd_prop(env, desc, "aspect"), aspect_names, NULL, 0),
  };
  ls_texture_view *v = ls_texture_create_view(t->h, &vd);
  free(label);
  if (!v) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_TEXTURE_VIEW, v, t->dev) != NULL);
}

/* importExternalTexture(js, device, view, label) */
ND_FN(import_external_texture) {
  napi_value argv[4];
  if (!nd_args(env, info, 4, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  ls_texture_view *v = nd_handle(env, argv[2], ND_TEXTURE_VIEW);
  if (!d) return nd_bool(env, 0);
  char *label = nd_get_str(env, argv[3]);
  ls_external_texture_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_external_texture_desc),
    .view = v,
    .label = label,
  };
  ls_external_texture *e = ls_device_import_external_texture(d->h, &desc);
  free(label);
  if (!e) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_EXTERNAL_TEXTURE, e, d) != NULL);
}

/* formatTexelBytes(name): bytes per texel (0 when lockstep lacks the
 * format), for copyTextureToTexture's staging buffer. */
ND_FN(format_texel_bytes) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  return nd_u32(env, ls_texture_format_texel_bytes(format_of(env, argv[0])));
}

const nd_export nd_exports_texture[] = {
  {"formatTexelBytes", format_texel_bytes},
  {"textureCreate", texture_create},
  {"textureDestroy", texture_destroy},
  {"textureCreateView", texture_create_view},
  {"importExternalTexture", import_external_texture},
  {NULL, NULL},
};
