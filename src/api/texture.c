/*
 * texture.c — textures and texture views: createTexture, createView,
 * queue.writeTexture, and the validation and byte moving that the
 * encoder's buffer <-> texture copies share with writeTexture. Creation
 * and copies check WebGPU's rules (validating GPUTextureDescriptor,
 * createView, validating texture buffer copy / linear texture data) and
 * report through the error model; nothing here aborts.
 *
 * Memory: a texture is one zeroed allocation, its mip levels one after
 * another, each level its slices (array layers, or the depth of a 3D
 * texture), each slice its rows of tightly packed texels. A view is a
 * window on it that the VM reads through a vm_texture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

#define S_(t) (1u << LS_SAMPLE_##t)

/* The capability columns of vm/formats.def, WebGPU's texture format
 * capabilities table; the names come from LS_TEXTURE_FORMAT_LIST. */
#define SMP_F (S_(FLOAT) | S_(UNFILTERABLE_FLOAT))
#define SMP_UF S_(UNFILTERABLE_FLOAT)
#define SMP_UF32 S_(UNFILTERABLE_FLOAT)
#define SMP_U S_(UINT)
#define SMP_S S_(SINT)
#define SMP_D (S_(DEPTH) | S_(UNFILTERABLE_FLOAT))
#define ST_0 0
#define ST_W API_ST_W
#define ST_WR (API_ST_W | API_ST_R)
#define ST_WRRW (API_ST_W | API_ST_R | API_ST_RW)
#define NEED_NONE 0
#define NEED_TIER1 API_FEATURE_TIER1
#define NEED_D32S8 API_FEATURE_DEPTH32FLOAT_STENCIL8
#define CP_SD (API_COPY_SRC | API_COPY_DST)
#define CP_S API_COPY_SRC
#define CP_NO 0
#define ASP_COLOR 0
#define ASP_DEPTH API_ASPECT_DEPTH
#define ASP_STENCIL API_ASPECT_STENCIL
#define ASP_DS (API_ASPECT_DEPTH | API_ASPECT_STENCIL)
#define F32F_UF32 1
#define F32F_F 0
#define F32F_UF 0
#define F32F_U 0
#define F32F_S 0
#define F32F_D 0

static const api_texfmt api_formats[LS_FORMAT_COUNT_] = {
#define X(n, bytes, codec, ch, order, smp, core, t1, t2, bgra, need, copy, asp)                  \
  [LS_FORMAT_##n] = {bytes, SMP_##smp, F32F_##smp, {ST_##core, ST_##t1, ST_##t2, ST_##bgra}, \
                     NEED_##need, CP_##copy, ASP_##asp},
#include "../vm/formats.def"
#undef X
};

static const char *const api_format_names[LS_FORMAT_COUNT_] = {
#define X(n, s) [LS_FORMAT_##n] = s,
    LS_TEXTURE_FORMAT_LIST(X)
#undef X
};

/* the feature of each column of api_texfmt.storage */
static const uint32_t api_storage_features[4] = {API_FEATURE_CORE, API_FEATURE_TIER1,
                                                 API_FEATURE_TIER2,
                                                 API_FEATURE_BGRA8UNORM_STORAGE};

const api_texfmt *api_format_info(ls_texture_format f) {
  if ((unsigned)f == LS_FORMAT_UNDEFINED || (unsigned)f >= LS_FORMAT_COUNT_) return NULL;
  return &api_formats[f];
}

uint32_t api_format_storage(const ls_device *d, const api_texfmt *f) {
  uint32_t m = 0;
  for (int k = 0; k < 4; k++)
    if (d->features & api_storage_features[k]) m |= f->storage[k];
  return m;
}

/* The RENDER_ATTACHMENT and multisampling columns of WebGPU's format
 * capability tables (plain color, packed, depth-stencil), on a device with
 * core-features-and-limits: every format renders but rgb9e5ufloat, the
 * snorm8 formats with "texture-formats-tier1", rg11b10ufloat with
 * "rg11b10ufloat-renderable"; a renderable format multisamples but the
 * 32-bit-per-channel integer formats and the rg32 / rgba32 ones. */
int api_format_renderable(const ls_device *d, ls_texture_format f) {
  switch (f) {
  case LS_FORMAT_RGB9E5UFLOAT: return 0;
  case LS_FORMAT_R8SNORM:
  case LS_FORMAT_RG8SNORM:
  case LS_FORMAT_RGBA8SNORM: return (d->features & API_FEATURE_TIER1) != 0;
  case LS_FORMAT_RG11B10UFLOAT: return (d->features & API_FEATURE_RG11B10_RENDERABLE) != 0;
  default: return api_format_info(f) != NULL;
  }
}

int api_format_multisample(ls_texture_format f) {
  switch (f) {
  case LS_FORMAT_R32UINT: case LS_FORMAT_R32SINT:
  case LS_FORMAT_RG32UINT: case LS_FORMAT_RG32SINT: case LS_FORMAT_RG32FLOAT:
  case LS_FORMAT_RGBA32UINT: case LS_FORMAT_RGBA32SINT: case LS_FORMAT_RGBA32FLOAT:
    return 0;
  default: return 1; /* with api_format_renderable, which createTexture checks first */
  }
}

uint32_t api_format_sample_types(const ls_device *d, const api_texfmt *f) {
  uint32_t s = f->sample_types;
  if (f->filterable32 && (d->features & API_FEATURE_FLOAT32_FILTERABLE)) s |= S_(FLOAT);
  return s;
}

const char *api_format_storage_why(const api_texfmt *f, uint32_t access) {
  static const char *const why[4] = {
      NULL, "(needs the \"texture-formats-tier1\" feature)",
      "(needs the \"texture-formats-tier2\" feature)", "(needs the \"bgra8unorm-storage\" feature)"};
  for (int k = 1; k < 4; k++)
    if (f->storage[k] & access) return why[k];
  return f->storage[0] | f->storage[1] | f->storage[2] | f->storage[3]
             ? "(no feature allows that access for it)"
             : "(it is not a storage format)";
}

/* The aspect-specific formats of WebGPU's depth-stencil format table. */
ls_texture_format api_aspect_format(ls_texture_format f, ls_texture_aspect a) {
  const api_texfmt *i = api_format_info(f);
  if (!i || a == LS_ASPECT_ALL) return i ? f : LS_FORMAT_UNDEFINED;
  const uint32_t want = a == LS_ASPECT_DEPTH_ONLY ? API_ASPECT_DEPTH : API_ASPECT_STENCIL;
  if (!(i->aspects & want) || (a != LS_ASPECT_DEPTH_ONLY && a != LS_ASPECT_STENCIL_ONLY))
    return LS_FORMAT_UNDEFINED;
  if (i->aspects != (API_ASPECT_DEPTH | API_ASPECT_STENCIL)) return f;
  if (a == LS_ASPECT_STENCIL_ONLY) return LS_FORMAT_STENCIL8;
  return f == LS_FORMAT_DEPTH24PLUS_STENCIL8 ? LS_FORMAT_DEPTH24PLUS : LS_FORMAT_DEPTH32FLOAT;
}

/* Where an aspect's bytes sit in a texel of format f: a combined format
 * holds its depth in bytes 0-3 and its stencil in byte 4 (formats.def). */
static uint32_t api_aspect_offset(ls_texture_format f, ls_texture_aspect a) {
  const api_texfmt *i = api_format_info(f);
  return i && i->aspects == (API_ASPECT_DEPTH | API_ASPECT_STENCIL) && a == LS_ASPECT_STENCIL_ONLY
             ? 4
             : 0;
}

int api_formats_srgb_pair(ls_texture_format a, ls_texture_format b) {
  if (a == b) return 1;
  const char *x = ls_texture_format_name(a), *y = ls_texture_format_name(b);
  if (!x || !y) return 0;
  const size_t n = strlen(x), m = strlen(y);
  if (n + 5 == m) return !strncmp(x, y, n) && !strcmp(y + n, "-srgb");
  if (m + 5 == n) return !strncmp(x, y, m) && !strcmp(x + m, "-srgb");
  return 0;
}

const char *api_aspect_name(ls_texture_aspect a) {
  return a == LS_ASPECT_ALL ? "all" : a == LS_ASPECT_STENCIL_ONLY ? "stencil-only"
                                    : a == LS_ASPECT_DEPTH_ONLY   ? "depth-only"
                                                                  : "(unknown)";
}

const char *api_storage_access_name(uint32_t access) {
  return access == API_ST_W ? "write-only" : access == API_ST_R ? "read-only" : "read-write";
}

uint32_t api_storage_access(ls_binding_type type) {
  return type == LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE   ? API_ST_W
         : type == LS_BINDING_READ_ONLY_STORAGE_TEXTURE  ? API_ST_R
         : type == LS_BINDING_READ_WRITE_STORAGE_TEXTURE ? API_ST_RW
                                                         : 0;
}

ls_texture_format ls_texture_format_from_name(const char *name) {
  if (!name) return LS_FORMAT_UNDEFINED;
  for (unsigned f = 1; f < LS_FORMAT_COUNT_; f++)
    if (!strcmp(api_format_names[f], name)) return (ls_texture_format)f;
  return LS_FORMAT_UNDEFINED;
}

const char *ls_texture_format_name(ls_texture_format f) {
  return api_format_info(f) ? api_format_names[f] : NULL;
}

uint32_t ls_texture_format_texel_bytes(ls_texture_format f) {
  const api_texfmt *i = api_format_info(f);
  return i ? i->texel_bytes : 0;
}

uint32_t ls_texture_format_sample_types(ls_texture_format f) {
  const api_texfmt *i = api_format_info(f);
  return i ? i->sample_types : 0;
}

const char *api_view_dimension_name(ls_view_dimension d) {
  static const char *const n[] = {"undefined", "1d", "2d", "2d-array", "cube", "cube-array", "3d"};
  return (unsigned)d < sizeof n / sizeof n[0] ? n[d] : "(unknown)";
}

/* ------------------------------------------------------------- textures */

void api_texture_ref(ls_texture *t) {
  if (t) API_REF(t);
}

void api_texture_unref(ls_texture *t) {
  if (!t || !API_UNREF_LAST(t)) return;
  ls_device *d = t->device;
  free(t->data);
  free(t->label);
  API_FREE_HANDLE(t);
  api_device_unref(d);
}

const char *api_texture_name(const ls_texture *t) {
  return t && t->label && *t->label ? t->label : "(unlabelled)";
}

static uint32_t api_shift(uint32_t v, uint32_t level) {
  v = level < 32 ? v >> level : 0;
  return v ? v : 1;
}

ls_extent3d api_texture_level_size(const ls_texture *t, uint32_t level) {
  ls_extent3d e = {api_shift(t->size.width, level), 1, t->size.depth_or_array_layers};
  if (t->dimension != LS_TEXTURE_DIMENSION_1D) e.height = api_shift(t->size.height, level);
  if (t->dimension == LS_TEXTURE_DIMENSION_3D) e.depth_or_array_layers = api_shift(e.depth_or_array_layers, level);
  return e;
}

/* WebGPU's maximum mipLevel count: 1 + floor(log2(the largest extent that
 * mips)). */
static uint32_t api_max_levels(ls_texture_dimension dim, const ls_extent3d *s) {
  uint32_t m = s->width;
  if (dim == LS_TEXTURE_DIMENSION_1D) return 1;
  if (s->height > m) m = s->height;
  if (dim == LS_TEXTURE_DIMENSION_3D && s->depth_or_array_layers > m) m = s->depth_or_array_layers;
  uint32_t n = 0;
  while (m) {
    n++;
    m >>= 1;
  }
  return n;
}

ls_texture *ls_device_create_texture(ls_device *device, const ls_texture_desc *user_desc) {
  if (api_device_dead(device)) return NULL;
  ls_texture_desc dd;
  if (!user_desc || !API_DESC(dd, user_desc)) {
    api_validation(device, "createTexture: %s", user_desc ? API_DESC_NEWER : "no descriptor");
    return NULL;
  }
  const ls_texture_desc *desc = &dd;
  const char *name = api_label(desc->label, "(unlabelled)");
  const ls_limits *lim = &device->limits;
  const ls_extent3d s = desc->size;
  const uint32_t levels = desc->mip_level_count ? desc->mip_level_count : 1;
  const uint32_t samples = desc->sample_count ? desc->sample_count : 1;
  const api_texfmt *fi = api_format_info(desc->format);
  const uint32_t known = LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST |
                         LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_STORAGE_BINDING |
                         LS_TEXTURE_USAGE_RENDER_ATTACHMENT;
#define FAIL_(...)                                                             \
  do {                                                                         \
    api_validation(device, __VA_ARGS__);                                       \
    return NULL;                                                               \
  } while (0)
  if (!fi) FAIL_("createTexture '%s': format %d is not a texture format lockstep knows", name, (int)desc->format);
  const char *fname = ls_texture_format_name(desc->format);
  if (fi->needs & ~device->features)
    /* WebGPU throws a TypeError here ("validate texture format required
     * features"); lockstep reports it as a validation error */
    FAIL_("createTexture '%s': format %s needs the \"%s\" feature", name, fname,
          fi->needs == API_FEATURE_TIER1 ? "texture-formats-tier1" : "depth32float-stencil8");
  if (desc->usage == 0) FAIL_("createTexture '%s': usage is 0", name);
  if (desc->usage & ~known) FAIL_("createTexture '%s': usage 0x%x has unknown bits", name, desc->usage);
  if ((desc->usage & LS_TEXTURE_USAGE_RENDER_ATTACHMENT) && !api_format_renderable(device, desc->format))
    FAIL_("createTexture '%s': format %s is not renderable, so it cannot have RENDER_ATTACHMENT "
          "usage", name, fname);
  if ((desc->usage & LS_TEXTURE_USAGE_RENDER_ATTACHMENT) && desc->dimension == LS_TEXTURE_DIMENSION_1D)
    FAIL_("createTexture '%s': a 1d texture cannot have RENDER_ATTACHMENT usage", name);
  if ((desc->usage & LS_TEXTURE_USAGE_STORAGE_BINDING) && !api_format_storage(device, fi))
    FAIL_("createTexture '%s': format %s does not allow STORAGE_BINDING usage %s", name, fname,
          api_format_storage_why(fi, API_ST_W | API_ST_R));
  if (fi->aspects && (desc->dimension == LS_TEXTURE_DIMENSION_1D ||
                     desc->dimension == LS_TEXTURE_DIMENSION_3D))
    FAIL_("createTexture '%s': a %s texture cannot have the depth-or-stencil format %s", name,
          desc->dimension == LS_TEXTURE_DIMENSION_1D ? "1d" : "3d", fname);
  if (s.width == 0 || s.height == 0 || s.depth_or_array_layers == 0)
    FAIL_("createTexture '%s': size (%u, %u, %u) has a zero extent", name, s.width, s.height,
          s.depth_or_array_layers);
  if (samples != 1 && samples != 4) FAIL_("createTexture '%s': sampleCount %u is not 1 or 4", name, samples);
  switch (desc->dimension) {
  case LS_TEXTURE_DIMENSION_1D:
    if (s.width > lim->max_texture_dimension_1d)
      FAIL_("createTexture '%s': width %u exceeds maxTextureDimension1D (%llu)", name, s.width,
            (unsigned long long)lim->max_texture_dimension_1d);
    if (s.height != 1 || s.depth_or_array_layers != 1)
      FAIL_("createTexture '%s': a 1d texture must have height and depthOrArrayLayers 1 (got %u, "
            "%u)", name, s.height, s.depth_or_array_layers);
    if (samples != 1) FAIL_("createTexture '%s': a 1d texture must have sampleCount 1", name);
    break;
  case LS_TEXTURE_DIMENSION_2D:
    if (s.width > lim->max_texture_dimension_2d || s.height > lim->max_texture_dimension_2d)
      FAIL_("createTexture '%s': %ux%u exceeds maxTextureDimension2D (%llu)", name, s.width,
            s.height, (unsigned long long)lim->max_texture_dimension_2d);
    if (s.depth_or_array_layers > lim->max_texture_array_layers)
      FAIL_("createTexture '%s': %u array layers exceed maxTextureArrayLayers (%llu)", name,
            s.depth_or_array_layers, (unsigned long long)lim->max_texture_array_layers);
    break;
  case LS_TEXTURE_DIMENSION_3D:
    if (s.width > lim->max_texture_dimension_3d || s.height > lim->max_texture_dimension_3d ||
        s.depth_or_array_layers > lim->max_texture_dimension_3d)
      FAIL_("createTexture '%s': %ux%ux%u exceeds maxTextureDimension3D (%llu)", name, s.width,
            s.height, s.depth_or_array_layers, (unsigned long long)lim->max_texture_dimension_3d);
    if (samples != 1) FAIL_("createTexture '%s': a 3d texture must have sampleCount 1", name);
    break;
  default:
    FAIL_("createTexture '%s': dimension %d is not 1d, 2d or 3d", name, (int)desc->dimension);
  }
  if (samples > 1) {
    if (levels != 1) FAIL_("createTexture '%s': a multisampled texture must have mipLevelCount 1", name);
    if (s.depth_or_array_layers != 1)
      FAIL_("createTexture '%s': a multisampled texture must have depthOrArrayLayers 1", name);
    if (desc->usage & LS_TEXTURE_USAGE_STORAGE_BINDING)
      FAIL_("createTexture '%s': a multisampled texture cannot have STORAGE_BINDING usage", name);
    if (!(desc->usage & LS_TEXTURE_USAGE_RENDER_ATTACHMENT))
      FAIL_("createTexture '%s': sampleCount %u needs RENDER_ATTACHMENT usage", name, samples);
    if (!api_format_multisample(desc->format))
      FAIL_("createTexture '%s': format %s does not support multisampling", name, fname);
  }
  _Static_assert(LS_FORMAT_COUNT_ <= 64, "ls_texture.view_formats is a 64-bit set");
  uint64_t view_formats = 0;
  if (desc->view_format_count && !desc->view_formats)
    FAIL_("createTexture '%s': %zu viewFormats but no array", name, desc->view_format_count);
  for (size_t i = 0; i < desc->view_format_count; i++) {
    const ls_texture_format vf = desc->view_formats[i];
    if (!api_format_info(vf))
      FAIL_("createTexture '%s': viewFormats[%zu] (%d) is not a texture format lockstep knows",
            name, i, (int)vf);
    if (!api_formats_srgb_pair(desc->format, vf))
      FAIL_("createTexture '%s': viewFormats[%zu] %s is not view-compatible with format %s "
            "(equal, or differing only in -srgb)", name, i, ls_texture_format_name(vf), fname);
    view_formats |= 1ull << vf;
  }
  uint32_t maxl = api_max_levels(desc->dimension, &s);
  if (levels > maxl)
    FAIL_("createTexture '%s': mipLevelCount %u exceeds the maximum mipLevel count %u for size "
          "(%u, %u, %u)", name, levels, maxl, s.width, s.height, s.depth_or_array_layers);
#undef FAIL_
  ls_texture *t = calloc(1, sizeof *t);
  if (!t) goto oom;
  t->dimension = desc->dimension;
  t->size = s;
  t->format = desc->format;
  t->levels = levels;
  t->usage = desc->usage;
  t->texel_bytes = fi->texel_bytes;
  t->samples = samples;
  t->view_formats = view_formats;
  uint64_t off = 0;
  for (uint32_t l = 0; l < levels; l++) {
    ls_extent3d e = api_texture_level_size(t, l);
    t->level_offset[l] = off;
    /* each factor is at most 2^14 and the texel 16 bytes: no overflow */
    off += (uint64_t)e.width * e.height * e.depth_or_array_layers * t->texel_bytes * samples;
  }
  t->bytes = off;
  if (off > SIZE_MAX || !(t->data = calloc(1, (size_t)off)) ||
      (desc->label && !api_label_init(&t->label, desc->label))) {
    free(t->data);
    free(t);
    goto oom;
  }
  t->refs = 1;
  t->device = device;
  api_device_ref(device);
  return t;
oom:
  api_error(device, LS_ERROR_OUT_OF_MEMORY, "createTexture '%s': out of memory", name);
  return NULL;
}

static void api_texture_free_memory(ls_device *d, void *arg) {
  ls_texture *t = arg;
  free(t->data);
  t->data = NULL;
  api_texture_unref(t);
}

void ls_texture_destroy(ls_texture *texture) {
  if (!texture) return;
  ls_device *d = texture->device;
  /* as GPUTexture.destroy(): a later submit that uses the texture is a
   * validation error; the memory goes once queued work is done with it */
  API_LOCK(d);
  if (!texture->destroyed) {
    texture->destroyed = 1;
    int later = 0;
    if (api_timeline_busy_locked(d)) {
      api_texture_ref(texture);
      later = api_timeline_push_locked(d, api_texture_free_memory, api_texture_free_memory,
                                       texture) != 0;
      if (!later) atomic_fetch_sub(&texture->refs, 1);
    }
    if (!later) {
      free(texture->data);
      texture->data = NULL;
    }
  }
  API_UNLOCK(d);
}

void ls_texture_release(ls_texture *texture) { api_texture_unref(texture); }

void ls_texture_set_label(ls_texture *texture, const char *label) {
  if (texture) api_set_label(texture->device, &texture->label, label);
}

void ls_texture_view_set_label(ls_texture_view *view, const char *label) {
  if (view) api_set_label(view->device, &view->label, label);
}

void ls_external_texture_set_label(ls_external_texture *texture, const char *label) {
  if (texture) api_set_label(texture->device, &texture->label, label);
}

void ls_texture_get_size(const ls_texture *texture, ls_extent3d *out) {
  if (!out) return;
  if (texture) *out = texture->size;
  else memset(out, 0, sizeof *out);
}

ls_texture_format ls_texture_get_format(const ls_texture *texture) {
  return texture ? texture->format : LS_FORMAT_UNDEFINED;
}

uint32_t ls_texture_get_mip_level_count(const ls_texture *texture) {
  return texture ? texture->levels : 0;
}

uint32_t ls_texture_get_usage(const ls_texture *texture) { return texture ? texture->usage : 0; }

/* ---------------------------------------------------------------- views */

void api_texture_view_ref(ls_texture_view *v) {
  if (v) API_REF(v);
}

void api_texture_view_unref(ls_texture_view *v) {
  if (!v || !API_UNREF_LAST(v)) return;
  ls_device *d = v->device;
  api_texture_unref(v->texture);
  free(v->label);
  API_FREE_HANDLE(v);
  api_device_unref(d);
}

ls_texture_view *ls_texture_create_view(ls_texture *texture, const ls_texture_view_desc *desc) {
  if (!texture || api_device_dead(texture->device)) return NULL;
  ls_device *device = texture->device;
  ls_texture_view_desc r;
  if (!API_DESC(r, desc)) {
    api_validation(device, "createView: %s", API_DESC_NEWER);
    return NULL;
  }
  const char *name = api_texture_name(texture);
  /* resolving GPUTextureViewDescriptor defaults */
  if (!r.format) {
    const ls_texture_format af = api_aspect_format(texture->format, r.aspect);
    r.format = af ? af : texture->format;
  }
  if (!r.mip_level_count && r.base_mip_level < texture->levels)
    r.mip_level_count = texture->levels - r.base_mip_level;
  const uint32_t tex_layers =
      texture->dimension == LS_TEXTURE_DIMENSION_2D ? texture->size.depth_or_array_layers : 1;
  if (!r.dimension)
    r.dimension = texture->dimension == LS_TEXTURE_DIMENSION_1D   ? LS_VIEW_DIMENSION_1D
                  : texture->dimension == LS_TEXTURE_DIMENSION_3D ? LS_VIEW_DIMENSION_3D
                  : tex_layers == 1                               ? LS_VIEW_DIMENSION_2D
                                                                  : LS_VIEW_DIMENSION_2D_ARRAY;
  if (!r.array_layer_count) {
    if (r.dimension == LS_VIEW_DIMENSION_CUBE) r.array_layer_count = 6;
    else if (r.dimension == LS_VIEW_DIMENSION_2D_ARRAY || r.dimension == LS_VIEW_DIMENSION_CUBE_ARRAY)
      r.array_layer_count = r.base_array_layer < tex_layers ? tex_layers - r.base_array_layer : 0;
    else r.array_layer_count = 1;
  }
  if (!r.usage) r.usage = texture->usage;
#define FAIL_(...)                                                             \
  do {                                                                         \
    api_validation(device, __VA_ARGS__);                                       \
    return NULL;                                                               \
  } while (0)
  const ls_texture_format aspect_format = api_aspect_format(texture->format, r.aspect);
  if (!aspect_format)
    FAIL_("createView of texture '%s': aspect \"%s\" is not present in format %s", name,
          api_aspect_name(r.aspect), ls_texture_format_name(texture->format));
  if (r.aspect == LS_ASPECT_ALL && r.format != texture->format &&
      ((unsigned)r.format >= 64 || !(texture->view_formats >> r.format & 1)))
    FAIL_("createView of texture '%s': format %s is neither the texture's format %s nor one of "
          "its viewFormats", name,
          ls_texture_format_name(r.format) ? ls_texture_format_name(r.format) : "(unknown)",
          ls_texture_format_name(texture->format));
  if (r.aspect != LS_ASPECT_ALL && r.format != aspect_format)
    FAIL_("createView of texture '%s': format %s is not %s, the format of aspect \"%s\" of %s",
          name, ls_texture_format_name(r.format) ? ls_texture_format_name(r.format) : "(unknown)",
          ls_texture_format_name(aspect_format), api_aspect_name(r.aspect),
          ls_texture_format_name(texture->format));
  if (r.usage & ~texture->usage)
    FAIL_("createView of texture '%s': usage 0x%x is not a subset of the texture's 0x%x", name,
          r.usage, texture->usage);
  if (r.mip_level_count == 0 || r.base_mip_level + (uint64_t)r.mip_level_count > texture->levels)
    FAIL_("createView of texture '%s': mip levels [%u, %u + %u) are outside the texture's %u", name,
          r.base_mip_level, r.base_mip_level, r.mip_level_count, texture->levels);
  if (r.array_layer_count == 0 || r.base_array_layer + (uint64_t)r.array_layer_count > tex_layers)
    FAIL_("createView of texture '%s': array layers [%u, %u + %u) are outside the texture's %u",
          name, r.base_array_layer, r.base_array_layer, r.array_layer_count, tex_layers);
  int ok = 1, one = 0;
  switch (r.dimension) {
  case LS_VIEW_DIMENSION_1D: ok = texture->dimension == LS_TEXTURE_DIMENSION_1D; one = 1; break;
  case LS_VIEW_DIMENSION_2D: ok = texture->dimension == LS_TEXTURE_DIMENSION_2D; one = 1; break;
  case LS_VIEW_DIMENSION_2D_ARRAY: ok = texture->dimension == LS_TEXTURE_DIMENSION_2D; break;
  case LS_VIEW_DIMENSION_CUBE:
  case LS_VIEW_DIMENSION_CUBE_ARRAY:
    ok = texture->dimension == LS_TEXTURE_DIMENSION_2D;
    if (ok && (r.dimension == LS_VIEW_DIMENSION_CUBE ? r.array_layer_count != 6
                                                       : r.array_layer_count % 6))
      FAIL_("createView of texture '%s': a %s view needs %s array layers (got %u)", name,
            api_view_dimension_name(r.dimension),
            r.dimension == LS_VIEW_DIMENSION_CUBE ? "6" : "a multiple of 6", r.array_layer_count);
    if (ok && texture->size.width != texture->size.height)
      FAIL_("createView of texture '%s': a %s view needs a square texture (%ux%u)", name,
            api_view_dimension_name(r.dimension), texture->size.width, texture->size.height);
    break;
  case LS_VIEW_DIMENSION_3D: ok = texture->dimension == LS_TEXTURE_DIMENSION_3D; one = 1; break;
  default: FAIL_("createView of texture '%s': bad view dimension %d", name, (int)r.dimension);
  }
  if (!ok)
    FAIL_("createView of texture '%s': a %s view needs a %s texture", name,
          api_view_dimension_name(r.dimension),
          r.dimension == LS_VIEW_DIMENSION_1D ? "1d" : r.dimension == LS_VIEW_DIMENSION_3D ? "3d" : "2d");
  if (one && r.array_layer_count != 1)
    FAIL_("createView of texture '%s': a %s view has exactly 1 array layer (got %u)", name,
          api_view_dimension_name(r.dimension), r.array_layer_count);
  if (texture->samples > 1 && r.dimension != LS_VIEW_DIMENSION_2D)
    FAIL_("createView of texture '%s': a view of a multisampled texture is \"2d\", not \"%s\"",
          name, api_view_dimension_name(r.dimension));
#undef FAIL_
  ls_texture_view *v = calloc(1, sizeof *v);
  if (!v || (r.label && !api_label_init(&v->label, r.label))) {
    free(v);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createView of texture '%s': out of memory", name);
    return NULL;
  }
  v->device = device;
  api_device_ref(device);
  v->refs = 1;
  v->texture = texture;
  api_texture_ref(texture);
  v->format = r.format;
  v->aspect = r.aspect;
  v->dimension = r.dimension;
  v->base_level = r.base_mip_level;
  v->levels = r.mip_level_count;
  v->base_layer = r.base_array_layer;
  v->layers = r.array_layer_count;
  v->usage = r.usage;
  return v;
}

void ls_texture_view_release(ls_texture_view *view) { api_texture_view_unref(view); }

void api_texture_view_to_vm(const ls_texture_view *v, vm_texture *out) {
  const ls_texture *t = v->texture;
  memset(out, 0, sizeof *out);
  /* one aspect of a combined format: its bytes within each texel */
  out->data = t->data + api_aspect_offset(t->format, v->aspect);
  out->format = (uint32_t)v->format;
  out->texel_bytes = t->texel_bytes;
  out->levels = v->levels;
  out->layers = v->layers;
  out->samples = t->samples;
  for (uint32_t i = 0; i < v->levels && i < VM_TEX_LEVELS; i++) {
    const uint32_t l = v->base_level + i;
    const ls_extent3d e = api_texture_level_size(t, l);
    const uint64_t row = (uint64_t)e.width * t->texel_bytes, slice = row * e.height;
    out->level[i].w = e.width;
    out->level[i].h = e.height;
    out->level[i].row = row;
    out->level[i].slice = slice;
    if (t->dimension == LS_TEXTURE_DIMENSION_3D) {
      out->level[i].d = e.depth_or_array_layers;
      out->level[i].offset = t->level_offset[l];
    } else {
      out->level[i].d = v->layers;
      out->level[i].offset = t->level_offset[l] + (uint64_t)v->base_layer * slice;
    }
  }
}

/* ---------------------------------------------------------------- copies */

int api_texel_copy_info_check(const char *op, const char *side, const ls_device *d,
                              const ls_texel_copy_texture_info *info, const ls_extent3d *size,
                              uint32_t usage, char *why, size_t len) {
#define CFAIL_(...) return (snprintf(why, len, __VA_ARGS__), 1)
  if (!info || !info->texture) CFAIL_("%s: no %s texture", op, side);
  if (!size) CFAIL_("%s: no copy size", op);
  const ls_texture *t = info->texture;
  const char *name = api_texture_name(t);
  if (t->device != d) CFAIL_("%s: texture '%s' belongs to another device", op, name);
  if (!(t->usage & usage))
    CFAIL_("%s: %s texture '%s' lacks %s usage", op, side, name,
           usage == LS_TEXTURE_USAGE_COPY_SRC ? "COPY_SRC" : "COPY_DST");
  if (info->mip_level >= t->levels)
    CFAIL_("%s: mipLevel %u is not below texture '%s''s mipLevelCount %u", op,
                      info->mip_level, name, t->levels);
  const ls_texture_format af = api_aspect_format(t->format, info->aspect);
  if (!af)
    CFAIL_("%s: aspect \"%s\" is not present in format %s of texture '%s'", op,
           api_aspect_name(info->aspect), ls_texture_format_name(t->format), name);
  const ls_extent3d e = api_texture_level_size(t, info->mip_level);
  const ls_origin3d o = info->origin;
  /* depth-or-stencil and multisampled copies cover whole subresources
   * (WebGPU's copy rules, a D3D12 restriction) */
  if ((api_format_info(af)->aspects || t->samples > 1) &&
      (o.x || o.y || size->width != e.width || size->height != e.height))
    CFAIL_("%s: a copy of %s texture '%s' (%s) must cover whole mip level %u "
           "(%u x %u from the origin), not (%u, %u) + %u x %u", op,
           t->samples > 1 ? "multisampled" : "depth-or-stencil", name, ls_texture_format_name(af),
           info->mip_level, e.width, e.height, o.x, o.y, size->width, size->height);
  if ((uint64_t)o.x + size->width > e.width || (uint64_t)o.y + size->height > e.height ||
      (uint64_t)o.z + size->depth_or_array_layers > e.depth_or_array_layers)
    CFAIL_("%s: origin (%u, %u, %u) + size (%u, %u, %u) is outside mip level %u of "
                      "texture '%s' (%u, %u, %u)",
                      op, o.x, o.y, o.z, size->width, size->height, size->depth_or_array_layers,
                      info->mip_level, name, e.width, e.height, e.depth_or_array_layers);
  return 0;
#undef CFAIL_
}

int api_texture_copy_check(const char *op, const ls_device *d,
                             const ls_texel_copy_texture_info *info,
                             const ls_texel_copy_buffer_layout *layout, uint64_t data_length,
                             const ls_extent3d *size, uint32_t usage, int aligned, char *why,
                            size_t len) {
#define CFAIL_(...) return (snprintf(why, len, __VA_ARGS__), 1)
  if (!info || !info->texture) CFAIL_("%s: no texture", op);
  if (!layout || !size) CFAIL_("%s: no %s", op, layout ? "copy size" : "data layout");
  const ls_texture *t = info->texture;
  const char *name = api_texture_name(t);
  if (t->device == d && t->samples > 1)
    CFAIL_("%s: texture '%s' is multisampled (sampleCount %u); buffer copies need sampleCount 1",
           op, name, t->samples);
  if (api_texel_copy_info_check(op, usage == LS_TEXTURE_USAGE_COPY_SRC ? "source" : "destination",
                                d, info, size, usage, why, len))
    return 1;
  /* the aspect's format: its copies, footprint and alignment rules */
  const ls_texture_format af = api_aspect_format(t->format, info->aspect);
  const api_texfmt *fi = api_format_info(af);
  const char *fname = ls_texture_format_name(af);
  if (fi->aspects == (API_ASPECT_DEPTH | API_ASPECT_STENCIL))
    CFAIL_("%s: texture '%s' is %s, whose aspect \"all\" is two aspects; a copy takes one "
           "(\"depth-only\" or \"stencil-only\")", op, name, fname);
  const int to_tex = usage == LS_TEXTURE_USAGE_COPY_DST;
  if (!(fi->copy & (to_tex ? API_COPY_DST : API_COPY_SRC)))
    CFAIL_("%s: texture '%s' is %s, which is not a valid texel copy %s", op, name, fname,
           to_tex ? "destination" : "source");
  const uint32_t bpt = fi->texel_bytes;
  const int has_bpr = layout->bytes_per_row != LS_COPY_STRIDE_UNDEFINED;
  const int has_rpi = layout->rows_per_image != LS_COPY_STRIDE_UNDEFINED;
  if (aligned) {
    if (has_bpr && layout->bytes_per_row % 256)
      CFAIL_("%s: bytesPerRow (%u) is not a multiple of 256", op, layout->bytes_per_row);
    if (fi->aspects && layout->offset % 4)
      CFAIL_("%s: buffer offset %llu is not a multiple of 4, as a depth-or-stencil format (%s) "
             "needs", op, (unsigned long long)layout->offset, fname);
    if (!fi->aspects && layout->offset % bpt)
      CFAIL_("%s: buffer offset %llu is not a multiple of the texel size %u of %s", op,
             (unsigned long long)layout->offset, bpt, fname);
  }
  /* validating linear texture data */
  const uint64_t last_row = (uint64_t)size->width * bpt;
  if (size->height > 1 && !has_bpr)
    CFAIL_("%s: a copy of %u rows needs bytesPerRow", op, size->height);
  if (size->depth_or_array_layers > 1 && (!has_bpr || !has_rpi))
    CFAIL_("%s: a copy of %u images needs bytesPerRow and rowsPerImage", op,
                      size->depth_or_array_layers);
  if (has_bpr && layout->bytes_per_row < last_row)
    CFAIL_("%s: bytesPerRow (%u) is less than the %llu bytes of a row", op,
                      layout->bytes_per_row, (unsigned long long)last_row);
  if (has_rpi && layout->rows_per_image < size->height)
    CFAIL_("%s: rowsPerImage (%u) is less than the copy's %u rows", op,
                      layout->rows_per_image, size->height);
  const uint64_t bpr = has_bpr ? layout->bytes_per_row : 0, rpi = has_rpi ? layout->rows_per_image : 0;
  uint64_t need = 0;
  if (size->depth_or_array_layers > 0) {
    need += bpr * rpi * (size->depth_or_array_layers - 1);
    if (size->height > 0) need += bpr * (size->height - 1) + last_row;
  }
  if (layout->offset > data_length || need > data_length - layout->offset)
    CFAIL_("%s: the copy needs %llu bytes from offset %llu, the data has %llu", op,
                      (unsigned long long)need, (unsigned long long)layout->offset,
                      (unsigned long long)data_length);
  return 0;
#undef CFAIL_
}

void api_texture_copy(ls_texture *t, uint32_t level, ls_origin3d origin, const ls_extent3d *size,
                      ls_texture_aspect aspect, uint8_t *linear,
                      const ls_texel_copy_buffer_layout *layout, int to_texture) {
  const ls_extent3d e = api_texture_level_size(t, level);
  const uint64_t bpt = t->texel_bytes, row = e.width * bpt, slice = row * e.height;
  const uint64_t bpr = layout->bytes_per_row != LS_COPY_STRIDE_UNDEFINED ? layout->bytes_per_row : 0;
  const uint64_t rpi = layout->rows_per_image != LS_COPY_STRIDE_UNDEFINED ? layout->rows_per_image : 0;
  /* the linear side holds the aspect's footprint per texel; one aspect of
   * a combined format is a part of each texel, copied texel by texel */
  const uint32_t fp = api_format_info(api_aspect_format(t->format, aspect))->texel_bytes;
  const uint32_t at = api_aspect_offset(t->format, aspect);
  const size_t n = (size_t)(size->width * fp);
  if (!n) return;
  for (uint32_t z = 0; z < size->depth_or_array_layers; z++)
    for (uint32_t y = 0; y < size->height; y++) {
      uint8_t *lin = linear + layout->offset + z * bpr * rpi + y * bpr;
      uint8_t *tex = t->data + t->level_offset[level] + (origin.z + z) * slice +
                     (origin.y + y) * row + origin.x * bpt + at;
      if (fp == bpt) {
        if (to_texture) memcpy(tex, lin, n);
        else memcpy(lin, tex, n);
        continue;
      }
      for (uint32_t x = 0; x < size->width; x++)
        if (to_texture) memcpy(tex + x * bpt, lin + x * fp, fp);
        else memcpy(lin + x * fp, tex + x * bpt, fp);
    }
}

/* copyTextureToTexture's texels, validated already: the two subresource
 * sets are disjoint and the formats copy-compatible (equal texel bytes),
 * so rows go straight from one texture to the other. A multisampled copy
 * covers the whole level, its samples one slice after another. */
void api_texture_copy_texels(const ls_texture *s, uint32_t sl, ls_origin3d so, ls_texture *t,
                             uint32_t tl, ls_origin3d to, const ls_extent3d *size) {
  const ls_extent3d se = api_texture_level_size(s, sl), te = api_texture_level_size(t, tl);
  const uint64_t bpt = s->texel_bytes, n = size->width * bpt;
  const uint64_t srow = se.width * bpt, sslice = srow * se.height;
  const uint64_t trow = te.width * bpt, tslice = trow * te.height;
  if (!n || !size->height) return;
  if (s->samples > 1) {
    memcpy(t->data + t->level_offset[tl], s->data + s->level_offset[sl], sslice * s->samples);
    return;
  }
  for (uint32_t z = 0; z < size->depth_or_array_layers; z++)
    for (uint32_t y = 0; y < size->height; y++)
      memcpy(t->data + t->level_offset[tl] + (to.z + z) * tslice + (to.y + y) * trow + to.x * bpt,
             s->data + s->level_offset[sl] + (so.z + z) * sslice + (so.y + y) * srow + so.x * bpt,
             n);
}

/* One writeTexture on the queue timeline, with its own copy of the data,
 * so that it lands after the work submitted before it and before the
 * memory of a texture destroyed after it goes. */
typedef struct api_texture_write {
  ls_texture *texture;
  uint32_t level;
  ls_origin3d origin;
  ls_extent3d size;
  ls_texture_aspect aspect;
  ls_texel_copy_buffer_layout layout;
  uint8_t *data;
} api_texture_write;

static void api_texture_write_drop(ls_device *d, void *arg) {
  api_texture_write *w = arg;
  api_texture_unref(w->texture);
  free(w->data);
  free(w);
}

static void api_texture_write_run(ls_device *d, void *arg) {
  api_texture_write *w = arg;
  if (w->texture->data)
    api_texture_copy(w->texture, w->level, w->origin, &w->size, w->aspect, w->data, &w->layout, 1);
  api_texture_write_drop(d, w);
}

ls_status ls_queue_write_texture(ls_device *device, const ls_texel_copy_texture_info *dst,
                                 const void *data, size_t data_size,
                                 const ls_texel_copy_buffer_layout *layout,
                                 const ls_extent3d *size) {
  if (api_device_dead(device)) return LS_DEVICE_LOST;
  if (data_size && !data) {
    api_validation(device, "writeTexture: %zu bytes of data but no pointer", data_size);
    return LS_VALIDATION;
  }
  char why[320];
  if (api_texture_copy_check("writeTexture", device, dst, layout, data_size, size,
                             LS_TEXTURE_USAGE_COPY_DST, 0, why, sizeof why)) {
    api_validation(device, "%s", why);
    return LS_VALIDATION;
  }
  api_texture_write *w = calloc(1, sizeof *w);
  uint8_t *copy = data_size ? malloc(data_size) : NULL;
  if (!w || (data_size && !copy)) {
    free(w);
    free(copy);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "writeTexture: out of memory (%zu bytes)", data_size);
    return LS_OUT_OF_MEMORY;
  }
  if (copy) memcpy(copy, data, data_size);
  *w = (api_texture_write){.texture = dst->texture, .level = dst->mip_level, .origin = dst->origin,
                           .size = *size, .aspect = dst->aspect, .layout = *layout, .data = copy};
  /* a queue operation: validated now, where an encoder's copy of a
   * destroyed texture is refused at submit (queue.c); under the device lock,
   * so that a destroy() on another thread comes wholly before or after */
  API_LOCK(device);
  const int destroyed = dst->texture->destroyed;
  uint64_t seq = 0;
  if (!destroyed) {
    api_texture_ref(dst->texture);
    seq = api_timeline_push_locked(device, api_texture_write_run, api_texture_write_drop, w);
  }
  API_UNLOCK(device);
  if (destroyed || !seq) {
    if (seq == 0 && !destroyed) api_texture_unref(dst->texture);
    free(copy);
    free(w);
    if (!destroyed) return LS_DEVICE_LOST;
    api_validation(device, "writeTexture: texture '%s' is destroyed", api_texture_name(dst->texture));
    return LS_VALIDATION;
  }
  return LS_OK;
}

/* ------------------------------------------------------ external textures */

void api_external_texture_ref(ls_external_texture *x) {
  if (x) API_REF(x);
}

void api_external_texture_unref(ls_external_texture *x) {
  if (!x || !API_UNREF_LAST(x)) return;
  ls_device *d = x->device;
  api_texture_view_unref(x->view);
  free(x->label);
  API_FREE_HANDLE(x);
  api_device_unref(d);
}

ls_external_texture *ls_device_import_external_texture(ls_device *device,
                                                       const ls_external_texture_desc *user_desc) {
  if (api_device_dead(device)) return NULL;
  ls_external_texture_desc dd;
  if (!API_DESC(dd, user_desc)) {
    api_validation(device, "importExternalTexture: %s", API_DESC_NEWER);
    return NULL;
  }
  const ls_external_texture_desc *desc = user_desc ? &dd : NULL;
  const ls_texture_view *v = desc ? desc->view : NULL;
  const char *name = api_label(desc ? desc->label : NULL, "(unlabelled)");
  if (!v) {
    api_validation(device, "importExternalTexture '%s': no texture view", name);
    return NULL;
  }
  const ls_texture *t = v->texture;
  const char *tn = api_texture_name(t);
  const char *why = NULL;
  if (v->device != device) why = "belongs to another device";
  else if (t->destroyed) why = "is destroyed";
  else if (v->dimension != LS_VIEW_DIMENSION_2D || v->levels != 1 || t->samples != 1)
    why = "is not a 2d view of one mip level of a texture with sampleCount 1";
  else if (!(v->usage & LS_TEXTURE_USAGE_TEXTURE_BINDING)) why = "lacks TEXTURE_BINDING usage";
  else if (v->format != LS_FORMAT_RGBA8UNORM && v->format != LS_FORMAT_BGRA8UNORM &&
           v->format != LS_FORMAT_RGBA8UNORM_SRGB && v->format != LS_FORMAT_BGRA8UNORM_SRGB &&
           v->format != LS_FORMAT_RGBA16FLOAT)
    why = "is not rgba8unorm, bgra8unorm, their -srgb forms or rgba16float (a video frame's "
          "formats)";
  if (why) {
    api_validation(device, "importExternalTexture '%s': the view of texture '%s' %s", name, tn,
                   why);
    return NULL;
  }
  ls_external_texture *x = calloc(1, sizeof *x);
  if (!x || (desc->label && !api_label_init(&x->label, desc->label))) {
    free(x);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "importExternalTexture '%s': out of memory", name);
    return NULL;
  }
  x->device = device;
  api_device_ref(device);
  x->refs = 1;
  x->view = (ls_texture_view *)v;
  api_texture_view_ref(x->view);
  return x;
}

void ls_external_texture_release(ls_external_texture *texture) {
  api_external_texture_unref(texture);
}
