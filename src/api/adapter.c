/*
 * adapter.c — the first step of the API flow: limits by WebGPU name, status
 * names, the built-in vendor profiles and the adapter made from one. A
 * profile fixes the subgroup width W every dispatch runs with and the limits
 * the emulated adapter reports (better than the defaults, as real adapters
 * are); requestDevice (device.c) checks requested limits against them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"

/* ---------------------------------------------------------------- version */

#define API_STR2(x) #x
#define API_STR(x) API_STR2(x)

const char *ls_version(void) {
  return API_STR(LS_VERSION_MAJOR) "." API_STR(LS_VERSION_MINOR) "." API_STR(LS_VERSION_PATCH);
}

const char *ls_isa(void) { return vm_isa_name(); }
int ls_isa_available(const char *name) { return name && vm_isa_available(name); }

/* ----------------------------------------------------------------- status */

const char *ls_status_name(ls_status s) {
  switch (s) {
#define LS_X_(name, text)                                                      \
  case LS_##name:                                                              \
    return #name;
    LS_STATUS_LIST(LS_X_)
#undef LS_X_
  default:
    return "UNKNOWN";
  }
}

const char *ls_status_describe(ls_status s) {
  switch (s) {
#define LS_X_(name, text)                                                      \
  case LS_##name:                                                              \
    return text;
    LS_STATUS_LIST(LS_X_)
#undef LS_X_
  default:
    return "unknown status";
  }
}

/* ----------------------------------------------------------------- limits */

void ls_limits_default(ls_limits *out) {
  if (!out) return;
#define LS_X_(field, name, def, cls) out->field = (def);
  LS_LIMITS_LIST(LS_X_)
#undef LS_X_
}

ls_status ls_limits_set(ls_limits *limits, const char *webgpu_name, uint64_t value) {
  if (!limits || !webgpu_name) return LS_TYPE;
#define LS_X_(field, name, def, cls)                                           \
  if (strcmp(webgpu_name, name) == 0) {                                        \
    limits->field = value;                                                     \
    return LS_OK;                                                              \
  }
  LS_LIMITS_LIST(LS_X_)
#undef LS_X_
  return LS_OPERATION;
}

int ls_limits_get(const ls_limits *limits, const char *webgpu_name, uint64_t *value) {
  if (!limits || !webgpu_name) return 0;
#define LS_X_(field, name, def, cls)                                           \
  if (strcmp(webgpu_name, name) == 0) {                                        \
    if (value) *value = limits->field;                                         \
    return 1;                                                                  \
  }
  LS_LIMITS_LIST(LS_X_)
#undef LS_X_
  return 0;
}

/* --------------------------------------------------------------- profiles */

/* Limits of a desktop adapter as browsers report them: a workgroup of 1024
 * invocations, ws bytes of workgroup storage (32 KiB; the NVIDIA H200
 * through Dawn's Vulkan backend offers 48 KiB, bench/gpu/h200-run1.json),
 * 1 GiB buffers, 16384-texel textures. */
#define API_DESKTOP_LIMITS API_DESKTOP_LIMITS_WS(32768)
#define API_DESKTOP_LIMITS_WS(ws)                                              \
  {                                                                            \
    .max_bind_groups = 4, .max_bindings_per_bind_group = 1000,                 \
    .max_dynamic_uniform_buffers_per_pipeline_layout = 8,                      \
    .max_dynamic_storage_buffers_per_pipeline_layout = 4,                      \
    .max_storage_buffers_per_shader_stage = 10,                                \
    .max_uniform_buffers_per_shader_stage = 12,                                \
    .max_uniform_buffer_binding_size = 65536,                                  \
    .max_storage_buffer_binding_size = 1u << 30,                               \
    .min_uniform_buffer_offset_alignment = 256,                                \
    .min_storage_buffer_offset_alignment = 256, .max_buffer_size = 1u << 30,   \
    .max_compute_workgroup_storage_size = (ws),                                \
    .max_compute_invocations_per_workgroup = 1024,                             \
    .max_compute_workgroup_size_x = 1024, .max_compute_workgroup_size_y = 1024, \
    .max_compute_workgroup_size_z = 64,                                        \
    .max_compute_workgroups_per_dimension = 65535,                             \
    .max_texture_dimension_1d = 16384, .max_texture_dimension_2d = 16384,      \
    .max_texture_dimension_3d = 2048, .max_texture_array_layers = 2048,        \
    .max_sampled_textures_per_shader_stage = 16,                               \
    .max_storage_textures_per_shader_stage = 8,                                \
    .max_samplers_per_shader_stage = 16, .max_immediate_size = 64              \
  }

/* A phone GPU: the default compute limits, little more. */
#define API_MOBILE_LIMITS                                                      \
  {                                                                            \
    .max_bind_groups = 4, .max_bindings_per_bind_group = 1000,                 \
    .max_dynamic_uniform_buffers_per_pipeline_layout = 8,                      \
    .max_dynamic_storage_buffers_per_pipeline_layout = 4,                      \
    .max_storage_buffers_per_shader_stage = 8,                                 \
    .max_uniform_buffers_per_shader_stage = 12,                                \
    .max_uniform_buffer_binding_size = 65536,                                  \
    .max_storage_buffer_binding_size = 134217728,                              \
    .min_uniform_buffer_offset_alignment = 256,                                \
    .min_storage_buffer_offset_alignment = 256, .max_buffer_size = 268435456,  \
    .max_compute_workgroup_storage_size = 16384,                               \
    .max_compute_invocations_per_workgroup = 256,                              \
    .max_compute_workgroup_size_x = 256, .max_compute_workgroup_size_y = 256,  \
    .max_compute_workgroup_size_z = 64,                                        \
    .max_compute_workgroups_per_dimension = 65535,                             \
    .max_texture_dimension_1d = 8192, .max_texture_dimension_2d = 8192,        \
    .max_texture_dimension_3d = 2048, .max_texture_array_layers = 256,         \
    .max_sampled_textures_per_shader_stage = 16,                               \
    .max_storage_textures_per_shader_stage = 4,                                \
    .max_samplers_per_shader_stage = 16, .max_immediate_size = 64              \
  }

/* The memory figures after the limits are: subgroup min and max size of
 * the vendor's real GPUs, sector bytes, line bytes, workgroup-memory banks
 * and bank width (docs/profiler.md, "Vendor profiles", cites each); after
 * the source, the texture tile: one cache line of the profile holding a 2D
 * block of texels, a model assumption (docs/profiler.md, "Texel traffic"). */
static const api_profile api_profiles[] = {
    {"default", 32, "lockstep", "simt-%u", "lockstep CPU device",
     "lockstep: the WebGPU compute model on the CPU, %u-lane subgroups",
     API_DESKTOP_LIMITS, 32, 32, 32, 128, 32, 4,
     "lockstep's own default: the NVIDIA memory figures", 128},
    {"nvidia", 32, "nvidia", "lockstep-warp%u", "lockstep CPU device (NVIDIA-like)",
     "lockstep emulating an NVIDIA-like GPU: %u-lane warps", API_DESKTOP_LIMITS_WS(49152), 32, 32, 32,
     128, 32, 4,
     "CUDA C++ Programming Guide (warp size 32; global memory in 32-byte sectors of "
     "128-byte lines; shared memory 32 banks of 4 bytes)", 128},
    {"amd", 64, "amd", "lockstep-wave%u", "lockstep CPU device (AMD-like)",
     "lockstep emulating an AMD-like GPU: %u-lane wavefronts", API_DESKTOP_LIMITS, 32, 64, 64,
     128, 32, 4,
     "AMD GCN and RDNA whitepapers (wave64, wave32 on RDNA; 64-byte memory requests, "
     "128-byte RDNA cache lines; LDS 32 banks of 4 bytes)", 128},
    {"apple", 32, "apple", "lockstep-simdgroup%u", "lockstep CPU device (Apple-like)",
     "lockstep emulating an Apple-like GPU: %u-lane SIMD groups", API_DESKTOP_LIMITS, 32, 32, 32,
     128, 32, 4,
     "Metal feature set tables (threadExecutionWidth 32); memory figures not published: "
     "assumed as NVIDIA's", 128},
    {"intel", 16, "intel", "lockstep-simd%u", "lockstep CPU device (Intel-like)",
     "lockstep emulating an Intel-like GPU: SIMD%u", API_DESKTOP_LIMITS, 8, 32, 64, 64, 16, 4,
     "Intel Gen9/Xe compute architecture documents (SIMD8/16/32; 64-byte cache lines; "
     "shared local memory 16 banks of 4 bytes)", 64},
    {"mobile", 8, "arm", "lockstep-mobile%u", "lockstep CPU device (mobile-like)",
     "lockstep emulating a mobile GPU: %u-lane subgroups, default compute limits",
     API_MOBILE_LIMITS, 4, 16, 32, 64, 16, 4,
     "Arm Mali GPU guides (Bifrost 4/8-wide, Valhall 16-wide; 64-byte cache lines); banks "
     "assumed", 64},
};

#define API_NPROFILES (sizeof api_profiles / sizeof api_profiles[0])

const api_profile *api_profile_find(const char *name) {
  if (!name) return &api_profiles[0];
  for (size_t i = 0; i < API_NPROFILES; i++)
    if (strcmp(api_profiles[i].name, name) == 0) return &api_profiles[i];
  return NULL;
}

const char *const *ls_wgsl_language_features(void) { return wgsl_language_features(); }

const char *const *ls_profile_names(void) {
  static const char *const names[API_NPROFILES + 1] = {
      "default", "nvidia", "amd", "apple", "intel", "mobile", NULL};
  return names;
}

static int api_pow2(uint32_t v) { return v && !(v & (v - 1)); }

ls_status ls_profile_describe(const char *name, ls_profile_desc *out) {
  const api_profile *p = name ? api_profile_find(name) : NULL;
  if (!p || !out) return LS_OPERATION;
  size_t n = out->struct_size && out->struct_size < sizeof *out ? out->struct_size : sizeof *out;
  ls_profile_desc d;
  memset(&d, 0, sizeof d);
  d.struct_size = n;
  d.name = p->name;
  d.subgroup_size = p->width;
  d.subgroup_min_size = p->subgroup_min;
  d.subgroup_max_size = p->subgroup_max;
  d.sector_bytes = p->sector_bytes;
  d.line_bytes = p->line_bytes;
  d.banks = p->banks;
  d.bank_bytes = p->bank_bytes;
  d.source = p->source;
  d.tile_bytes = p->tile_bytes;
  memcpy(out, &d, n);
  return LS_OK;
}

int ls_profile_check(const ls_profile_desc *pd, char *err, size_t errlen) {
  if (!pd) {
    if (err && errlen) snprintf(err, errlen, "no profile");
    return -1;
  }
  ls_profile_desc p;
  if (!API_DESC(p, pd)) {
    if (err && errlen) snprintf(err, errlen, "profile: %s", API_DESC_NEWER);
    return -1;
  }
  const char *nm = p.name ? p.name : "(unnamed)";
  const char *why = NULL;
  char buf[160];
  /* Real subgroups are 4 to 128 lanes wide and a power of two (the WebGPU
   * subgroups feature bounds subgroupMinSize >= 4, subgroupMaxSize <= 128). */
  if (!api_pow2(p.subgroup_size)) {
    snprintf(buf, sizeof buf, "subgroup size %u is not a power of two", p.subgroup_size);
    why = buf;
  } else if (p.subgroup_size > 128) {
    snprintf(buf, sizeof buf, "subgroup size %u is above 128, the widest subgroup WebGPU allows",
             p.subgroup_size);
    why = buf;
  } else if (p.subgroup_size < 4) {
    snprintf(buf, sizeof buf, "subgroup size %u is below 4, the narrowest subgroup WebGPU allows",
             p.subgroup_size);
    why = buf;
  } else if (p.subgroup_min_size && (!api_pow2(p.subgroup_min_size) ||
                                     p.subgroup_min_size > p.subgroup_size)) {
    snprintf(buf, sizeof buf, "subgroupMinSize %u is not a power of two at most the subgroup size %u",
             p.subgroup_min_size, p.subgroup_size);
    why = buf;
  } else if (p.subgroup_max_size && (!api_pow2(p.subgroup_max_size) ||
                                     p.subgroup_max_size < p.subgroup_size ||
                                     p.subgroup_max_size > 128)) {
    snprintf(buf, sizeof buf,
             "subgroupMaxSize %u is not a power of two from the subgroup size %u to 128",
             p.subgroup_max_size, p.subgroup_size);
    why = buf;
  } else if (!api_pow2(p.sector_bytes) || p.sector_bytes < 4) {
    snprintf(buf, sizeof buf, "sector size %u is not a power of two of at least 4 bytes",
             p.sector_bytes);
    why = buf;
  } else if (!api_pow2(p.line_bytes) || p.line_bytes < p.sector_bytes) {
    snprintf(buf, sizeof buf, "line size %u is not a power of two of at least the sector (%u)",
             p.line_bytes, p.sector_bytes);
    why = buf;
  } else if (!api_pow2(p.banks) || p.banks > 128) {
    snprintf(buf, sizeof buf, "bank count %u is not a power of two from 1 to 128", p.banks);
    why = buf;
  } else if (!api_pow2(p.bank_bytes) || p.bank_bytes < 4) {
    snprintf(buf, sizeof buf, "bank width %u is not a power of two of at least 4 bytes",
             p.bank_bytes);
    why = buf;
  } else if (p.tile_bytes && (!api_pow2(p.tile_bytes) || p.tile_bytes < 16 ||
                              p.tile_bytes > 65536)) {
    /* 0: a description from before the field; the profiler takes 128 */
    snprintf(buf, sizeof buf,
             "texture tile %u is not a power of two from 16 bytes (the widest texel) to 65536",
             p.tile_bytes);
    why = buf;
  }
  if (!why) return 0;
  if (err && errlen) snprintf(err, errlen, "profile '%s': %s", nm, why);
  return -1;
}

int ls_adapter_limit_up_to(const ls_adapter *adapter, const char *webgpu_name, uint64_t wanted,
                           uint64_t *out) {
  ls_limits l;
  ls_adapter_get_limits(adapter, &l);
  uint64_t have = 0;
  if (!ls_limits_get(&l, webgpu_name, &have)) return 0;
  /* Alignment limits are better when smaller: ask for no less than offered. */
  int align = !strcmp(webgpu_name, "minUniformBufferOffsetAlignment") ||
              !strcmp(webgpu_name, "minStorageBufferOffsetAlignment");
  if (out) *out = align ? (wanted > have ? wanted : have) : (wanted < have ? wanted : have);
  return 1;
}

/* ---------------------------------------------------------------- adapter */

static void api_set_err(char *err, size_t errlen, const char *fmt, ...) API_PRINTF(3, 4);
static void api_set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

ls_adapter *ls_adapter_create(const ls_adapter_options *opts, char *err, size_t errlen) {
  /* Options from an older caller are shorter: the fields it lacks are 0;
   * a newer caller's are refused, as every descriptor's. */
  ls_adapter_options o;
  if (!API_DESC(o, opts)) {
    api_set_err(err, errlen, "adapter options: %s", API_DESC_NEWER);
    return NULL;
  }
  const api_profile *p = api_profile_find(o.profile);
  if (!p) {
    char names[128] = "";
    for (size_t i = 0; i < API_NPROFILES; i++) {
      strcat(names, i ? ", " : "");
      strcat(names, api_profiles[i].name);
    }
    api_set_err(err, errlen, "unknown profile '%s' (profiles: %s)", o.profile, names);
    return NULL;
  }
  uint32_t w = p->width;
  if (o.subgroup_size) {
    if (o.subgroup_size != 8 && o.subgroup_size != 16 && o.subgroup_size != 32 &&
        o.subgroup_size != 64) {
      api_set_err(err, errlen, "subgroup size %u is not supported (8, 16, 32 or 64)",
                  o.subgroup_size);
      return NULL;
    }
    w = o.subgroup_size;
  }
  uint32_t threads = o.threads;
  if (threads == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n > 0 ? (uint32_t)n : 1;
  }
  if (threads > 1024) {
    api_set_err(err, errlen, "%u worker threads is too many (at most 1024)", threads);
    return NULL;
  }
  ls_adapter *a = calloc(1, sizeof *a);
  if (!a) {
    api_set_err(err, errlen, "out of memory");
    return NULL;
  }
  a->profile = p;
  a->limits = p->limits;
  a->width = w;
  /* the profile's names with the width every dispatch runs with, which
   * subgroup_size may have changed */
  snprintf(a->architecture, sizeof a->architecture, p->architecture, w);
  snprintf(a->description, sizeof a->description, p->description, w);
  a->threads = threads;
  a->dispatch_budget = o.dispatch_instruction_budget == 0            ? (uint64_t)1 << 40
                       : o.dispatch_instruction_budget == UINT64_MAX ? 0
                                                                     : o.dispatch_instruction_budget;
  a->time_limit_ms = o.time_limit_ms == 0 ? 60000 : o.time_limit_ms == UINT32_MAX ? 0
                                                                                  : o.time_limit_ms;
  a->memory_limit = o.dispatch_memory_limit == 0 ? (uint64_t)4 << 30 : o.dispatch_memory_limit;
  if (o.instruction_budget == 0)
    a->budget = (uint64_t)1 << 32;
  else if (o.instruction_budget == UINT64_MAX)
    a->budget = 0; /* the VM's "unlimited" */
  else
    a->budget = o.instruction_budget;
  return a;
}

void ls_adapter_release(ls_adapter *adapter) { API_FREE_HANDLE(adapter); }

void ls_adapter_get_limits(const ls_adapter *adapter, ls_limits *out) {
  if (!out) return;
  if (!adapter) {
    ls_limits_default(out);
    return;
  }
  *out = adapter->limits;
}

void ls_adapter_get_info(const ls_adapter *adapter, ls_adapter_info *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!adapter) return;
  const api_profile *p = adapter->profile;
  out->vendor = p->vendor;
  out->architecture = adapter->architecture;
  out->device = p->device;
  out->description = adapter->description;
  out->profile = p->name;
  out->subgroup_min_size = adapter->width;
  out->subgroup_max_size = adapter->width;
  out->subgroup_size = adapter->width;
  out->threads = adapter->threads;
}
