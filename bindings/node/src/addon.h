/*
 * addon.h — what the C files of the Node.js binding share.
 *
 * The binding is two layers: lib/ (JavaScript: the WebGPU classes, WebIDL
 * argument conversion from one table, promises and events) and src/ (this
 * addon: one file per WebGPU interface, each a set of small native functions
 * over include/lockstep.h). JavaScript has already converted and checked every
 * argument when it calls in, so the native functions take plain values and
 * the JavaScript object that a handle lives in.
 *
 * Each lockstep handle lives in an nd_obj wrapped into its JavaScript object
 * (napi_wrap); the wrap's finalizer releases the handle when the object is
 * collected. Completions that lockstep reports on its queue thread (maps,
 * work done, errors, device loss, warnings) travel to JavaScript through one
 * thread-safe function (nd_post) and are delivered in the order they were
 * posted.
 */
#ifndef ND_ADDON_H
#define ND_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdint.h>
#include <stddef.h>
#include <pthread.h>

#include "lockstep.h"

/* The kinds of handle, with their release and set_label functions. */
#define ND_KIND_LIST(X)                                                                  \
  X(ADAPTER, "GPUAdapter", ls_adapter_release, NULL)                                     \
  X(DEVICE, "GPUDevice", nd_device_release_handle, nd_device_set_label)                  \
  X(BUFFER, "GPUBuffer", ls_buffer_release, ls_buffer_set_label)                         \
  X(TEXTURE, "GPUTexture", ls_texture_release, ls_texture_set_label)                     \
  X(TEXTURE_VIEW, "GPUTextureView", ls_texture_view_release, ls_texture_view_set_label)  \
  X(SAMPLER, "GPUSampler", ls_sampler_release, ls_sampler_set_label)                     \
  X(EXTERNAL_TEXTURE, "GPUExternalTexture", ls_external_texture_release,                 \
    ls_external_texture_set_label)                                                       \
  X(SHADER_MODULE, "GPUShaderModule", ls_shader_module_release, ls_shader_module_set_label) \
  X(BIND_GROUP_LAYOUT, "GPUBindGroupLayout", ls_bind_group_layout_release,               \
    ls_bind_group_layout_set_label)                                                      \
  X(PIPELINE_LAYOUT, "GPUPipelineLayout", ls_pipeline_layout_release,                    \
    ls_pipeline_layout_set_label)                                                        \
  X(BIND_GROUP, "GPUBindGroup", ls_bind_group_release, ls_bind_group_set_label)          \
  X(COMPUTE_PIPELINE, "GPUComputePipeline", ls_compute_pipeline_release,                 \
    ls_compute_pipeline_set_label)                                                       \
  X(COMMAND_ENCODER, "GPUCommandEncoder", ls_command_encoder_release,                    \
    ls_command_encoder_set_label)                                                        \
  X(COMPUTE_PASS, "GPUComputePassEncoder", ls_compute_pass_release, ls_compute_pass_set_label) \
  X(COMMAND_BUFFER, "GPUCommandBuffer", ls_command_buffer_release, ls_command_buffer_set_label) \
  X(QUERY_SET, "GPUQuerySet", ls_query_set_release, ls_query_set_set_label)

typedef enum nd_kind {
#define ND_X_(k, name, rel, lab) ND_##k,
  ND_KIND_LIST(ND_X_)
#undef ND_X_
  ND_KIND_COUNT_
} nd_kind;

typedef struct nd_device nd_device;

/* A handle in its JavaScript object, released by the wrap's finalizer. A
 * consumed handle (a finished encoder, an ended pass, a submitted command
 * buffer) stays until then: lockstep keeps such handles valid until their
 * release, and the JavaScript layer stops calling them. h is NULL only when
 * no handle was made. */
typedef struct nd_obj {
  nd_kind kind;
  void *h;
  nd_device *dev;       /* the device it was made from (NULL for adapters) */
  int64_t ext_bytes;    /* memory outside V8 reported with napi_adjust_external_memory */
  char *source;         /* shader modules: the WGSL as UTF-8, for offset conversion */
  size_t source_len;
} nd_obj;

/* What the addon knows of a device beyond its handle. The DEVICE wrap holds
 * this (not the ls_device). It is never freed: lockstep may still be inside
 * one of the device's callbacks on its queue thread when JavaScript drops
 * the device, and a device is a few hundred bytes. */
struct nd_device {
  ls_device *h;
  pthread_mutex_t lock; /* findings_seen, reports_written */
  uint32_t id;          /* names the device in events */
  int released;
  int checks;           /* the sanitizer is on */
  size_t findings_seen; /* findings already printed (queue thread or main) */
  ls_profiler *prof;
  char *prof_html, *prof_json; /* where the reports go; NULL = none */
  int reports_written;
  char *profile;        /* the adapter's profile name, for report headers */
  int watching;         /* the binding's own work-done watch is outstanding (main thread) */
  int submitted_since;  /* submits made after that watch was registered (main thread) */
  nd_device *next;      /* every live device, for the exit hook */
};

/* Events for JavaScript: kind, the id (request or device), a status, a
 * message. */
typedef enum nd_event_kind {
  ND_EV_RESOLVE = 1, /* a request posted from the main thread: no payload */
  ND_EV_MAP,         /* status: ls_status */
  ND_EV_DONE,        /* onSubmittedWorkDone: status ls_status */
  ND_EV_ERROR,       /* uncaptured error: status ls_error_type */
  ND_EV_LOG,         /* lockstep's own warning: status ls_log_level */
  ND_EV_LOST,        /* status ls_lost_reason */
  ND_EV_FINDING,     /* a sanitizer finding: status = its index */
  ND_EV_POP,         /* popErrorScope: status ls_error_type */
  ND_EV_INTERNAL_DONE /* the binding's own work-done watch after a submit */
} nd_event_kind;

/* ---- addon.c */
napi_value nd_undefined(napi_env env);
napi_value nd_bool(napi_env env, int v);
napi_value nd_u32(napi_env env, uint32_t v);
napi_value nd_f64(napi_env env, double v);
napi_value nd_str(napi_env env, const char *s);
napi_value nd_limits_array(napi_env env, const ls_limits *l); /* adapter.c */
/* Throws (as a JavaScript Error with code) and returns NULL. */
napi_value nd_throw(napi_env env, const char *code, const char *fmt, ...);

/* Arguments: nd_args fills argv (missing ones undefined); n at most
 * ND_MAX_ARGS. */
#define ND_MAX_ARGS 8
int nd_args(napi_env env, napi_callback_info info, size_t n, napi_value *argv);
uint32_t nd_get_u32(napi_env env, napi_value v);
int32_t nd_get_i32(napi_env env, napi_value v);
uint64_t nd_get_u64(napi_env env, napi_value v); /* a Number or a BigInt; undefined = LS_WHOLE_SIZE */
double nd_get_f64(napi_env env, napi_value v);
int nd_get_bool(napi_env env, napi_value v);
int nd_is_nullish(napi_env env, napi_value v);
/* A malloc'd UTF-8 copy (free with free); NULL for null/undefined. */
char *nd_get_str(napi_env env, napi_value v);
/* The same, with its length in bytes (a JavaScript string may hold NUL). */
char *nd_get_str_len(napi_env env, napi_value v, size_t *len);
/* nd_get_str for a name the library looks up (an entry point, an override):
 * a NUL inside is written out as \u0000, so that it matches no name rather
 * than the part before it. */
char *nd_get_name(napi_env env, napi_value v);
/* A Uint8Array's bytes, in place (JavaScript turns every BufferSource into
 * one over exactly the bytes meant): 1, or 0 for anything else. */
int nd_get_bytes(napi_env env, napi_value v, void **data, size_t *len);
/* A property of an object (undefined when absent). */
napi_value nd_prop(napi_env env, napi_value obj, const char *name);
void nd_set(napi_env env, napi_value obj, const char *name, napi_value v);

/* Wraps a new handle into the JavaScript object js (which keeps it until
 * collected). */
nd_obj *nd_wrap(napi_env env, napi_value js, nd_kind kind, void *h, nd_device *dev);
/* The nd_obj of a JavaScript object, or NULL (no wrap, or another kind). */
nd_obj *nd_unwrap(napi_env env, napi_value js, nd_kind kind);
/* The live handle of a JavaScript object of that kind, or NULL. */
void *nd_handle(napi_env env, napi_value js, nd_kind kind);
void nd_external_memory(napi_env env, nd_obj *o, int64_t bytes);

/* Posts an event to JavaScript; safe from any thread. Posted from the main
 * thread, the event holds the event loop open until it is delivered. */
void nd_post(nd_event_kind kind, uint32_t id, int32_t status, const char *message);
/* A request the main thread starts whose completion comes back as an event:
 * the event loop stays open until it does. */
void nd_pending_begin(napi_env env);
int nd_on_main_thread(void);

/* ---- device.c */
void nd_device_release_handle(nd_device *d); /* the DEVICE kind's h is the nd_device */
nd_device *nd_device_of(napi_env env, napi_value js); /* NULL unless a live device */
void nd_device_set_label(nd_device *d, const char *label);
/* Prints the sanitizer findings not printed yet and posts them to JS. */
void nd_device_drain_findings(nd_device *d);
/* Writes the profiler reports (once) and prints outstanding findings. */
void nd_device_finish(nd_device *d);
void nd_devices_finish_all(void);
nd_device *nd_device_by_id(uint32_t id); /* a live device, or NULL */

/* ---- queue.c */
/* Watches the device's submitted work (see queue.c); nd_watch_done runs on
 * the main thread when a watch's event is delivered and returns 1 when the
 * watch was renewed (the pending count stays). */
void nd_watch_submit(napi_env env, nd_device *d);
int nd_watch_done(nd_device *d);

/* ---- pass.c */

/* Every file's exports, collected by addon.c. */
typedef struct nd_export {
  const char *name;
  napi_callback fn;
} nd_export;

#define ND_EXPORTS_DECL(file) extern const nd_export nd_exports_##file[]
ND_EXPORTS_DECL(gpu);
ND_EXPORTS_DECL(adapter);
ND_EXPORTS_DECL(device);
ND_EXPORTS_DECL(buffer);
ND_EXPORTS_DECL(queue);
ND_EXPORTS_DECL(texture);
ND_EXPORTS_DECL(sampler);
ND_EXPORTS_DECL(shader);
ND_EXPORTS_DECL(layout);
ND_EXPORTS_DECL(pipeline);
ND_EXPORTS_DECL(encoder);
ND_EXPORTS_DECL(pass);
ND_EXPORTS_DECL(query);
ND_EXPORTS_DECL(jscache);

#define ND_FN(name) static napi_value name(napi_env env, napi_callback_info info)



/* ---- queue.c: converted copy dictionaries (encoder.c uses them too) */
int nd_copy_texture_info(napi_env env, napi_value v, ls_texel_copy_texture_info *out);
void nd_copy_buffer_layout(napi_env env, napi_value v, ls_texel_copy_buffer_layout *out);
void nd_extent(napi_env env, napi_value v, ls_extent3d *out);


/* ---- addon.c: a WebGPU enum string to its lockstep value through a
 * NULL-terminated name table (index = value unless values is given);
 * undefined gives def. */
int nd_enum(napi_env env, napi_value v, const char *const *names, const int *values, int def);
#endif
