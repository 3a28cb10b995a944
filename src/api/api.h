/*
 * api.h — the objects behind the public handles of lockstep.h, shared by the
 * files of src/api/ (one subsystem each). Nothing outside src/api/ (and the
 * unit tests) includes it: the command line program and the profiler use
 * lockstep.h only.
 *
 * Lifetimes: every object holds a reference on its device, and objects that
 * use others (a bind group its buffers, a pipeline its module and layout, a
 * recorded command its pipeline and bind groups) hold references on them, so
 * a handle may be destroyed while something still uses it. Destroying a
 * buffer frees its memory once the work queued before it is done (at once
 * when the queue is idle); a later submit that refers to it is a
 * validation error.
 *
 * Threads (the rules are stated in lockstep.h, the design in
 * docs/architecture.md): reference counts are atomic; the device's mutex
 * `mu` guards its mutable state (error scopes, callbacks, the queue, buffer
 * map states and the buffer list, labels being replaced) and is never held
 * while a user callback runs or while the VM executes; an encoder and a
 * shader module have mutexes of their own. Everything a command
 * buffer points at (bind groups, pipelines, layouts) is immutable once
 * created, so the queue thread reads it without the lock. Buffer and texture
 * memory is only touched on the queue thread, except a mapped buffer's,
 * which belongs to the host until unmap (submits that use it are refused).
 */
#ifndef LS_API_INTERNAL_H
#define LS_API_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../../include/lockstep.h"
#include "../ir/ir.h"
#include "../util/ptrmap.h"
#include "../vm/vm.h"
#include "../wgsl/wgsl.h"

#if defined(__GNUC__)
#define API_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define API_PRINTF(a, b)
#endif

/* Reference counts: the last unref frees. */
typedef atomic_uint api_refs;
#define API_REF(o) atomic_fetch_add_explicit(&(o)->refs, 1, memory_order_relaxed)
/* True when this unref dropped the last reference. */
#define API_UNREF_LAST(o) (atomic_fetch_sub_explicit(&(o)->refs, 1, memory_order_acq_rel) == 1)

/* Frees the memory of an object behind a handle. Builds with
 * LS_POISON_FREED (Debug, or -DLOCKSTEP_POISON_FREED=ON) first fill it with
 * 0xA5 bytes, so that a use after the last release (a C programming error,
 * lockstep.h "Lifetimes") reads pointers that fault at once instead of
 * stale data; other builds just free it. */
void api_free_handle(void *p, size_t size);
#define API_FREE_HANDLE(p) api_free_handle((p), sizeof *(p))

/* Reads a caller's descriptor into *dst (the library's layout): the first
 * struct_size bytes (0 = all of them), the rest zeroed. Returns 0 when the
 * caller's struct is longer than the library knows (a newer header). */
int api_desc_read(void *dst, const void *src, size_t size);
#define API_DESC(dst, src) api_desc_read(&(dst), (src), sizeof(dst))
/* The message for a descriptor api_desc_read refused. */
#define API_DESC_NEWER "the descriptor's struct_size is larger than this library knows (built against a newer lockstep.h?)"

/* ---------------------------------------------------------------- adapter */

typedef struct api_profile {
  const char *name;
  uint32_t width; /* subgroup width W */
  /* architecture and description are printf formats of the width W */
  const char *vendor, *architecture, *device, *description;
  ls_limits limits; /* what the emulated adapter reports */
  /* The hardware the profile stands for (docs/profiler.md gives sources):
   * the subgroup sizes its real GPUs run, and the memory system the
   * profiler measures coalescing and bank conflicts against. */
  uint32_t subgroup_min, subgroup_max;
  uint32_t sector_bytes, line_bytes, banks, bank_bytes;
  const char *source;
  uint32_t tile_bytes; /* texture tiles: a model assumption (docs/profiler.md) */
} api_profile;

/* The built-in profiles (adapter.c); NULL when the name is unknown. */
const api_profile *api_profile_find(const char *name);

struct ls_adapter {
  const api_profile *profile;
  ls_limits limits;
  uint32_t width;
  char architecture[32], description[96]; /* the profile's, with this width */
  uint32_t threads;
  uint64_t budget; /* per workgroup, as vm_dispatch_desc.budget (0 = none) */
  uint64_t dispatch_budget; /* per dispatch (0 = none) */
  uint32_t time_limit_ms;   /* per submit (0 = none) */
  uint64_t memory_limit;    /* per dispatch, as vm_dispatch_desc.memory_limit */
};

/* ----------------------------------------------------------------- device */

typedef struct api_scope {
  ls_error_filter filter;
  ls_error_type type; /* the first error caught; LS_ERROR_NONE if none */
  char *message;
} api_scope;

/* What the dispatch callback (ls_device_set_dispatch_callback) is told
 * about each dispatch, just before it runs (or instead, when skipped). */
typedef ls_dispatch_info api_dispatch_info;
typedef ls_dispatch_callback api_dispatch_hook;

/* -------------------------------------------------------------- observers */

/* What one binding slot of the dispatch's program is bound to: the
 * binding context every observer gets (observe.c). */
typedef struct api_slot_ctx {
  const ir_binding *decl;        /* what the shader declares: group, binding, kind, name */
  const struct ls_buffer *buffer; /* one of these three, or none (immediate data) */
  const struct ls_texture_view *view;
  const struct ls_sampler *sampler;
  const char *label;             /* the buffer's, texture's or sampler's; may be NULL */
  uint64_t offset, size;         /* the bound byte range (a texture: all its bytes) */
  uint64_t logical;              /* live bytes from offset on (ls_buffer_set_logical_size);
                                    UINT64_MAX = all */
  const vm_binding *vm;          /* what the VM gets: memory, texture geometry, sampler */
} api_slot_ctx;

/* One dispatch as its observers see it, from before it runs to after. */
typedef struct api_dispatch_ctx {
  struct ls_device *device;
  const struct ls_compute_pipeline *pipeline;
  const char *pipeline_name;     /* the label, else the entry point */
  const ir_program *prog;
  uint32_t groups[3];            /* workgroups (an indirect dispatch: as read) */
  uint32_t width;                /* subgroup width W */
  int indirect;
  const api_slot_ctx *slots;     /* prog->nbindings */
} api_dispatch_ctx;

/* An observer attached to a device (the sanitizer: check.c, a profiler:
 * prof.c, tests): before each dispatch that runs it says which VM observer
 * (vm/observe.h) watches it, NULL to sit this one out; after it, how the
 * dispatch ended (only when before returned an observer). user identifies
 * it for api_observer_remove. */
typedef struct api_observer {
  void *user;
  const vm_observer *(*before)(void *user, const api_dispatch_ctx *ctx);
  void (*after)(void *user, const api_dispatch_ctx *ctx, vm_status st, const vm_result *r);
} api_observer;

/* The device's observers (mu) and, on the queue thread, the dispatch they
 * are watching. */
typedef struct api_observers {
  api_observer *list;            /* (mu) */
  size_t count, cap;             /* (mu) */
  atomic_size_t attached;        /* count, read without the lock */
  /* queue thread only: */
  api_observer *snap;            /* the list as the dispatch began */
  size_t nsnap, capsnap;
  const vm_observer **vms;       /* [nsnap]: what each said, NULL = not watching */
  struct vm_mux *mux;            /* fans out to two or more (vm/observe_mux.h) */
  api_dispatch_ctx ctx;          /* between before and after */
  api_slot_ctx *slots;
} api_observers;

/* Device features (requiredFeatures): bit i is api_features[i] of device.c,
 * in the same order. */
enum {
  API_FEATURE_CORE = 1u << 0,
  API_FEATURE_SUBGROUPS = 1u << 1,
  API_FEATURE_SUBGROUP_SIZE_CONTROL = 1u << 2,
  API_FEATURE_SHADER_F16 = 1u << 3,
  API_FEATURE_BGRA8UNORM_STORAGE = 1u << 4,
  API_FEATURE_FLOAT32_FILTERABLE = 1u << 5,
  API_FEATURE_TIER1 = 1u << 6, /* texture-formats-tier1 */
  API_FEATURE_TIER2 = 1u << 7, /* texture-formats-tier2 */
  API_FEATURE_RG11B10_RENDERABLE = 1u << 8,
  API_FEATURE_DEPTH32FLOAT_STENCIL8 = 1u << 9,
  API_FEATURE_TIMESTAMP_QUERY = 1u << 10
};

struct api_op;

struct ls_device {
  api_refs refs; /* the user's handle + every live child object + the queue thread */
  _Atomic int destroyed; /* ls_device_destroy was called */
  _Atomic int released;  /* ls_device_release was called */
  ls_limits limits;
  uint32_t width, threads;
  uint64_t budget, dispatch_budget;
  uint32_t time_limit_ms;
  uint64_t memory_limit;
  uint64_t deadline; /* of the submit running now (queue thread only); 0 = none */
  const api_profile *profile;
  char *_Atomic label; /* api_set_label */
  vm_pool *pool;

  pthread_mutex_t mu; /* see the comment at the top */

  api_scope *scopes;
  size_t nscopes, capscopes;

  ls_error_callback error_fn;
  void *error_user;
  ls_log_callback log_fn;
  void *log_user;
  api_dispatch_hook dispatch_hook;
  void *dispatch_user;
  api_observers observers;     /* watch every dispatch (observe.c) */
  struct chk_state *check;     /* the sanitizer once enabled (check.c); an
                                  observer while on, its findings kept after */

  uint32_t features; /* API_FEATURE_*: what requestDevice asked for */
  _Atomic int lost;
  char *lost_message;
  ls_lost_reason lost_reason;
  ls_lost_callback lost_fn;
  void *lost_user;
  int lost_told; /* lost_fn was called (mu) */
  _Atomic uint64_t next_id; /* ids of pipelines, for layouts of layout "auto" */
  char **retired; /* labels replaced by set_label, kept until the device goes (mu) */
  size_t nretired;

  /* The queue timeline (timeline.c): operations run in order on qthread. */
  struct api_op *qhead, *qtail; /* (mu) */
  struct ls_buffer *buffers;    /* every live buffer, for destroy()'s unmap (mu) */
  uint64_t qissued, qdone;      /* sequence numbers of queued / finished ops (mu) */
  pthread_cond_t qwake, qidle;
  pthread_t qthread;
  _Atomic int qstarted;
  int qquit;                    /* (mu) */
  _Atomic int cancel;           /* the running dispatch stops at its next workgroup */
};

void api_device_ref(ls_device *d);
void api_device_unref(ls_device *d);
/* Lost or destroyed: WebGPU drops every error of such a device silently. */
int api_device_dead(const ls_device *d);
/* Set on the queue thread while it runs work nobody waits for: errors then
 * go to the error callback, since the scopes of the call that queued the
 * work are gone. */
extern _Thread_local int api_errors_uncaptured;
/* Set while a call must return its error instead of raising it
 * (createComputePipelineAsync): the first error's message goes here. */
extern _Thread_local char **api_capture_errors;
/* Reports an error through the innermost matching scope or the callback. */
void api_error(ls_device *d, ls_error_type type, const char *fmt, ...) API_PRINTF(3, 4);
void api_verror(ls_device *d, ls_error_type type, const char *fmt, va_list ap);
#define api_validation(d, ...) api_error((d), LS_ERROR_VALIDATION, __VA_ARGS__)
void api_log(ls_device *d, ls_log_level level, const char *fmt, ...) API_PRINTF(3, 4);
/* Marks the device lost (the first message is kept) and tells the lost
 * callback. */
void api_device_lose(ls_device *d, ls_lost_reason reason, const char *fmt, ...) API_PRINTF(3, 4);
/* Replaces *slot with a copy of label; the old string is retired, not freed,
 * since another thread may be formatting a message with it. 0 when memory
 * runs out (the label is then unchanged). Label members are atomic
 * pointers: messages read them on any thread without a lock, and the
 * atomic store publishes the new string's bytes with it. */
int api_set_label(ls_device *d, char *_Atomic *slot, const char *label);
/* A new object's label: a copy of label (NULL stays NULL); 0 when memory
 * runs out. (The value of an assignment to an atomic member cannot be
 * tested in place with every compiler.) */
int api_label_init(char *_Atomic *slot, const char *label);
#define API_LOCK(d) pthread_mutex_lock(&(d)->mu)
#define API_UNLOCK(d) pthread_mutex_unlock(&(d)->mu)
struct api_cmd;
/* observe.c. Attaches o (copied) to the dispatches queued from now on
 * (the work queued before runs first); returns 0 when memory runs out. */
int api_observer_add(ls_device *d, const api_observer *o);
/* Detaches the observer whose user is `user` (nothing if none) and returns
 * once no queued work can still call it, so its memory may go. */
void api_observer_remove(ls_device *d, const void *user);
/* Around one dispatch (queue.c): before builds the binding context of
 * command c (vb: the VM's bindings, n: the counts), asks every observer
 * and sets desc->observer (NULL when none watches: the plain interpreter
 * runs); after tells those that watch how it ended, and turns *st into
 * VM_NO_MEMORY when observing ran out of memory. */
void api_observers_before(ls_device *d, const struct api_cmd *c, const vm_binding *vb,
                          const uint32_t n[3], vm_dispatch_desc *desc);
void api_observers_after(ls_device *d, vm_status *st, const vm_result *r);
void api_observers_free(ls_device *d);
/* check.c: the sanitizer's state, when the device is freed. */
void api_check_free(ls_device *d);

/* printf into a malloc'd string; NULL when memory runs out. */
char *api_vformat(const char *fmt, va_list ap);
char *api_format(const char *fmt, ...) API_PRINTF(1, 2);
char *api_strdup(const char *s);
/* "'label'" or "(unlabelled)" style names for messages. */
const char *api_label(const char *label, const char *fallback);

/* ---------------------------------------------------------------- buffers */

typedef struct api_range {
  uint64_t offset, size;
} api_range;

struct ls_buffer {
  ls_device *device;
  api_refs refs;
  _Atomic int destroyed; /* set under mu; read without it when encoding */
  uint64_t size;
  uint32_t usage;
  uint8_t *data; /* size rounded up to 4, zeroed; NULL once its memory is freed */
  uint64_t logical_size; /* sanitizer: live bytes (UINT64_MAX = all) */
  char *_Atomic label; /* api_set_label */
  /* mapping (mu) */
  ls_map_state map_state;
  uint32_t map_mode;
  api_range mapped;        /* the mapped range */
  api_range *ranges;       /* getMappedRange results since the map */
  size_t nranges, capranges;
  ls_map_callback map_fn;  /* the pending map's callback */
  void *map_user;
  uint64_t map_ticket;     /* identifies the pending map (0 = none) */
  /* A READ mapping's copy of the mapped range: what getMappedRange hands
   * out, so that the host's changes are discarded at unmap (WebGPU) */
  uint8_t *shadow;
  struct ls_buffer *prev, *next; /* in device->buffers (mu) */
};

/* The buffer can be used by queued work: not destroyed, not mapped or
 * pending (d->mu held); else the reason, for a message. */
const char *api_buffer_unavailable_locked(const ls_buffer *b);

void api_buffer_ref(ls_buffer *b);
void api_buffer_unref(ls_buffer *b);
/* device.destroy()'s first step: unmaps every buffer of the device; pending
 * maps complete with LS_ABORTED (their callbacks run here, unlocked). */
void api_buffer_unmap_all(ls_device *d);
/* The label, else "(unlabelled)", for messages. */
const char *api_buffer_name(const ls_buffer *b);

/* --------------------------------------------------------------- textures */

/* One texel format (texture.c, from vm/formats.def): bytes per texel, the
 * sample types a texture binding of it accepts, the storage accesses it
 * allows and with which feature, the feature the format itself needs, its
 * copies and aspects. */
enum { API_ST_W = 1, API_ST_R = 2, API_ST_RW = 4 }; /* storage accesses */
enum { API_COPY_SRC = 1, API_COPY_DST = 2 };
enum { API_ASPECT_DEPTH = 1, API_ASPECT_STENCIL = 2 }; /* 0: a color format */
typedef struct api_texfmt {
  uint32_t texel_bytes;
  uint32_t sample_types; /* 1u << LS_SAMPLE_*, without features */
  uint32_t filterable32; /* "float" too with "float32-filterable" */
  uint32_t storage[4];   /* API_ST_* with: no feature, texture-formats-tier1,
                          * texture-formats-tier2, bgra8unorm-storage */
  uint32_t needs;        /* API_FEATURE_* createTexture needs; 0 none */
  uint32_t copy;         /* API_COPY_*: valid texel copy source / destination */
  uint32_t aspects;      /* API_ASPECT_* */
} api_texfmt;

/* NULL for LS_FORMAT_UNDEFINED or a value out of range. */
const api_texfmt *api_format_info(ls_texture_format f);
/* The storage accesses (API_ST_*) format f allows on device d. */
uint32_t api_format_storage(const ls_device *d, const api_texfmt *f);
/* RENDER_ATTACHMENT capability on the device, and multisampling (of a
 * renderable format). */
int api_format_renderable(const ls_device *d, ls_texture_format f);
int api_format_multisample(ls_texture_format f);
/* The sample types (1u << LS_SAMPLE_*) format f allows on device d. */
uint32_t api_format_sample_types(const ls_device *d, const api_texfmt *f);
/* Why format f refuses storage access `access` on device d, as the end of
 * a sentence: "(needs the \"texture-formats-tier1\" feature)" or "(it is
 * not a storage format)". */
const char *api_format_storage_why(const api_texfmt *f, uint32_t access);
/* WebGPU's "resolving GPUTextureAspect": the format itself for "all", the
 * aspect-specific format of a depth-stencil format, else
 * LS_FORMAT_UNDEFINED (the aspect is not present). */
ls_texture_format api_aspect_format(ls_texture_format f, ls_texture_aspect a);
/* API_ST_* of a storage texture binding type; 0 for the others. */
uint32_t api_storage_access(ls_binding_type type);
/* "write-only", "read-only" or "read-write" for one API_ST_* bit. */
const char *api_storage_access_name(uint32_t access);

#define API_MAX_LEVELS 32

struct ls_texture {
  ls_device *device;
  api_refs refs;
  _Atomic int destroyed; /* set under mu; read without it when encoding */
  ls_texture_dimension dimension;
  ls_extent3d size;
  ls_texture_format format;
  uint32_t levels, usage, texel_bytes;
  uint32_t samples;                      /* sampleCount: 1 or 4 */
  uint64_t view_formats;                 /* bit f: format f is in [[viewFormats]] */
  uint64_t level_offset[API_MAX_LEVELS]; /* byte offset of each mip level */
  uint64_t bytes;
  uint8_t *data; /* zeroed; NULL once destroyed */
  char *_Atomic label; /* api_set_label */
};

struct ls_texture_view {
  ls_device *device;
  api_refs refs;
  ls_texture *texture;
  ls_texture_format format; /* for one aspect of a depth-stencil format, its format */
  ls_texture_aspect aspect;
  ls_view_dimension dimension;
  uint32_t base_level, levels, base_layer, layers, usage;
  char *_Atomic label; /* api_set_label */
};

void api_texture_ref(ls_texture *t);
void api_texture_unref(ls_texture *t);
void api_texture_view_ref(ls_texture_view *v);
void api_texture_view_unref(ls_texture_view *v);
const char *api_texture_name(const ls_texture *t);
/* Size of mip level `level`: depth_or_array_layers is the depth of a 3D
 * texture, else the array layers. */
ls_extent3d api_texture_level_size(const ls_texture *t, uint32_t level);
/* The VM's picture of a view (texture.c). */
void api_texture_view_to_vm(const ls_texture_view *v, vm_texture *out);
const char *api_view_dimension_name(ls_view_dimension d);

/* The copy between linear bytes and a texture region (of one aspect),
 * validated already; to_texture picks the direction. */
void api_texture_copy(ls_texture *t, uint32_t level, ls_origin3d origin, const ls_extent3d *size,
                      ls_texture_aspect aspect, uint8_t *linear,
                      const ls_texel_copy_buffer_layout *layout, int to_texture);
/* WebGPU's "validating texture buffer copy" for one side of a copy (op
 * names the call in messages): returns 0 when valid, else 1 with the
 * reason in why. aligned: bytesPerRow a multiple of 256 and the offset of
 * the texel size (encoder copies). */
/* Formats that are equal or differ only in an -srgb suffix (WebGPU's
 * "copy-compatible" and, on a core device, "texture view format
 * compatible"). */
int api_formats_srgb_pair(ls_texture_format a, ls_texture_format b);
/* "all", "depth-only", "stencil-only" */
const char *api_aspect_name(ls_texture_aspect a);
/* WebGPU's "validating GPUTexelCopyTextureInfo" and the usage, for the
 * texture side of any copy (side: "source" or "destination"). */
int api_texel_copy_info_check(const char *op, const char *side, const ls_device *d,
                              const ls_texel_copy_texture_info *info, const ls_extent3d *size,
                              uint32_t usage, char *why, size_t len);
void api_texture_copy_texels(const ls_texture *s, uint32_t sl, ls_origin3d so, ls_texture *t,
                             uint32_t tl, ls_origin3d to, const ls_extent3d *size);
int api_texture_copy_check(const char *op, const ls_device *d,
                           const ls_texel_copy_texture_info *info,
                           const ls_texel_copy_buffer_layout *layout, uint64_t data_length,
                           const ls_extent3d *size, uint32_t usage, int aligned, char *why,
                           size_t len);

/* ------------------------------------------------------ external textures */

struct ls_external_texture {
  ls_device *device;
  api_refs refs;
  ls_texture_view *view; /* the frame */
  char *_Atomic label; /* api_set_label */
};

void api_external_texture_ref(ls_external_texture *x);
void api_external_texture_unref(ls_external_texture *x);

/* --------------------------------------------------------------- samplers */

struct ls_sampler {
  ls_device *device;
  api_refs refs;
  int valid;          /* createSampler's validation passed */
  int is_comparison;  /* [[isComparison]] */
  int is_filtering;   /* [[isFiltering]] */
  vm_sampler state;   /* what the VM samples with */
  char *_Atomic label; /* api_set_label */
};

void api_sampler_ref(ls_sampler *s);
void api_sampler_unref(ls_sampler *s);
const char *api_sampler_name(const ls_sampler *s);

/* ---------------------------------------------------------- shader module */

struct ls_shader_module {
  ls_device *device;
  api_refs refs;
  /* held while a pipeline is lowered from the module: lowering uses the
   * syntax tree's scratch slots and the module's arena */
  pthread_mutex_t lower_mu;
  wgsl_module *module;
  ls_compilation_message *messages;
  size_t nmessages;
  char *formatted;
  char *_Atomic label; /* api_set_label */
  int valid;
};

void api_shader_module_ref(ls_shader_module *m);
void api_shader_module_unref(ls_shader_module *m);

/* ---------------------------------------------------------------- layouts */

struct ls_bind_group_layout {
  ls_device *device;
  api_refs refs;
  char *_Atomic label; /* api_set_label */
  ls_bind_group_layout_entry *entries; /* sorted by binding */
  size_t count;
  uint64_t exclusive; /* id of the pipeline of layout "auto"; 0 = none */
};

struct ls_pipeline_layout {
  ls_device *device;
  api_refs refs;
  char *_Atomic label; /* api_set_label */
  uint32_t immediate_size; /* [[immediateSize]] */
  ls_bind_group_layout **groups; /* NULL where the group is empty or unset */
  size_t count;
};

typedef struct api_bind_entry {
  uint32_t binding;
  ls_binding_type type;
  ls_buffer *buffer;
  uint64_t offset, size; /* the effective range */
  ls_texture_view *view; /* a texture entry (buffer NULL) */
  ls_sampler *sampler;   /* a sampler entry (buffer and view NULL) */
  ls_external_texture *external; /* an external texture entry (view is its frame) */
  int32_t dynamic_index; /* its place among the group's dynamic offsets; -1 = none */
} api_bind_entry;

struct ls_bind_group {
  ls_device *device;
  api_refs refs;
  ls_bind_group_layout *layout;
  api_bind_entry *entries; /* sorted by binding */
  size_t count;
  size_t dynamic_count; /* entries whose layout entry has a dynamic offset */
  char *_Atomic label; /* api_set_label */
};

void api_bind_group_layout_ref(ls_bind_group_layout *l);
void api_bind_group_layout_unref(ls_bind_group_layout *l);
void api_pipeline_layout_ref(ls_pipeline_layout *l);
void api_pipeline_layout_unref(ls_pipeline_layout *l);
void api_bind_group_ref(ls_bind_group *g);
void api_bind_group_unref(ls_bind_group *g);
/* WebGPU's group-equivalence: same entries and same exclusive pipeline. */
int api_bind_group_layout_equivalent(const ls_bind_group_layout *a,
                                     const ls_bind_group_layout *b);
const ls_bind_group_layout_entry *api_bind_group_layout_find(const ls_bind_group_layout *l,
                                                             uint32_t binding);
const api_bind_entry *api_bind_group_find(const ls_bind_group *g, uint32_t binding);
/* GPUTextureSampleType's name ("unfilterable-float"). */
const char *api_sample_type_name(ls_texture_sample_type t);
/* LS_BINDING_*_SAMPLER (layout.c). */
int api_is_sampler(ls_binding_type t);
/* Creates a layout without raising errors (for layout "auto"); checks
 * against the limits are left to the caller. NULL when memory runs out. */
ls_bind_group_layout *api_bind_group_layout_new(ls_device *d,
                                                const ls_bind_group_layout_entry *entries,
                                                size_t count, uint64_t exclusive);
/* Checks the binding slot limits of a set of layouts: returns 0 when within
 * them, else 1 with a message naming the limit in why. */
int api_check_slot_limits(const ls_device *d, ls_bind_group_layout *const *groups, size_t count,
                          char *why, size_t len);
const char *api_binding_type_name(ls_binding_type t);

/* -------------------------------------------------------------- pipelines */

struct ls_compute_pipeline {
  ls_device *device;
  api_refs refs;
  uint64_t id;
  ls_shader_module *module;
  ir_program *program;
  ls_pipeline_layout *layout;
  int auto_layout;
  char *_Atomic label; /* api_set_label */
};

void api_compute_pipeline_ref(ls_compute_pipeline *p);
void api_compute_pipeline_unref(ls_compute_pipeline *p);
/* The linear_indexing built-in (workgroup_index, global_invocation_index)
 * the program uses whose value would not fit in u32 on n workgroups, or
 * NULL: WebGPU refuses such a dispatch. */
const char *api_dispatch_index_overflow(const ir_program *prog, const uint32_t n[3]);
/* The bytecode of a pipeline (for `lockstep disasm`). */
const ir_program *api_compute_pipeline_program(const ls_compute_pipeline *p);
/* The label, else the entry point's name, for messages. */
const char *api_pipeline_name(const ls_compute_pipeline *p);

/* --------------------------------------------------------------- commands */

typedef enum api_cmd_kind {
  API_CMD_COPY,
  API_CMD_DISPATCH,
  API_CMD_COPY_B2T,  /* copyBufferToTexture: src, texture */
  API_CMD_COPY_T2B,  /* copyTextureToBuffer: texture, dst */
  API_CMD_COPY_T2T,  /* copyTextureToTexture: texture -> dst_texture */
  API_CMD_CLEAR,     /* clearBuffer: dst, dst_offset, size */
  API_CMD_RESOLVE,   /* resolveQuerySet: query_set, first, size queries, dst, dst_offset */
  API_CMD_TIMESTAMP  /* a pass's timestampWrites: query_set[first] = now */
} api_cmd_kind;

typedef struct api_cmd {
  api_cmd_kind kind;
  /* copy */
  ls_buffer *src, *dst;
  uint64_t src_offset, dst_offset, size;
  /* texture copies: the texture side and the buffer's layout */
  ls_texture *texture;
  uint32_t mip_level;
  ls_origin3d origin;
  ls_texture_aspect aspect;
  ls_extent3d extent;
  ls_texel_copy_buffer_layout layout;
  ls_texture *dst_texture; /* copyTextureToTexture's destination */
  uint32_t dst_mip_level;
  ls_origin3d dst_origin;
  /* dispatch: a snapshot of the pass state */
  ls_compute_pipeline *pipeline;
  ls_bind_group **groups; /* pipeline->layout->count entries, NULL where none */
  size_t ngroups;
  uint32_t count[3];
  uint32_t **dynamic;     /* per group: its dynamic offsets (NULL when none) */
  ls_buffer *indirect; /* NULL for a direct dispatch */
  uint64_t indirect_offset;
  uint8_t immediates[256]; /* the pass's immediate data at the dispatch */
  /* queries */
  ls_query_set *query_set;
  uint32_t first;
} api_cmd;

void api_cmd_release(api_cmd *c);

/* Recorded commands: finish() moves them from the encoder into the command
 * buffer, submit from the command buffer into the queue, which releases
 * them once they have run. used is WebGPU's [[used_bind_groups]]: every
 * bind group a setBindGroup named (a key each, holding a reference),
 * dispatched or not, whose resources submit checks. */
typedef struct api_cmd_list {
  api_cmd *cmds;
  size_t count;
  ptrmap used;
} api_cmd_list;

void api_cmd_list_release(api_cmd_list *l);
/* The first problem recorded in the pass's encoder, NULL while it is valid:
 * lets the CLI name the dispatch that broke a rule before finish(). */
const char *api_compute_pass_error(const ls_compute_pass *pass);

struct ls_command_buffer {
  ls_device *device;
  api_cmd_list list;      /* empty once submitted */
  _Atomic int submitted;  /* a submit took the commands (WebGPU invalidates it) */
  char *_Atomic label;    /* api_set_label */
};

/* -------------------------------------------------------------- queries */

struct ls_query_set {
  ls_device *device;
  api_refs refs;
  ls_query_type type;
  uint32_t count;
  _Atomic int destroyed; /* set under mu; read without it when encoding */
  uint64_t *values; /* [count], zeroed */
  char *_Atomic label; /* api_set_label */
};

void api_query_set_ref(ls_query_set *q);
void api_query_set_unref(ls_query_set *q);

/* ------------------------------------------------------------- timeline */

/* One queued operation (timeline.c). run executes it on the queue thread;
 * drop is called instead when the device is lost or destroyed before it ran
 * (status LS_DEVICE_LOST); either frees arg. */
typedef struct api_op {
  struct api_op *next;
  uint64_t seq;
  void (*run)(ls_device *d, void *arg);
  void (*drop)(ls_device *d, void *arg);
  void *arg;
} api_op;

/* Starts the device's queue thread (device creation); 0 on failure. */
int api_timeline_start(ls_device *d);
/* Stops it: ops not yet run are dropped; the running one finishes (a
 * dispatch stops at its next workgroup). Returns at once when called on the
 * queue thread itself, which then exits after its current op. */
void api_timeline_stop(ls_device *d);
/* Queues an op; with d->mu held. Returns its sequence number, or 0 when it
 * could not be queued (out of memory, the queue stopped): the caller then
 * drops it itself once it has released the lock. api_timeline_push does
 * that. */
uint64_t api_timeline_push_locked(ls_device *d, void (*run)(ls_device *, void *),
                                  void (*drop)(ls_device *, void *), void *arg);
uint64_t api_timeline_push(ls_device *d, void (*run)(ls_device *, void *),
                           void (*drop)(ls_device *, void *), void *arg);
/* Waits (not on the queue thread) until op seq has run or been dropped. */
void api_timeline_wait(ls_device *d, uint64_t seq);
/* Nonzero while an op is queued or running (d->mu held). */
int api_timeline_busy_locked(const ls_device *d);
/* Nonzero when the caller is this device's queue thread. */
int api_timeline_is_queue_thread(const ls_device *d);

#endif
