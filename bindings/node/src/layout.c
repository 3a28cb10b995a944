/*
 * layout.c — GPUBindGroupLayout, GPUPipelineLayout and GPUBindGroup from
 * converted descriptors. JavaScript flattens each layout entry into one
 * binding type (the names below) and each bind group entry into the handle
 * it binds.
 */
#include "addon.h"

#include <stdlib.h>

/* Index = ls_binding_type. */
static const char *const binding_names[] = {
  "",                           "uniform",
  "storage",                    "read-only-storage",
  "texture",                    "write-only-storage-texture",
  "read-only-storage-texture",  "read-write-storage-texture",
  "filtering-sampler",          "non-filtering-sampler",
  "comparison-sampler",         "external-texture",
  NULL,
};
static const char *const sample_names[] = {"float", "unfilterable-float", "depth", "sint", "uint",
                                           NULL};
static const char *const view_dimension_names[] = {"", "1d", "2d", "2d-array", "cube",
                                                   "cube-array", "3d", NULL};

/* bindGroupLayoutCreate(js, device, entries, label): entries [{binding,
 * type, minBindingSize, hasDynamicOffset, sampleType, viewDimension, format,
 * multisampled}]. True when made. */
ND_FN(bind_group_layout_create) {
  napi_value argv[4];
  if (!nd_args(env, info, 4, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  uint32_t n = 0;
  napi_get_array_length(env, argv[2], &n);
  ls_bind_group_layout_entry *entries = calloc(n + 1, sizeof *entries);
  if (!entries) return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    napi_value e;
    napi_get_element(env, argv[2], i, &e);
    char *fmt = nd_get_str(env, nd_prop(env, e, "format"));
    napi_value mbs = nd_prop(env, e, "minBindingSize");
    const uint32_t vis = nd_get_u32(env, nd_prop(env, e, "visibility"));
    entries[i] = (ls_bind_group_layout_entry){
      .binding = nd_get_u32(env, nd_prop(env, e, "binding")),
      .type = nd_enum(env, nd_prop(env, e, "type"), binding_names, NULL, 0),
      .min_binding_size = nd_is_nullish(env, mbs) ? 0 : nd_get_u64(env, mbs),
      .sample_type = nd_enum(env, nd_prop(env, e, "sampleType"), sample_names, NULL, 0),
      .view_dimension = nd_enum(env, nd_prop(env, e, "viewDimension"), view_dimension_names, NULL, 0),
      .format = fmt ? ls_texture_format_from_name(fmt) : LS_FORMAT_UNDEFINED,
      .multisampled = nd_get_bool(env, nd_prop(env, e, "multisampled")),
      .has_dynamic_offset = nd_get_bool(env, nd_prop(env, e, "hasDynamicOffset")),
      /* WebGPU's 0 is a binding no stage sees, lockstep's 0 is COMPUTE; a
       * WebGPU value with bit 31 (not a stage) must stay invalid */
      .visibility = !vis ? LS_SHADER_STAGE_NONE : vis == LS_SHADER_STAGE_NONE ? vis | 0x8u : vis,
    };
    free(fmt);
  }
  char *label = nd_get_str(env, argv[3]);
  ls_bind_group_layout_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_bind_group_layout_desc),
    .entries = entries,
    .entry_count = n,
    .label = label,
  };
  ls_bind_group_layout *l = ls_device_create_bind_group_layout(d->h, &desc);
  free(entries);
  free(label);
  if (!l) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_BIND_GROUP_LAYOUT, l, d) != NULL);
}

/* pipelineLayoutCreate(js, device, layouts, immediateSize, label): layouts
 * [GPUBindGroupLayout | null]. */
ND_FN(pipeline_layout_create) {
  napi_value argv[5];
  if (!nd_args(env, info, 5, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  uint32_t n = 0;
  napi_get_array_length(env, argv[2], &n);
  ls_bind_group_layout **bgls = calloc(n + 1, sizeof *bgls);
  if (!bgls) return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    napi_value e;
    napi_get_element(env, argv[2], i, &e);
    bgls[i] = nd_is_nullish(env, e) ? NULL : nd_handle(env, e, ND_BIND_GROUP_LAYOUT);
  }
  char *label = nd_get_str(env, argv[4]);
  ls_pipeline_layout_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_pipeline_layout_desc),
    .bind_group_layouts = bgls,
    .bind_group_layout_count = n,
    .immediate_size = nd_get_u32(env, argv[3]),
    .label = label,
  };
  ls_pipeline_layout *l = ls_device_create_pipeline_layout(d->h, &desc);
  free(bgls);
  free(label);
  if (!l) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_PIPELINE_LAYOUT, l, d) != NULL);
}

/* bindGroupCreate(js, device, layout, entries, label): entries [{binding,
 * buffer, offset, size, view, sampler, externalTexture}] (size undefined =
 * to the end). */
ND_FN(bind_group_create) {
  napi_value argv[5];
  if (!nd_args(env, info, 5, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  uint32_t n = 0;
  napi_get_array_length(env, argv[3], &n);
  ls_bind_group_entry *entries = calloc(n + 1, sizeof *entries);
  if (!entries) return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    napi_value e;
    napi_get_element(env, argv[3], i, &e);
    napi_value off = nd_prop(env, e, "offset");
    entries[i] = (ls_bind_group_entry){
      .binding = nd_get_u32(env, nd_prop(env, e, "binding")),
      .buffer = nd_handle(env, nd_prop(env, e, "buffer"), ND_BUFFER),
      .offset = nd_is_nullish(env, off) ? 0 : nd_get_u64(env, off),
      .size = nd_get_u64(env, nd_prop(env, e, "size")),
      .texture_view = nd_handle(env, nd_prop(env, e, "view"), ND_TEXTURE_VIEW),
      .sampler = nd_handle(env, nd_prop(env, e, "sampler"), ND_SAMPLER),
      .external_texture = nd_handle(env, nd_prop(env, e, "externalTexture"), ND_EXTERNAL_TEXTURE),
    };
  }
  char *label = nd_get_str(env, argv[4]);
  ls_bind_group_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_bind_group_desc),
    .layout = nd_handle(env, argv[2], ND_BIND_GROUP_LAYOUT),
    .entries = entries,
    .entry_count = n,
    .label = label,
  };
  ls_bind_group *g = ls_device_create_bind_group(d->h, &desc);
  free(entries);
  free(label);
  if (!g) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_BIND_GROUP, g, d) != NULL);
}

const nd_export nd_exports_layout[] = {
  {"bindGroupLayoutCreate", bind_group_layout_create},
  {"pipelineLayoutCreate", pipeline_layout_create},
  {"bindGroupCreate", bind_group_create},
  {NULL, NULL},
};
