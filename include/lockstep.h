/*
 * lockstep.h — the only public header of lockstep, the WebGPU compute model
 * on the CPU.
 *
 * The API follows WebGPU's compute subset: adapter -> device -> buffers,
 * shader modules, pipelines, bind groups -> command encoder -> compute pass
 * -> queue submit. Every object is an opaque handle.
 *
 * Error model (as WebGPU): invalid use is a *validation error*. It is reported
 * through the innermost error scope (ls_device_push_error_scope) or, when no
 * scope captures it, through the device's error callback; the call that caused
 * it returns NULL (creation) or does nothing. Errors found while recording a
 * compute pass surface at ls_command_encoder_finish(). Nothing aborts the host
 * process. Warnings that are not errors (an indirect dispatch skipped because
 * a count is over the limit) go to the log callback.
 *
 * Threads (WebGPU's model): every function may be called from any thread, and
 * every object may be used from several threads at once. Calls on one device
 * are ordered as WebGPU orders them: object creation and validation happen in
 * the calling thread when the call is made; queue operations (submit,
 * writeBuffer, writeTexture, mapAsync, onSubmittedWorkDone) run on the
 * device's queue thread in the order they were issued, so a writeBuffer made
 * after a submit lands after that submit's dispatches. Callbacks (errors,
 * logs, device loss, map and work-done completions) may run on the queue
 * thread; they may call any function of this header, ls_device_destroy and
 * ls_device_release of their own device included. Two threads racing on one
 * object get one of the orders, never a crash (two threads recording into
 * one encoder: each command lands, interleaved in some order); what a
 * shader reads from a buffer another thread is writing through the queue is
 * decided by the queue order alone. Error scopes are one stack per device,
 * shared by all the threads using it (WebGPU's [[errorScopeStack]]):
 * threads that push and pop scopes at once must agree among themselves.
 * The sanitizer's calls (ls_device_enable_checks, the finding accessors,
 * ...) are queue operations the caller waits for: they see the work queued
 * before them.
 *
 * Lifetimes. Release and destroy are different things, and some calls
 * consume what a handle is for but never the handle itself:
 *  - ls_X_release drops the caller's reference. After a handle's last
 *    release it must not be used again, as with free(): lockstep keeps no
 *    registry of handles (which would slow every call), so it cannot tell
 *    such a use from a valid one and it is undefined behaviour, as in every
 *    C API of WebGPU (webgpu.h's wgpuXRelease). Builds configured with
 *    LOCKSTEP_POISON_FREED (on in Debug builds) fill every freed object with
 *    0xA5 bytes, so that such a use faults at once rather than reading stale
 *    data. Objects hold references on what they use (a bind group its
 *    buffers, a pipeline its module, recorded commands their pipelines and
 *    bind groups, a pass its encoder, every object its device), so a handle
 *    may be released while something still uses it.
 *  - ls_X_destroy (buffers, textures, query sets and devices: WebGPU's
 *    destroy()) frees the object's memory once queued work that uses it is
 *    done; the handle stays valid until released and a second destroy does
 *    nothing. Using a destroyed buffer, texture or query set is a
 *    validation error where WebGPU checks it: ls_queue_write_buffer,
 *    ls_queue_write_texture and ls_buffer_map_async at the call; commands
 *    that use it (copies, resolves, dispatches whose bind groups hold it) at
 *    ls_queue_submit, so recording them, and creating bind groups and views
 *    of it, succeed. Every call on a destroyed device or its objects does
 *    nothing (WebGPU drops the errors of a lost device).
 *  - Consumed handles: ls_command_encoder_finish ends the encoder,
 *    ls_compute_pass_end the pass, and ls_queue_submit /
 *    ls_queue_submit_async spend their command buffers, valid or not
 *    (WebGPU's "ended" and "invalidated" states). The handle stays valid
 *    until released; using it again for what it was for is a validation
 *    error raised at once, whose message names the object's label and says
 *    it is finished, has ended or was already submitted: a command on a
 *    finished encoder or a second finish, a command on an ended pass or a
 *    second end, a command buffer submitted again. So release encoders,
 *    passes and command buffers after finish, end and submit like every
 *    other handle; what these calls consumed (the recorded commands) is
 *    freed by them, the rest by the release.
 * release(NULL) and destroy(NULL) are no-ops.
 *
 * Memory: strings and arrays the library returns through a `char *` (reports,
 * JSON) are malloc'd for the caller, who frees them with ls_free. Pointers
 * returned as `const` are owned by the object they came from and live as
 * long as it does (or as the comment at the call says).
 *
 * Descriptors: every descriptor and options struct begins with
 * `size_t struct_size`, the size of the struct as the caller compiled it
 * (LS_STRUCT_SIZE(type), or 0 for this header's size). Members are only ever
 * added at the end; a library reads a shorter struct as if the missing members
 * were 0, and refuses (validation error, or NULL with a message) a struct
 * longer than it knows. A zero member means WebGPU's default unless its
 * comment says otherwise, so `ls_buffer_desc d = {.size = 64, .usage = ...}`
 * is complete. A NULL descriptor pointer, where the comment allows it, is the
 * all-defaults descriptor.
 */
#ifndef LOCKSTEP_H
#define LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden symbols; LS_API marks what it exports. */
#if defined(__GNUC__)
#define LS_API __attribute__((visibility("default")))
#else
#define LS_API
#endif

#define LS_VERSION_MAJOR 0
#define LS_VERSION_MINOR 4
#define LS_VERSION_PATCH 0
/* The struct_size of a descriptor type (see "Descriptors" above). */
#define LS_STRUCT_SIZE(type) sizeof(type)
/* The library's version as "MAJOR.MINOR.PATCH"; compare with the macros. */
LS_API const char *ls_version(void);
/* The instruction set the interpreter's lane loops run on in this process:
 * "sse2" (the x86-64 baseline, and the name used on other hosts), "avx2" or
 * "avx512", the best the CPU supports, chosen at the first call or
 * dispatch; the environment variable LOCKSTEP_ISA (one of those names)
 * forces one, falling back to the best the CPU has below it. Results are
 * the same in every variant. ls_isa_available: whether this CPU runs the
 * variant named. */
LS_API const char *ls_isa(void);
LS_API int ls_isa_available(const char *name);
/* Frees what the library malloc'd for the caller (see "Memory" above). */
LS_API void ls_free(void *p);

/* ------------------------------------------------------------------ status */

#define LS_STATUS_LIST(X)                                                      \
  X(OK, "success")                                                             \
  X(VALIDATION, "validation error")                                            \
  X(OPERATION, "operation rejected")                                           \
  X(TYPE, "type error (unknown feature or bad argument)")                      \
  X(OUT_OF_MEMORY, "out of memory")                                            \
  X(DEVICE_LOST, "device lost")                                                \
  X(ABORTED, "aborted (unmapped or destroyed before the operation completed)") \
  X(INTERNAL, "internal error")

typedef enum ls_status {
#define LS_X_(name, text) LS_##name,
  LS_STATUS_LIST(LS_X_)
#undef LS_X_
  LS_STATUS_COUNT_
} ls_status;

/* "LS_VALIDATION" -> "VALIDATION"; and a one-line description. */
LS_API const char *ls_status_name(ls_status s);
LS_API const char *ls_status_describe(ls_status s);

/* ------------------------------------------------------------------ limits */

/* X(field, WebGPU name, default, class) — class MAX ("maximum" limits: bigger
 * is better) or ALIGN ("alignment" limits: smaller is better, power of two). */
#define LS_LIMITS_LIST(X)                                                                  \
  X(max_bind_groups, "maxBindGroups", 4, MAX)                                              \
  X(max_bindings_per_bind_group, "maxBindingsPerBindGroup", 1000, MAX)                     \
  X(max_dynamic_uniform_buffers_per_pipeline_layout,                                       \
    "maxDynamicUniformBuffersPerPipelineLayout", 8, MAX)                                   \
  X(max_dynamic_storage_buffers_per_pipeline_layout,                                       \
    "maxDynamicStorageBuffersPerPipelineLayout", 4, MAX)                                   \
  X(max_storage_buffers_per_shader_stage, "maxStorageBuffersPerShaderStage", 8, MAX)       \
  X(max_uniform_buffers_per_shader_stage, "maxUniformBuffersPerShaderStage", 12, MAX)      \
  X(max_uniform_buffer_binding_size, "maxUniformBufferBindingSize", 65536, MAX)            \
  X(max_storage_buffer_binding_size, "maxStorageBufferBindingSize", 134217728, MAX)        \
  X(min_uniform_buffer_offset_alignment, "minUniformBufferOffsetAlignment", 256, ALIGN)    \
  X(min_storage_buffer_offset_alignment, "minStorageBufferOffsetAlignment", 256, ALIGN)    \
  X(max_buffer_size, "maxBufferSize", 268435456, MAX)                                      \
  X(max_compute_workgroup_storage_size, "maxComputeWorkgroupStorageSize", 16384, MAX)      \
  X(max_compute_invocations_per_workgroup, "maxComputeInvocationsPerWorkgroup", 256, MAX)  \
  X(max_compute_workgroup_size_x, "maxComputeWorkgroupSizeX", 256, MAX)                    \
  X(max_compute_workgroup_size_y, "maxComputeWorkgroupSizeY", 256, MAX)                    \
  X(max_compute_workgroup_size_z, "maxComputeWorkgroupSizeZ", 64, MAX)                     \
  X(max_compute_workgroups_per_dimension, "maxComputeWorkgroupsPerDimension", 65535, MAX)   \
  X(max_texture_dimension_1d, "maxTextureDimension1D", 8192, MAX)                          \
  X(max_texture_dimension_2d, "maxTextureDimension2D", 8192, MAX)                          \
  X(max_texture_dimension_3d, "maxTextureDimension3D", 2048, MAX)                          \
  X(max_texture_array_layers, "maxTextureArrayLayers", 256, MAX)                           \
  X(max_sampled_textures_per_shader_stage, "maxSampledTexturesPerShaderStage", 16, MAX)    \
  X(max_storage_textures_per_shader_stage, "maxStorageTexturesPerShaderStage", 4, MAX)     \
  X(max_samplers_per_shader_stage, "maxSamplersPerShaderStage", 16, MAX)                   \
  X(max_immediate_size, "maxImmediateSize", 64, MAX)

typedef struct ls_limits {
#define LS_X_(field, name, def, cls) uint64_t field;
  LS_LIMITS_LIST(LS_X_)
#undef LS_X_
} ls_limits;

/* Fills *out with the WebGPU default limits. */
LS_API void ls_limits_default(ls_limits *out);
/* Sets one limit by its WebGPU name ("maxComputeInvocationsPerWorkgroup").
 * Returns LS_OPERATION for an unknown name (as requestDevice would). */
LS_API ls_status ls_limits_set(ls_limits *limits, const char *webgpu_name, uint64_t value);
/* Reads one limit by WebGPU name; returns 0 when the name is unknown. */
LS_API int ls_limits_get(const ls_limits *limits, const char *webgpu_name, uint64_t *value);

/* ----------------------------------------------------------------- adapter */

typedef struct ls_adapter ls_adapter;
typedef struct ls_device ls_device;
typedef struct ls_buffer ls_buffer;
typedef struct ls_texture ls_texture;
typedef struct ls_texture_view ls_texture_view;
typedef struct ls_sampler ls_sampler;
typedef struct ls_external_texture ls_external_texture;
typedef struct ls_shader_module ls_shader_module;
typedef struct ls_bind_group_layout ls_bind_group_layout;
typedef struct ls_pipeline_layout ls_pipeline_layout;
typedef struct ls_compute_pipeline ls_compute_pipeline;
typedef struct ls_bind_group ls_bind_group;
typedef struct ls_command_encoder ls_command_encoder;
typedef struct ls_compute_pass ls_compute_pass;
typedef struct ls_command_buffer ls_command_buffer;

typedef struct ls_adapter_options {
  size_t struct_size;     /* LS_STRUCT_SIZE: see "Descriptors" above */
  const char *profile;    /* vendor profile name; NULL = "default" */
  uint32_t subgroup_size; /* 0 = the profile's; else 8, 16, 32 or 64 */
  uint32_t threads;       /* worker threads; 0 = one per core */
  /* The most subgroup-instructions one workgroup may execute before the
   * device is lost (a runaway shader); 0 = the default, 1 << 32;
   * UINT64_MAX = no limit. */
  uint64_t instruction_budget;
  /* The GPU timeout's equivalent, for work that no single workgroup makes
   * runaway (a huge dispatch, many dispatches): the most subgroup-
   * instructions one dispatch may execute (0 = the default, 1 << 40;
   * UINT64_MAX = no limit), and the most wall time, in milliseconds, one
   * submit may run (0 = the default, 60000; UINT32_MAX = no limit).
   * Past either the device is lost, with a message naming the dispatch, a
   * WGSL line and a workgroup that was running. The defaults are far above
   * what any dispatch of the test corpus or the CTS needs on one core (a
   * GPU's watchdog, 2 to 10 s, is for hardware about 1,000 times faster)
   * and end a runaway in about a minute. */
  uint64_t dispatch_instruction_budget;
  uint32_t time_limit_ms;
  /* The most memory, in bytes, the interpreter may hold for one dispatch
   * over all its worker threads: each thread's context for the workgroup
   * it runs (the registers, private and function memory of every
   * invocation, workgroup memory, the translated code). 0 = the default,
   * 4 GiB; UINT64_MAX = no limit. A dispatch whose workgroups need more
   * than a share of it each runs on fewer threads (results do not change);
   * one whose single workgroup needs more fails with LS_ERROR_OUT_OF_MEMORY
   * and a message with both sizes. The largest workgroup lockstep accepts
   * (1024 invocations, each at the 1 MiB limits of private and of function
   * memory, docs/spec-notes.md) needs about 2.4 GiB, so the default never
   * refuses a pipeline that was created. */
  uint64_t dispatch_memory_limit;
} ls_adapter_options;

/* adapter.info. The strings are the adapter's (valid until it is
 * released); architecture and description name the subgroup width the
 * adapter runs, the profile's or ls_adapter_options.subgroup_size
 * ("lockstep-warp64" for the nvidia profile at width 64). */
typedef struct ls_adapter_info {
  const char *vendor;
  const char *architecture;
  const char *device;
  const char *description;
  const char *profile;         /* the profile's name */
  uint32_t subgroup_min_size;  /* as WebGPU's adapter.info */
  uint32_t subgroup_max_size;
  uint32_t subgroup_size;      /* the width W every dispatch runs with */
  uint32_t threads;            /* worker threads */
} ls_adapter_info;

/* Names of the built-in vendor profiles, NULL-terminated. */
LS_API const char *const *ls_profile_names(void);

/* The WGSL language features (`requires` names; WebGPU's
 * navigator.gpu.wgslLanguageFeatures) that lockstep compiles and runs,
 * NULL-terminated, static. `requires` also accepts a few that lockstep only
 * validates (docs/conformance.md); those are not listed. */
LS_API const char *const *ls_wgsl_language_features(void);

/* Creates an adapter. On a bad option returns NULL and, when err is not NULL,
 * writes a message into err (at most errlen bytes). */
LS_API ls_adapter *ls_adapter_create(const ls_adapter_options *opts, char *err, size_t errlen);
LS_API void ls_adapter_release(ls_adapter *adapter);
LS_API void ls_adapter_get_limits(const ls_adapter *adapter, ls_limits *out);
LS_API void ls_adapter_get_info(const ls_adapter *adapter, ls_adapter_info *out);
/* adapter.features.has(name): "core-features-and-limits", "subgroups",
 * "subgroup-size-control", "shader-f16", and the texture format features
 * "bgra8unorm-storage", "float32-filterable", "texture-formats-tier1",
 * "texture-formats-tier2", "rg11b10ufloat-renderable",
 * "depth32float-stencil8", and "timestamp-query". */
LS_API int ls_adapter_has_feature(const ls_adapter *adapter, const char *name);

/* ------------------------------------------------------------------ device */

typedef enum ls_error_type {
  LS_ERROR_NONE = 0,
  LS_ERROR_VALIDATION,
  LS_ERROR_OUT_OF_MEMORY,
  LS_ERROR_INTERNAL
} ls_error_type;

typedef enum ls_error_filter {
  LS_FILTER_VALIDATION = 1,
  LS_FILTER_OUT_OF_MEMORY,
  LS_FILTER_INTERNAL
} ls_error_filter;

typedef void (*ls_error_callback)(void *user, ls_error_type type, const char *message);

typedef enum ls_log_level { LS_LOG_INFO, LS_LOG_WARNING } ls_log_level;
typedef void (*ls_log_callback)(void *user, ls_log_level level, const char *message);

/* One required limit, by WebGPU name, as in requestDevice's requiredLimits. */
typedef struct ls_required_limit {
  const char *name;
  uint64_t value;
} ls_required_limit;

typedef struct ls_device_desc {
  size_t struct_size; /* see "Descriptors" above */
  const ls_required_limit *required_limits;
  size_t required_limit_count;
  const char *const *required_features;
  size_t required_feature_count;
  const char *label;
} ls_device_desc;

/* requestDevice: rejects (returns NULL, *status set, message in err) for an
 * unknown limit or feature, a value better than the adapter's, or an alignment
 * that is not a power of two. Values worse than the default are ignored. */
LS_API ls_device *ls_adapter_create_device(ls_adapter *adapter, const ls_device_desc *desc,
                                           ls_status *status, char *err, size_t errlen);
/* GPUDevice.features: a device has only the features its requestDevice
 * asked for (and those they enable: "subgroup-size-control" enables
 * "subgroups", "texture-formats-tier2" enables "texture-formats-tier1", which
 * enables "rg11b10ufloat-renderable"); "core-features-and-limits" always.
 * `enable f16;` in a module made on a device without "shader-f16" is a
 * validation error. */
LS_API int ls_device_has_feature(const ls_device *device, const char *name);
/* device.destroy(): the device is lost (reason LS_LOST_DESTROYED), queued
 * work that has not started is dropped (its callbacks get LS_DEVICE_LOST or,
 * for a map, LS_ABORTED), a running dispatch stops at its next workgroup,
 * and every later call on the device or its objects does nothing (WebGPU
 * drops errors of a lost device). The handle stays valid until released;
 * objects made from the device stay valid handles until released. Safe
 * from inside any callback of the device. */
LS_API void ls_device_destroy(ls_device *device);
/* Releases the handle; a device not destroyed yet is destroyed first. */
LS_API void ls_device_release(ls_device *device);
LS_API void ls_device_get_limits(const ls_device *device, ls_limits *out);
/* The label of the device (from ls_device_desc) and of the objects below:
 * WebGPU's `label` attribute, which a program may change at any time; every
 * message about the object names it by its label. The string is copied. */
LS_API void ls_device_set_label(ls_device *device, const char *label);

LS_API void ls_device_set_error_callback(ls_device *device, ls_error_callback fn, void *user);
LS_API void ls_device_set_log_callback(ls_device *device, ls_log_callback fn, void *user);

/* GPUDeviceLostReason. */
typedef enum ls_lost_reason { LS_LOST_UNKNOWN = 0, LS_LOST_DESTROYED } ls_lost_reason;
typedef void (*ls_lost_callback)(void *user, ls_lost_reason reason, const char *message);
/* device.lost: fn is called once, when the device is lost (a runaway shader,
 * or ls_device_destroy), on the thread that lost it; at once if it already
 * is. */
LS_API void ls_device_set_lost_callback(ls_device *device, ls_lost_callback fn, void *user);

/* Error filters outside ls_error_filter are a validation error (WebGPU: a
 * TypeError) and push nothing. */
LS_API void ls_device_push_error_scope(ls_device *device, ls_error_filter filter);
/* Pops the innermost scope. Returns the first error it caught (LS_ERROR_NONE
 * if none); *message (if not NULL) receives its text, malloc'd (free with
 * ls_free), or NULL when there was none. Popping an empty stack returns
 * LS_ERROR_VALIDATION with a message saying so and raises nothing (WebGPU
 * rejects that popErrorScope with an OperationError). */
LS_API ls_error_type ls_device_pop_error_scope(ls_device *device, char **message);
/* Raises an error of the device as if the library had found it (the
 * innermost matching scope catches it, else the error callback gets it): for
 * front doors that check rules of their own before calling in, such as
 * JavaScript's use of an invalid object. */
LS_API void ls_device_raise_error(ls_device *device, ls_error_type type, const char *message);
/* Non-zero once the device is lost (e.g. a dispatch ran past its budget). */
LS_API int ls_device_is_lost(const ls_device *device);
/* Why the device was lost (the entry point, WGSL line:column and workgroup of
 * a runaway shader); NULL while it is not lost. Owned by the device. */
LS_API const char *ls_device_get_lost_message(const ls_device *device);

/* ----------------------------------------------------------------- buffers */

enum {
  LS_BUFFER_USAGE_MAP_READ = 0x0001,
  LS_BUFFER_USAGE_MAP_WRITE = 0x0002,
  LS_BUFFER_USAGE_COPY_SRC = 0x0004,
  LS_BUFFER_USAGE_COPY_DST = 0x0008,
  LS_BUFFER_USAGE_INDEX = 0x0010,
  LS_BUFFER_USAGE_VERTEX = 0x0020,
  LS_BUFFER_USAGE_UNIFORM = 0x0040,
  LS_BUFFER_USAGE_STORAGE = 0x0080,
  LS_BUFFER_USAGE_INDIRECT = 0x0100,
  LS_BUFFER_USAGE_QUERY_RESOLVE = 0x0200
};

typedef struct ls_buffer_desc {
  size_t struct_size; /* see "Descriptors" above */
  uint64_t size;
  uint32_t usage;
  const char *label;
  /* GPUBufferDescriptor.mappedAtCreation: the buffer starts mapped for
   * writing (any usage; size a multiple of 4) until ls_buffer_unmap. */
  int mapped_at_creation;
} ls_buffer_desc;

/* Buffers are created zeroed. */
LS_API ls_buffer *ls_device_create_buffer(ls_device *device, const ls_buffer_desc *desc);
/* buffer.destroy(): unmaps it (a pending map completes with LS_ABORTED) and
 * frees its memory once queued work that uses it is done; idempotent. */
LS_API void ls_buffer_destroy(ls_buffer *buffer);
LS_API void ls_buffer_release(ls_buffer *buffer);
LS_API uint64_t ls_buffer_get_size(const ls_buffer *buffer);
LS_API uint32_t ls_buffer_get_usage(const ls_buffer *buffer);
LS_API void ls_buffer_set_label(ls_buffer *buffer, const char *label);

/* queue.writeBuffer: needs COPY_DST, offset and size multiples of 4. The data
 * is copied before the call returns; the write itself is queued after the
 * work submitted before it. */
LS_API ls_status ls_queue_write_buffer(ls_device *device, ls_buffer *buffer, uint64_t offset,
                                       const void *data, size_t size);
/* mapAsync(READ) + getMappedRange + copy + unmap, done at once (after queued
 * work): needs MAP_READ usage and an unmapped buffer; offset a multiple of 8
 * and size of 4 (as WebGPU). */
LS_API ls_status ls_buffer_map_read(ls_device *device, ls_buffer *buffer, uint64_t offset,
                                    void *dst, size_t size);
/* Reads back a buffer with COPY_SRC usage (as a copy into a MAP_READ staging
 * buffer followed by a map would), after queued work. This and
 * ls_buffer_map_read, called from a callback on the queue thread (which
 * cannot wait for itself), read at once: they see the work done before the
 * callback. */
LS_API ls_status ls_queue_read_buffer(ls_device *device, ls_buffer *buffer, uint64_t offset,
                                      void *dst, size_t size);

/* ------------------------------------------------------------ buffer mapping */

/* GPUMapMode and GPUBufferMapState. */
enum { LS_MAP_READ = 0x1, LS_MAP_WRITE = 0x2 };
typedef enum ls_map_state {
  LS_MAP_STATE_UNMAPPED = 0,
  LS_MAP_STATE_PENDING,
  LS_MAP_STATE_MAPPED
} ls_map_state;

/* status: LS_OK (mapped), LS_VALIDATION (a validation error was raised too:
 * WebGPU's OperationError), LS_OPERATION (a map was already pending:
 * OperationError, no validation error), LS_ABORTED (unmapped or destroyed
 * before it completed: AbortError), LS_DEVICE_LOST (AbortError). message
 * says why (NULL for LS_OK); it lives until fn returns. */
typedef void (*ls_map_callback)(void *user, ls_status status, const char *message);

/* buffer.mapAsync(mode, offset, size): size LS_WHOLE_SIZE = to the end.
 * Validates at once (usage MAP_READ / MAP_WRITE for the mode, exactly one
 * mode, offset a multiple of 8, size of 4, the range inside the buffer, the
 * buffer unmapped and not destroyed); the buffer is then pending, and mapped
 * when the work queued before the call is done. fn is called exactly once,
 * on the queue thread, or on the calling thread when validation fails or
 * when ls_buffer_unmap / destroy aborts it. */
LS_API void ls_buffer_map_async(ls_buffer *buffer, uint32_t mode, uint64_t offset, uint64_t size,
                                ls_map_callback fn, void *user);
LS_API ls_map_state ls_buffer_get_map_state(const ls_buffer *buffer);
/* buffer.getMappedRange(offset, size): a pointer to the mapped bytes,
 * valid until unmap or destroy (reads see the buffer's contents; with
 * LS_MAP_WRITE or mapped_at_creation, writes are the buffer's new contents;
 * with LS_MAP_READ they are discarded at unmap, as WebGPU says).
 * NULL with the reason in err (WebGPU's OperationError) when the buffer is
 * not mapped, offset is not a multiple of 8 or size of 4, the range is
 * outside the mapped range, or it overlaps a range already returned since
 * the map. size LS_WHOLE_SIZE = to the end of the buffer (WebGPU's default,
 * max(0, buffer size - offset)), which must then be inside the mapped
 * range. */
LS_API void *ls_buffer_get_mapped_range(ls_buffer *buffer, uint64_t offset, uint64_t size,
                                        char *err, size_t errlen);
/* buffer.unmap(): a pending map completes with LS_ABORTED; pointers from
 * ls_buffer_get_mapped_range are invalid from now on. No-op when unmapped. */
LS_API void ls_buffer_unmap(ls_buffer *buffer);

/* ---------------------------------------------------------------- textures */

/* The texel formats lockstep holds (GPUTextureFormat): X(NAME, "webgpu-name").
 * Every core WebGPU color format (plain and packed), r16unorm and the other
 * "texture-formats-tier1" formats, and the depth-stencil formats. Which are
 * storage formats, their sample types and copies follow WebGPU's texture
 * format capabilities (docs/conformance.md). New formats are appended, so
 * the values of the older ones do not change. */
#define LS_TEXTURE_FORMAT_LIST(X)                                              \
  X(R32FLOAT, "r32float")                                                      \
  X(R32UINT, "r32uint")                                                        \
  X(R32SINT, "r32sint")                                                        \
  X(RGBA8UNORM, "rgba8unorm")                                                  \
  X(RGBA8SNORM, "rgba8snorm")                                                  \
  X(RGBA8UINT, "rgba8uint")                                                    \
  X(RGBA8SINT, "rgba8sint")                                                    \
  X(RGBA16UINT, "rgba16uint")                                                  \
  X(RGBA16SINT, "rgba16sint")                                                  \
  X(RGBA16FLOAT, "rgba16float")                                                \
  X(RGBA32FLOAT, "rgba32float")                                                \
  X(RGBA32UINT, "rgba32uint")                                                  \
  X(RGBA32SINT, "rgba32sint")                                                  \
  X(R8UNORM, "r8unorm")                                                        \
  X(R8SNORM, "r8snorm")                                                        \
  X(R8UINT, "r8uint")                                                          \
  X(R8SINT, "r8sint")                                                          \
  X(RG8UNORM, "rg8unorm")                                                      \
  X(RG8SNORM, "rg8snorm")                                                      \
  X(RG8UINT, "rg8uint")                                                        \
  X(RG8SINT, "rg8sint")                                                        \
  X(RGBA8UNORM_SRGB, "rgba8unorm-srgb")                                        \
  X(BGRA8UNORM, "bgra8unorm")                                                  \
  X(BGRA8UNORM_SRGB, "bgra8unorm-srgb")                                        \
  X(R16UNORM, "r16unorm")                                                      \
  X(R16SNORM, "r16snorm")                                                      \
  X(R16UINT, "r16uint")                                                        \
  X(R16SINT, "r16sint")                                                        \
  X(R16FLOAT, "r16float")                                                      \
  X(RG16UNORM, "rg16unorm")                                                    \
  X(RG16SNORM, "rg16snorm")                                                    \
  X(RG16UINT, "rg16uint")                                                      \
  X(RG16SINT, "rg16sint")                                                      \
  X(RG16FLOAT, "rg16float")                                                    \
  X(RGBA16UNORM, "rgba16unorm")                                                \
  X(RGBA16SNORM, "rgba16snorm")                                                \
  X(RG32UINT, "rg32uint")                                                      \
  X(RG32SINT, "rg32sint")                                                      \
  X(RG32FLOAT, "rg32float")                                                    \
  X(RGB10A2UINT, "rgb10a2uint")                                                \
  X(RGB10A2UNORM, "rgb10a2unorm")                                              \
  X(RG11B10UFLOAT, "rg11b10ufloat")                                            \
  X(RGB9E5UFLOAT, "rgb9e5ufloat")                                              \
  X(STENCIL8, "stencil8")                                                      \
  X(DEPTH16UNORM, "depth16unorm")                                              \
  X(DEPTH24PLUS, "depth24plus")                                                \
  X(DEPTH24PLUS_STENCIL8, "depth24plus-stencil8")                              \
  X(DEPTH32FLOAT, "depth32float")                                              \
  X(DEPTH32FLOAT_STENCIL8, "depth32float-stencil8")

typedef enum ls_texture_format {
  LS_FORMAT_UNDEFINED = 0,
#define LS_X_(n, s) LS_FORMAT_##n,
  LS_TEXTURE_FORMAT_LIST(LS_X_)
#undef LS_X_
  LS_FORMAT_COUNT_
} ls_texture_format;

/* "rgba8unorm" -> LS_FORMAT_RGBA8UNORM; LS_FORMAT_UNDEFINED when unknown. */
LS_API ls_texture_format ls_texture_format_from_name(const char *name);
/* The WebGPU name; NULL for LS_FORMAT_UNDEFINED or out of range. */
LS_API const char *ls_texture_format_name(ls_texture_format f);
/* Bytes per texel: the texel block copy footprint; for depth24plus and the
 * combined depth-stencil formats, which have none, the bytes lockstep holds
 * per texel. 0 when unknown. */
LS_API uint32_t ls_texture_format_texel_bytes(ls_texture_format f);
/* The GPUTextureSampleTypes the format allows on a device without features:
 * bit (1u << LS_SAMPLE_*) for each; 0 when unknown. */
LS_API uint32_t ls_texture_format_sample_types(ls_texture_format f);

enum {
  LS_TEXTURE_USAGE_COPY_SRC = 0x01,
  LS_TEXTURE_USAGE_COPY_DST = 0x02,
  LS_TEXTURE_USAGE_TEXTURE_BINDING = 0x04,
  LS_TEXTURE_USAGE_STORAGE_BINDING = 0x08,
  /* lockstep has no render passes: RENDER_ATTACHMENT only lets a texture
   * be multisampled (WebGPU requires it for sampleCount 4); such a
   * texture keeps the zeros of creation */
  LS_TEXTURE_USAGE_RENDER_ATTACHMENT = 0x10
};

/* GPUTextureDimension; 0 is WebGPU's default, "2d". */
typedef enum ls_texture_dimension {
  LS_TEXTURE_DIMENSION_2D = 0,
  LS_TEXTURE_DIMENSION_1D,
  LS_TEXTURE_DIMENSION_3D
} ls_texture_dimension;

/* GPUTextureViewDimension; 0 = not given (the default of the view, or "2d"
 * in a layout entry, as WebGPU). */
typedef enum ls_view_dimension {
  LS_VIEW_DIMENSION_UNDEFINED = 0,
  LS_VIEW_DIMENSION_1D,
  LS_VIEW_DIMENSION_2D,
  LS_VIEW_DIMENSION_2D_ARRAY,
  LS_VIEW_DIMENSION_CUBE,
  LS_VIEW_DIMENSION_CUBE_ARRAY,
  LS_VIEW_DIMENSION_3D
} ls_view_dimension;

typedef struct ls_extent3d {
  uint32_t width, height, depth_or_array_layers;
} ls_extent3d;

typedef struct ls_origin3d {
  uint32_t x, y, z;
} ls_origin3d;

typedef struct ls_texture_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_texture_dimension dimension;
  ls_extent3d size;          /* each >= 1 (a 1D texture: height = depth = 1) */
  ls_texture_format format;
  uint32_t mip_level_count;  /* 0 = 1, WebGPU's default */
  uint32_t sample_count;     /* 0 = 1; 4 needs RENDER_ATTACHMENT */
  uint32_t usage;            /* LS_TEXTURE_USAGE_* */
  const char *label;
  /* GPUTextureDescriptor.viewFormats: the formats views may have besides
   * `format`, each equal to it or differing only in -srgb */
  const ls_texture_format *view_formats;
  size_t view_format_count;
} ls_texture_desc;

/* Textures are created zeroed. In memory a texture is its mip levels one
 * after another, each its layers (or depth slices), each its rows of
 * tightly packed texels (docs/architecture.md). */
LS_API ls_texture *ls_device_create_texture(ls_device *device, const ls_texture_desc *desc);
/* texture.destroy(): as ls_buffer_destroy. */
LS_API void ls_texture_destroy(ls_texture *texture);
LS_API void ls_texture_release(ls_texture *texture);
LS_API void ls_texture_get_size(const ls_texture *texture, ls_extent3d *out);
LS_API ls_texture_format ls_texture_get_format(const ls_texture *texture);
LS_API uint32_t ls_texture_get_mip_level_count(const ls_texture *texture);
LS_API uint32_t ls_texture_get_usage(const ls_texture *texture);
LS_API void ls_texture_set_label(ls_texture *texture, const char *label);

/* GPUTextureAspect; 0 is WebGPU's default, "all". A depth-stencil format's
 * "depth-only" / "stencil-only" aspect is its aspect-specific format
 * (depth24plus, depth32float or stencil8). */
typedef enum ls_texture_aspect {
  LS_ASPECT_ALL = 0,
  LS_ASPECT_STENCIL_ONLY,
  LS_ASPECT_DEPTH_ONLY
} ls_texture_aspect;

/* GPUTextureViewDescriptor; a zero field is "not given" and takes WebGPU's
 * default (format: the texture's, or its aspect's; dimension: from the
 * texture; counts: the rest of the levels / layers; usage: the texture's;
 * aspect: all). A combined depth-stencil texture binds through a view of
 * one aspect. */
typedef struct ls_texture_view_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_texture_format format;
  ls_view_dimension dimension;
  uint32_t base_mip_level;
  uint32_t mip_level_count;
  uint32_t base_array_layer;
  uint32_t array_layer_count;
  uint32_t usage;
  const char *label;
  ls_texture_aspect aspect;
} ls_texture_view_desc;

/* texture.createView(desc); desc NULL = the default view. */
LS_API ls_texture_view *ls_texture_create_view(ls_texture *texture,
                                               const ls_texture_view_desc *desc);
LS_API void ls_texture_view_release(ls_texture_view *view);
LS_API void ls_texture_view_set_label(ls_texture_view *view, const char *label);

/* ---------------------------------------------------------------- samplers */

/* GPUAddressMode, GPUFilterMode / GPUMipmapFilterMode, GPUCompareFunction. */
typedef enum ls_address_mode {
  LS_ADDRESS_CLAMP_TO_EDGE = 0,
  LS_ADDRESS_REPEAT,
  LS_ADDRESS_MIRROR_REPEAT
} ls_address_mode;

typedef enum ls_filter_mode { LS_FILTER_NEAREST = 0, LS_FILTER_LINEAR } ls_filter_mode;

typedef enum ls_compare_function {
  LS_COMPARE_UNDEFINED = 0, /* not a comparison sampler */
  LS_COMPARE_NEVER,
  LS_COMPARE_LESS,
  LS_COMPARE_EQUAL,
  LS_COMPARE_LESS_EQUAL,
  LS_COMPARE_GREATER,
  LS_COMPARE_NOT_EQUAL,
  LS_COMPARE_GREATER_EQUAL,
  LS_COMPARE_ALWAYS
} ls_compare_function;

/* GPUSamplerDescriptor. Start from LS_SAMPLER_DESC_DEFAULT (WebGPU's
 * defaults: clamp-to-edge, nearest, lodMaxClamp 32, maxAnisotropy 1); a
 * zeroed descriptor has maxAnisotropy 0, which WebGPU rejects. */
typedef struct ls_sampler_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_address_mode address_mode_u, address_mode_v, address_mode_w;
  ls_filter_mode mag_filter, min_filter, mipmap_filter;
  float lod_min_clamp, lod_max_clamp;
  ls_compare_function compare;
  uint16_t max_anisotropy; /* >= 1; lockstep filters isotropically */
  const char *label;
} ls_sampler_desc;

#define LS_SAMPLER_DESC_DEFAULT                                                \
  {.struct_size = sizeof(ls_sampler_desc), .lod_max_clamp = 32.0f, .max_anisotropy = 1}

/* device.createSampler(desc); desc NULL = LS_SAMPLER_DESC_DEFAULT. An
 * invalid descriptor is a validation error and returns NULL. */
LS_API ls_sampler *ls_device_create_sampler(ls_device *device, const ls_sampler_desc *desc);
LS_API void ls_sampler_release(ls_sampler *sampler);
LS_API void ls_sampler_set_label(ls_sampler *sampler, const char *label);

/* ------------------------------------------------------ external textures */

/* WebGPU's importExternalTexture takes a video frame; a C program has its
 * frame in a texture. lockstep imports a view of one as the frame of a
 * GPUExternalTexture that a `texture_external` binding reads: a 2D view of
 * one level and layer, with TEXTURE_BINDING usage, of an rgba8unorm,
 * bgra8unorm, rgba8unorm-srgb, bgra8unorm-srgb or rgba16float texture. The
 * frame is taken as it is: no colour-space conversion, crop or rotation
 * (what WebGPU does for a frame already in the destination colour space
 * with an identity transform). The external texture holds the view. */
typedef struct ls_external_texture_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_texture_view *view;
  const char *label;
} ls_external_texture_desc;

LS_API ls_external_texture *ls_device_import_external_texture(
           ls_device *device, const ls_external_texture_desc *desc);
LS_API void ls_external_texture_release(ls_external_texture *texture);
LS_API void ls_external_texture_set_label(ls_external_texture *texture, const char *label);

/* GPUTexelCopyBufferLayout: LS_COPY_STRIDE_UNDEFINED = not given. */
#define LS_COPY_STRIDE_UNDEFINED UINT32_MAX
typedef struct ls_texel_copy_buffer_layout {
  uint64_t offset;
  uint32_t bytes_per_row;
  uint32_t rows_per_image;
} ls_texel_copy_buffer_layout;

/* GPUTexelCopyTextureInfo; aspect 0 = "all" (a combined depth-stencil
 * format copies one aspect at a time). */
typedef struct ls_texel_copy_texture_info {
  ls_texture *texture;
  uint32_t mip_level;
  ls_origin3d origin;
  ls_texture_aspect aspect;
} ls_texel_copy_texture_info;

/* queue.writeTexture: the texture needs COPY_DST; data_size bytes at data
 * laid out as `layout` says (no 256-byte row alignment here, as WebGPU). */
LS_API ls_status ls_queue_write_texture(ls_device *device, const ls_texel_copy_texture_info *dst,
                                        const void *data, size_t data_size,
                                        const ls_texel_copy_buffer_layout *layout,
                                        const ls_extent3d *size);

/* ---------------------------------------------------------- shader modules */

typedef enum ls_message_type {
  LS_MESSAGE_ERROR,
  LS_MESSAGE_WARNING,
  LS_MESSAGE_INFO
} ls_message_type;

/* GPUCompilationMessage: line and column are 1-based (column in UTF-8
 * bytes); offset and length are byte offsets into the source. */
typedef struct ls_compilation_message {
  ls_message_type type;
  const char *message;
  uint32_t line, column;
  uint32_t offset, length;
} ls_compilation_message;

typedef struct ls_shader_module_desc {
  size_t struct_size; /* see "Descriptors" above */
  const char *code;     /* WGSL source, NUL-terminated unless code_size is set */
  const char *label;    /* shown in diagnostics as the file name */
  size_t code_size;     /* bytes of code; 0: up to its first NUL. With a size a
                           NUL byte inside the source is what it is in WGSL, an
                           error (WebGPU strings may hold NUL characters) */
} ls_shader_module_desc;

/* Always returns a module when memory allows, so that its messages can be
 * read; a module with errors is invalid (a validation error is raised, and
 * pipelines made from it fail). */
LS_API ls_shader_module *ls_device_create_shader_module(ls_device *device,
                                                        const ls_shader_module_desc *desc);
LS_API void ls_shader_module_release(ls_shader_module *module);
LS_API void ls_shader_module_set_label(ls_shader_module *module, const char *label);
LS_API int ls_shader_module_is_valid(const ls_shader_module *module);
LS_API size_t ls_shader_module_message_count(const ls_shader_module *module);
LS_API const ls_compilation_message *ls_shader_module_message(const ls_shader_module *module,
                                                              size_t index);
/* All messages as compiler-style text ("file:line:col error: ...", the source
 * line and a caret). Owned by the module. */
LS_API const char *ls_shader_module_format_messages(const ls_shader_module *module);

/* ---------------------------------------------------- layouts, bind groups */

/* What a layout entry binds: a buffer (GPUBufferBindingLayout.type), a
 * sampled texture (GPUTextureBindingLayout), a storage texture
 * (GPUStorageTextureBindingLayout.access) or a sampler
 * (GPUSamplerBindingLayout.type). */
typedef enum ls_binding_type {
  LS_BINDING_UNIFORM = 1,
  LS_BINDING_STORAGE,
  LS_BINDING_READ_ONLY_STORAGE,
  LS_BINDING_SAMPLED_TEXTURE,
  LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE,
  LS_BINDING_READ_ONLY_STORAGE_TEXTURE,
  LS_BINDING_READ_WRITE_STORAGE_TEXTURE,
  /* GPUSamplerBindingLayout.type */
  LS_BINDING_FILTERING_SAMPLER,
  LS_BINDING_NON_FILTERING_SAMPLER,
  LS_BINDING_COMPARISON_SAMPLER,
  LS_BINDING_EXTERNAL_TEXTURE /* GPUExternalTextureBindingLayout */
} ls_binding_type;

/* GPUTextureSampleType; 0 = "float", WebGPU's default. */
typedef enum ls_texture_sample_type {
  LS_SAMPLE_FLOAT = 0,
  LS_SAMPLE_UNFILTERABLE_FLOAT,
  LS_SAMPLE_DEPTH,
  LS_SAMPLE_SINT,
  LS_SAMPLE_UINT
} ls_texture_sample_type;

/* GPUShaderStage bits, for ls_bind_group_layout_entry.visibility. A zero
 * visibility reads as COMPUTE, the stage lockstep runs (so a zeroed entry
 * is a compute binding); LS_SHADER_STAGE_NONE is an entry no stage sees
 * (WebGPU's visibility 0). Per-stage binding limits count an entry in each
 * stage it is visible to; a compute pipeline's bindings need COMPUTE. */
#define LS_SHADER_STAGE_VERTEX 0x1u
#define LS_SHADER_STAGE_FRAGMENT 0x2u
#define LS_SHADER_STAGE_COMPUTE 0x4u
#define LS_SHADER_STAGE_NONE 0x80000000u

typedef struct ls_bind_group_layout_entry {
  uint32_t binding;
  ls_binding_type type;
  uint64_t min_binding_size; /* buffers: 0 = no minimum */
  /* textures */
  ls_texture_sample_type sample_type; /* sampled textures */
  ls_view_dimension view_dimension;   /* 0 = "2d" */
  ls_texture_format format;           /* storage textures: required */
  int multisampled;                   /* sampled textures: GPUTextureBindingLayout.multisampled */
  int has_dynamic_offset;             /* buffers: GPUBufferBindingLayout.hasDynamicOffset */
  uint32_t visibility;                /* LS_SHADER_STAGE_* bits; 0 = COMPUTE */
} ls_bind_group_layout_entry;

/* GPUBindGroupLayoutDescriptor. */
typedef struct ls_bind_group_layout_desc {
  size_t struct_size; /* see "Descriptors" above */
  const ls_bind_group_layout_entry *entries;
  size_t entry_count;
  const char *label;
} ls_bind_group_layout_desc;

LS_API ls_bind_group_layout *ls_device_create_bind_group_layout(
           ls_device *device, const ls_bind_group_layout_desc *desc);
LS_API void ls_bind_group_layout_release(ls_bind_group_layout *layout);
LS_API void ls_bind_group_layout_set_label(ls_bind_group_layout *layout, const char *label);

/* GPUPipelineLayoutDescriptor. bind_group_layouts[i] NULL is an empty group
 * (WebGPU's nullable entry), as is a layout with no entries: a pass needs no
 * bind group there. immediate_size: the bytes of immediate data
 * (`var<immediate>`, the immediate_address_space language feature) a
 * pipeline of the layout may read; a multiple of 4, at most
 * maxImmediateSize. */
typedef struct ls_pipeline_layout_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_bind_group_layout *const *bind_group_layouts;
  size_t bind_group_layout_count;
  uint32_t immediate_size;
  const char *label;
} ls_pipeline_layout_desc;

LS_API ls_pipeline_layout *ls_device_create_pipeline_layout(ls_device *device,
                                                            const ls_pipeline_layout_desc *desc);
LS_API void ls_pipeline_layout_release(ls_pipeline_layout *layout);
LS_API void ls_pipeline_layout_set_label(ls_pipeline_layout *layout, const char *label);

#define LS_WHOLE_SIZE UINT64_MAX

typedef struct ls_bind_group_entry {
  uint32_t binding;
  ls_buffer *buffer;
  uint64_t offset;
  uint64_t size; /* LS_WHOLE_SIZE = to the end of the buffer */
  ls_texture_view *texture_view; /* a texture entry: the view (buffer NULL) */
  ls_sampler *sampler;           /* a sampler entry (buffer and view NULL) */
  /* an external texture entry: this, or a texture_view (a 2d view of one
   * level of an rgba8unorm, bgra8unorm or rgba16float texture) */
  ls_external_texture *external_texture;
} ls_bind_group_entry;

/* GPUBindGroupDescriptor. */
typedef struct ls_bind_group_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_bind_group_layout *layout;
  const ls_bind_group_entry *entries;
  size_t entry_count;
  const char *label;
} ls_bind_group_desc;

LS_API ls_bind_group *ls_device_create_bind_group(ls_device *device,
                                                  const ls_bind_group_desc *desc);
LS_API void ls_bind_group_release(ls_bind_group *group);
LS_API void ls_bind_group_set_label(ls_bind_group *group, const char *label);

/* ------------------------------------------------------- compute pipelines */

/* GPUProgrammableStage.constants: key = override name or decimal @id. */
typedef struct ls_constant_entry {
  const char *key;
  double value;
} ls_constant_entry;

typedef struct ls_compute_pipeline_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_shader_module *module;
  const char *entry_point;          /* NULL = the module's only compute entry point */
  const ls_constant_entry *constants;
  size_t constant_count;
  ls_pipeline_layout *layout;       /* NULL = layout "auto" */
  const char *label;
} ls_compute_pipeline_desc;

LS_API ls_compute_pipeline *ls_device_create_compute_pipeline(ls_device *device,
                                                              const ls_compute_pipeline_desc *desc);
LS_API void ls_compute_pipeline_release(ls_compute_pipeline *pipeline);
LS_API void ls_compute_pipeline_set_label(ls_compute_pipeline *pipeline, const char *label);
/* createComputePipelineAsync's rule: an invalid descriptor is not raised as
 * an error; the result is NULL and *message (if not NULL) receives the reason,
 * malloc'd (free with ls_free). Safe to run on another thread while the
 * caller goes on. */
LS_API ls_compute_pipeline *ls_device_try_create_compute_pipeline(
           ls_device *device, const ls_compute_pipeline_desc *desc, char **message);
/* pipeline.getBindGroupLayout(group): the layout of that group (a new
 * reference the caller releases); a group index past the layout's is a
 * validation error and returns NULL. */
LS_API ls_bind_group_layout *ls_compute_pipeline_get_bind_group_layout(ls_compute_pipeline *p,
                                                                       uint32_t group);
/* The workgroup size after override substitution. */
LS_API void ls_compute_pipeline_get_workgroup_size(const ls_compute_pipeline *p, uint32_t size[3]);

/* ------------------------------------------------------------- query sets */

/* GPUQuerySetDescriptor: "timestamp" needs the "timestamp-query" feature;
 * "occlusion" sets exist (render passes, which lockstep lacks, would fill
 * them) and resolve to zeros. count: 1 .. 4096. */
typedef enum ls_query_type { LS_QUERY_OCCLUSION = 1, LS_QUERY_TIMESTAMP } ls_query_type;
typedef struct ls_query_set_desc {
  size_t struct_size; /* see "Descriptors" above */
  ls_query_type type;
  uint32_t count;
  const char *label;
} ls_query_set_desc;

typedef struct ls_query_set ls_query_set;
LS_API ls_query_set *ls_device_create_query_set(ls_device *device, const ls_query_set_desc *desc);
LS_API void ls_query_set_destroy(ls_query_set *set);
LS_API void ls_query_set_release(ls_query_set *set);
LS_API void ls_query_set_set_label(ls_query_set *set, const char *label);
LS_API ls_query_type ls_query_set_get_type(const ls_query_set *set);
LS_API uint32_t ls_query_set_get_count(const ls_query_set *set);

/* --------------------------------------------------- encoding, submission */

/* GPUCommandEncoderDescriptor, GPUCommandBufferDescriptor. */
typedef struct ls_command_encoder_desc {
  size_t struct_size; /* see "Descriptors" above */
  const char *label;
} ls_command_encoder_desc;
typedef struct ls_command_buffer_desc {
  size_t struct_size; /* see "Descriptors" above */
  const char *label;
} ls_command_buffer_desc;

/* GPUComputePassTimestampWrites: the query indices to write with the time
 * the pass starts and ends on the queue thread (nanoseconds of the host's
 * monotonic clock: the pass's real elapsed time on lockstep, not a GPU's).
 * LS_QUERY_INDEX_UNDEFINED = not written. */
#define LS_QUERY_INDEX_UNDEFINED UINT32_MAX
typedef struct ls_compute_pass_desc {
  size_t struct_size; /* see "Descriptors" above */
  const char *label;
  ls_query_set *timestamp_query_set; /* NULL = no timestamp writes */
  uint32_t beginning_of_pass_write_index;
  uint32_t end_of_pass_write_index;
} ls_compute_pass_desc;

/* desc NULL = no label. */
LS_API ls_command_encoder *ls_device_create_command_encoder(ls_device *device,
                                                            const ls_command_encoder_desc *desc);
/* Releases the handle (after finish, too); a pass begun on the encoder
 * keeps it until that pass is released. */
LS_API void ls_command_encoder_release(ls_command_encoder *encoder);
LS_API void ls_command_encoder_set_label(ls_command_encoder *encoder, const char *label);
/* size LS_WHOLE_SIZE = from the offset to the end of src (WebGPU's overload
 * without a size). */
LS_API void ls_command_encoder_copy_buffer_to_buffer(ls_command_encoder *encoder, ls_buffer *src,
                                                     uint64_t src_offset, ls_buffer *dst,
                                                     uint64_t dst_offset, uint64_t size);
/* clearBuffer(buffer, offset, size): COPY_DST, offset and size multiples of
 * 4; size LS_WHOLE_SIZE = to the end. */
LS_API void ls_command_encoder_clear_buffer(ls_command_encoder *encoder, ls_buffer *buffer,
                                            uint64_t offset, uint64_t size);
/* copyBufferToTexture / copyTextureToBuffer: the buffer side's bytes_per_row
 * must be a multiple of 256; usages COPY_SRC / COPY_DST on each side. */
LS_API void ls_command_encoder_copy_buffer_to_texture(ls_command_encoder *encoder, ls_buffer *src,
                                                      const ls_texel_copy_buffer_layout *layout,
                                                      const ls_texel_copy_texture_info *dst,
                                                      const ls_extent3d *size);
LS_API void ls_command_encoder_copy_texture_to_buffer(ls_command_encoder *encoder,
                                                      const ls_texel_copy_texture_info *src,
                                                      ls_buffer *dst,
                                                      const ls_texel_copy_buffer_layout *layout,
                                                      const ls_extent3d *size);
/* copyTextureToTexture: COPY_SRC on src's texture, COPY_DST on dst's; equal
 * sample counts; formats equal or differing only in -srgb; a depth-stencil
 * copy takes every aspect and, like a multisampled one, whole levels; a
 * copy within one texture needs disjoint levels or layers. */
LS_API void ls_command_encoder_copy_texture_to_texture(ls_command_encoder *encoder,
                                                       const ls_texel_copy_texture_info *src,
                                                       const ls_texel_copy_texture_info *dst,
                                                       const ls_extent3d *size);
/* resolveQuerySet: count u64 values from query first on, to dst (usage
 * QUERY_RESOLVE) at dst_offset (a multiple of 256). */
LS_API void ls_command_encoder_resolve_query_set(ls_command_encoder *encoder, ls_query_set *set,
                                                 uint32_t first, uint32_t count, ls_buffer *dst,
                                                 uint64_t dst_offset);
/* Debug groups and markers (of an encoder, or of a pass below): they carry
 * no meaning on lockstep, but unbalanced pops are validation errors at
 * finish / end, as WebGPU says. */
LS_API void ls_command_encoder_push_debug_group(ls_command_encoder *encoder, const char *label);
LS_API void ls_command_encoder_pop_debug_group(ls_command_encoder *encoder);
LS_API void ls_command_encoder_insert_debug_marker(ls_command_encoder *encoder, const char *label);

/* desc NULL = no label, no timestamps. While a pass is open, calls on its
 * encoder are validation errors (the encoder is locked: they make it
 * invalid, and finish() reports the first); beginning a second pass is one
 * of them, and returns NULL. */
LS_API ls_compute_pass *ls_command_encoder_begin_compute_pass(ls_command_encoder *encoder,
                                                              const ls_compute_pass_desc *desc);
LS_API void ls_compute_pass_set_label(ls_compute_pass *pass, const char *label);
LS_API void ls_compute_pass_set_pipeline(ls_compute_pass *pass, ls_compute_pipeline *pipeline);
/* setBindGroup(index, group, dynamicOffsets): one offset per dynamic entry of
 * the group's layout, in binding order; group NULL unsets the index. */
LS_API void ls_compute_pass_set_bind_group(ls_compute_pass *pass, uint32_t index,
                                           ls_bind_group *group, const uint32_t *dynamic_offsets,
                                           size_t dynamic_offset_count);
LS_API void ls_compute_pass_dispatch_workgroups(ls_compute_pass *pass, uint32_t x, uint32_t y,
                                                uint32_t z);
/* setImmediates(rangeOffset, data): size bytes at data to the pass's
 * immediate data from byte range_offset (both multiples of 4, the end at
 * most maxImmediateSize); a dispatch needs every 4-byte slot its
 * pipeline's immediate variable reads set. */
LS_API void ls_compute_pass_set_immediates(ls_compute_pass *pass, uint32_t range_offset,
                                           const void *data, size_t size);
LS_API void ls_compute_pass_dispatch_workgroups_indirect(ls_compute_pass *pass, ls_buffer *buffer,
                                                         uint64_t offset);
LS_API void ls_compute_pass_push_debug_group(ls_compute_pass *pass, const char *label);
LS_API void ls_compute_pass_pop_debug_group(ls_compute_pass *pass);
LS_API void ls_compute_pass_insert_debug_marker(ls_compute_pass *pass, const char *label);
/* Ends the pass and unlocks its encoder. The pass is consumed (see
 * "Lifetimes"): a later command on it, or a second end(), is a validation
 * error raised at once; so is end() after the encoder was finished with the
 * pass still open. */
LS_API void ls_compute_pass_end(ls_compute_pass *pass);
/* Releases the pass handle, ended or not; a pass released while open leaves
 * its encoder locked (finish() then fails, as in WebGPU). */
LS_API void ls_compute_pass_release(ls_compute_pass *pass);
/* Validation errors recorded in the encoder or its passes surface here: the
 * result is NULL and the error is raised. The encoder is consumed either
 * way: a later command on it, or a second finish(), is a validation error
 * raised at once. Release the encoder afterwards. desc NULL = no label. */
LS_API ls_command_buffer *ls_command_encoder_finish(ls_command_encoder *encoder,
                                                    const ls_command_buffer_desc *desc);
/* Releases a command buffer, submitted or not (one never submitted frees
 * its commands here). */
LS_API void ls_command_buffer_release(ls_command_buffer *cb);
LS_API void ls_command_buffer_set_label(ls_command_buffer *cb, const char *label);

/* queue.submit(commandBuffers): validates the whole submit at once (raising
 * any error now; then nothing runs and LS_VALIDATION is returned), then
 * queues the work on the device's queue thread and returns LS_OK without
 * waiting. The command buffers are consumed, whatever the outcome: a command
 * buffer submitted again is a validation error ("was already submitted")
 * and the whole submit is refused; release them as usual (at once is fine,
 * the queued work holds what it needs). Errors of the execution itself
 * (out of memory) go to the error callback; a runaway shader loses the
 * device. An indirect dispatch whose counts exceed
 * maxComputeWorkgroupsPerDimension is skipped with a warning to the log
 * callback. */
LS_API ls_status ls_queue_submit_async(ls_device *device, ls_command_buffer *const *cbs,
                                       size_t count);
/* ls_queue_submit_async, then waits for that work: returns LS_OK,
 * LS_VALIDATION (nothing ran), LS_DEVICE_LOST or LS_OUT_OF_MEMORY (an
 * out-of-memory error was raised). */
LS_API ls_status ls_queue_submit(ls_device *device, ls_command_buffer *const *cbs, size_t count);

typedef void (*ls_work_done_callback)(void *user, ls_status status);
/* queue.onSubmittedWorkDone(): fn(user, LS_OK) on the queue thread once the
 * work queued before this call is done; LS_DEVICE_LOST if the device is lost
 * first. Called exactly once. */
LS_API void ls_queue_on_submitted_work_done(ls_device *device, ls_work_done_callback fn,
                                            void *user);
/* Blocks until the work queued so far is done. */
LS_API void ls_queue_wait_idle(ls_device *device);

/* --------------------------------------------------------------- sanitizer */

/* The sanitizer watches every dispatch of a device (at a cost: see
 * docs/sanitizer.md) and collects findings: out-of-bounds accesses, accesses
 * beyond a buffer's logical size, data races (storage textures included),
 * barrier divergence, runaway shaders, subgroup reads from lanes that are
 * not active and texel accesses outside the texture view. Results of a
 * checked run are those of an unchecked one. */

typedef enum ls_check_kind {
  LS_CHECK_OUT_OF_BOUNDS,      /* past the bound range, a workgroup variable or a fixed-size array */
  LS_CHECK_BEYOND_LOGICAL,     /* inside the binding, past the buffer's logical size */
  LS_CHECK_DATA_RACE,          /* same bytes, a non-atomic write, no ordering */
  LS_CHECK_RACE_SAME_VALUE,    /* a write-write race where both wrote the same bits */
  LS_CHECK_BARRIER_DIVERGENCE, /* a barrier not reached by every invocation of the workgroup */
  LS_CHECK_RUNAWAY,            /* the dispatch ran past the instruction budget */
  LS_CHECK_SUBGROUP_INACTIVE,  /* a shuffle, broadcast or quad operation read a lane that is not
                                  active: indeterminate in WGSL (lockstep gives 0) */
  LS_CHECK_TEXEL_OUT_OF_BOUNDS, /* a textureLoad / textureStore outside the view: defined in WGSL
                                   (0, or the store dropped), almost always a bug */
  LS_CHECK_RACES_UNCHECKED,     /* a writable binding too large for the race detector's shadow
                                   (ls_check_options.race_shadow_bytes): races between its
                                   workgroups were not looked for. One finding per binding of an
                                   entry point; offset 0, binding_size its size, count the
                                   dispatches it applies to */
  LS_CHECK_KIND_COUNT_
} ls_check_kind;

typedef enum ls_check_severity { LS_CHECK_ERROR, LS_CHECK_WARNING, LS_CHECK_NOTE } ls_check_severity;

typedef enum ls_check_access_type { LS_CHECK_READ, LS_CHECK_WRITE, LS_CHECK_ATOMIC } ls_check_access_type;

/* Bits of ls_check_options.checks. */
enum {
  LS_CHECK_BOUNDS = 0x1,   /* out of bounds and beyond the logical size */
  LS_CHECK_RACES = 0x2,
  LS_CHECK_BARRIERS = 0x4,
  LS_CHECK_RUNAWAY_LOOPS = 0x8,
  LS_CHECK_SUBGROUPS = 0x10, /* subgroup reads from lanes that are not active */
  LS_CHECK_ALL = 0x1f
};

typedef struct ls_check_options {
  size_t struct_size;     /* see "Descriptors" above */
  uint32_t checks;        /* LS_CHECK_* bits; 0 = LS_CHECK_ALL */
  int ignore_same_value;  /* do not report LS_CHECK_RACE_SAME_VALUE */
  uint32_t max_findings;  /* findings kept; later ones are only counted; 0 = 256 */
  /* The most memory, in bytes, the race detector keeps for one dispatch to
   * see races between workgroups: 20 bytes per word of each writable
   * storage binding (per texel of a writable storage texture) per worker
   * thread, all threads together, for each of its three layers (4-byte
   * words, f16 halves, texels); 0 = 1 GiB. A binding that does not fit
   * gets an LS_CHECK_RACES_UNCHECKED warning instead; races within a
   * workgroup are checked whatever its size. */
  uint64_t race_shadow_bytes;
} ls_check_options;

typedef struct ls_check_invocation {
  uint32_t global_id[3], local_id[3], workgroup_id[3];
  uint32_t local_index;
} ls_check_invocation;

/* One access (or, for a barrier or a loop, one place) in the WGSL source. */
typedef struct ls_check_access {
  uint32_t line, column;       /* 1-based; 0 when unknown */
  uint32_t offset, length;     /* byte span in the source */
  ls_check_access_type access;
  ls_check_invocation invocation;
} ls_check_access;

#define LS_CHECK_MAX_INVOCATIONS 4

typedef struct ls_check_finding {
  ls_check_kind kind;
  ls_check_severity severity;
  const char *id;            /* "out-of-bounds", "beyond-logical-size", "data-race", ... */
  const char *message;       /* one line, without the position */
  const char *text;          /* compiler-style: file:line:col severity: message, line, caret */
  const char *file;          /* WGSL file name (the shader module's label) */
  const char *entry_point;
  uint32_t dispatch;         /* index of the dispatch since checks were enabled */
  const char *variable;      /* buffer or workgroup variable; NULL when none */
  int workgroup_memory;      /* the variable is var<workgroup> */
  uint32_t group, binding;   /* of a buffer variable */
  uint64_t offset;           /* first offending byte offset in the binding or variable;
                                UINT64_MAX: an index past a fixed-size array */
  uint32_t access_size;      /* bytes per access */
  uint64_t binding_size;     /* bytes the access was checked against */
  uint64_t logical_size;     /* LS_CHECK_BEYOND_LOGICAL: the logical size in bytes */
  uint64_t count;            /* offending invocations (bounds, barrier), access pairs that met
                              * (race: on several threads this varies with the schedule) */
  ls_check_access first;     /* the access (or barrier, or loop) and its first invocation */
  uint32_t ninvocations;     /* first offending invocations, in order of global id */
  ls_check_invocation invocations[LS_CHECK_MAX_INVOCATIONS];
  int has_second;
  ls_check_access second;    /* race: the other access; barrier: where others stopped */
  /* A texture variable (texel out of bounds, race on a storage texture):
   * the first invocation's texel x, y, z (depth or array layer) and mip
   * level, and the view's size at that level (0 x 0 x 0 for a level the
   * view lacks) and its mip levels. offset is then 0. */
  int texel;
  uint32_t texel_coord[4];
  uint32_t texture_size[3];
  uint32_t texture_levels;
} ls_check_finding;

/* Turns the sanitizer on (opts NULL = all checks) or, with enable == 0, off;
 * findings already collected are kept until cleared. */
LS_API ls_status ls_device_enable_checks(ls_device *device, int enable, const ls_check_options *opts);
LS_API size_t ls_device_check_finding_count(const ls_device *device);
/* The index-th finding (NULL past the count); owned by the device. The
 * pointer and the strings it points to stay valid, whatever runs later,
 * until ls_device_clear_check_findings or the device's last release. */
LS_API const ls_check_finding *ls_device_check_finding(const ls_device *device, size_t index);
/* Findings that were not kept (over max_findings). */
LS_API uint64_t ls_device_check_dropped(const ls_device *device);
LS_API void ls_device_clear_check_findings(ls_device *device);
/* All findings as JSON ({"findings": [...], "dropped": N}); malloc'd (free
 * with ls_free); NULL when memory runs out. */
LS_API char *ls_device_check_findings_json(const ls_device *device);
/* The number of live bytes of a buffer (a pool of capacity C with n live
 * records): accesses from that byte on, inside the binding, are reported as
 * LS_CHECK_BEYOND_LOGICAL. UINT64_MAX (the default) = the whole buffer. */
LS_API void ls_buffer_set_logical_size(ls_buffer *buffer, uint64_t bytes);


/* ----------------------------------------------------- vendor profiles */

/* What a vendor profile says about the hardware it stands for: the subgroup
 * width W lockstep runs with, the range WebGPU's adapter.info would report
 * on that vendor's real GPUs, and the memory system the profiler measures
 * against (docs/profiler.md gives each figure's source). */
typedef struct ls_profile_desc {
  size_t struct_size;          /* see "Descriptors" above */
  const char *name;
  uint32_t subgroup_size;      /* W: a power of two from 4 to 128 */
  uint32_t subgroup_min_size;  /* the vendor's subgroupMinSize .. MaxSize */
  uint32_t subgroup_max_size;
  uint32_t sector_bytes;       /* smallest unit global memory moves (32) */
  uint32_t line_bytes;         /* cache line (128) */
  uint32_t banks;              /* workgroup memory banks (32) ... */
  uint32_t bank_bytes;         /* ... each this wide (4) */
  const char *source;          /* where the figures come from, one line */
  uint32_t tile_bytes;         /* texture memory: bytes of one 2D tile of texels (128);
                                  a model assumption, docs/profiler.md */
} ls_profile_desc;

/* Fills *out with a built-in profile's parameters; LS_OPERATION when the
 * name is unknown. */
LS_API ls_status ls_profile_describe(const char *name, ls_profile_desc *out);
/* Checks a profile for impossible parameters (W not a power of two or above
 * 128, min > W or W > max, a memory size that is not a power of two, a
 * sector bigger than a line). Returns 0 when it is possible, else -1 with a
 * message in err. */
LS_API int ls_profile_check(const ls_profile_desc *p, char *err, size_t errlen);

/* -------------------------------------------------------------- profiler */

/* The SIMT profiler watches every dispatch of a device and measures what a
 * GPU of the device's profile would spend: idle lanes, SIMT efficiency,
 * divergence, loop trip spread, memory coalescing, bank conflicts,
 * barriers, atomics; per dispatch, per instruction and per WGSL line.
 * docs/profiler.md defines every figure. */
typedef struct ls_profiler ls_profiler;

typedef struct ls_memory_model {
  uint32_t sector_bytes, line_bytes, banks, bank_bytes;
  uint32_t tile_bytes; /* a texture tile (docs/profiler.md) */
} ls_memory_model;

/* The cost model's parameters for one GPU (docs/profiler.md, "Cost model",
 * gives each its source): the profiler turns a dispatch's figures into a
 * predicted time with them. Built-in per vendor profile
 * (ls_cost_model_describe); a custom profile may set any of them. */
typedef enum ls_prof_op_class {
  LS_PROF_OP_CONTROL,  /* masks, jumps, moves: the VM's structured control */
  LS_PROF_OP_ALU,      /* integer add/logic/compare/select, f32 compare/abs */
  LS_PROF_OP_FMA,      /* f32 add/mul/fma, integer multiply */
  LS_PROF_OP_TRANS,    /* sin, exp, log, sqrt, f32 division: the special-function unit */
  LS_PROF_OP_IDIV,     /* integer division and remainder */
  LS_PROF_OP_CONV,     /* f32 <-> integer, f16, packing */
  LS_PROF_OP_MEM,      /* buffer, workgroup and texture loads and stores */
  LS_PROF_OP_ATOMIC,
  LS_PROF_OP_BARRIER,
  LS_PROF_OP_SUBGROUP, /* shuffles, reductions, votes */
  LS_PROF_OP_CLASSES
} ls_prof_op_class;

typedef struct ls_cost_model {
  size_t struct_size;       /* see "Descriptors" above */
  int calibrated;           /* 1: set from measurements on the real GPU */
  double sms;               /* SMs / CUs / cores */
  double clock_mhz;
  double max_threads;       /* resident invocations per SM */
  double max_groups;        /* resident workgroups per SM */
  double registers;         /* 32-bit registers per SM */
  double shared_bytes;      /* workgroup memory per SM */
  double l2_bytes;
  double l2_resident;       /* fraction of l2_bytes a dispatch's data keeps (0..1] */
  double l2_gbs, dram_gbs;  /* sustained bandwidths, GB/s */
  double dispatch_ns;       /* fixed cost of a dispatch */
  double group_ns;          /* SM time to launch one workgroup */
  double cpi[LS_PROF_OP_CLASSES]; /* SM cycles per subgroup-instruction, throughput */
  double dep_cycles;        /* one subgroup's cycles per instruction alone (latency) */
  double l2_latency_ns, dram_latency_ns, uniform_latency_ns;
  double line_cycles;       /* SM cycles per cache line a request touches */
  double region_cycles;     /* per 64 KiB region of a request beyond its first */
  double uniform_cycles;    /* per request whose lanes read one word */
  double replay_cycles;     /* per workgroup-memory bank-conflict replay */
  double atomic_gops;       /* atomic operations at L2 per second, in billions */
  double atomic_same_ns;    /* one request on a word every request uses, serialised */
  const char *source;       /* one line: where the figures come from */
} ls_cost_model;

/* Fills *out with a profile's built-in cost model; LS_OPERATION when the
 * name is unknown. */
LS_API ls_status ls_cost_model_describe(const char *profile, ls_cost_model *out);
/* Checks for impossible parameters (zero SMs or bandwidth, a negative
 * cost, ...): 0 when possible, else -1 with a message naming the
 * parameter in err. */
LS_API int ls_cost_model_check(const ls_cost_model *m, char *err, size_t errlen);
/* The parameters by name ("sms", "dramGBs", ...: docs/profiler.md):
 * the i-th name (NULL past the last), and the named one of *m (NULL when
 * no parameter has that name). */
LS_API const char *ls_cost_model_param_name(size_t i);
LS_API double *ls_cost_model_param(ls_cost_model *m, const char *name);

/* What the cost model predicts for one dispatch (docs/profiler.md). The
 * terms are in ns; the time is dispatch_ns + the largest of launch, sm
 * (issue and memory pipeline, or latency when too few subgroups hide it),
 * l2, dram and atomic. Saturates at 1e300 (never inf or NaN). */
typedef struct ls_prof_prediction {
  double ns;
  const char *bound;        /* "issue", "latency (occupancy 25%)", "DRAM bandwidth", ... */
  double launch_ns, issue_ns, memory_pipe_ns, latency_ns, l2_ns, dram_ns, atomic_ns;
  double occupancy;         /* resident subgroups / the SM's most */
  uint32_t resident_groups; /* per SM */
  const char *limiter;      /* what limits resident_groups: "threads", "workgroups", ... */
  double waves;             /* workgroups / (SMs x resident_groups) */
  double dram_bytes, l2_bytes, footprint_bytes;
  int calibrated;
} ls_prof_prediction;

struct ls_prof_dispatch;
/* The prediction for a dispatch's figures under model m (what the
 * profiler puts in ls_prof_dispatch.predicted); out's strings are static. */
LS_API void ls_cost_predict(const ls_cost_model *m, const struct ls_prof_dispatch *d,
                            ls_prof_prediction *out);

typedef struct ls_profiler_options {
  size_t struct_size;     /* see "Descriptors" above */
  ls_memory_model memory; /* each field 0 = the device's profile */
  /* Lane-activity trace of one workgroup (for the HTML report): the
   * instructions each subgroup issued, in order, with their live lanes. */
  int trace;
  uint32_t trace_dispatch;  /* 0-based dispatch index */
  uint32_t trace_group[3];  /* workgroup_id */
  uint32_t trace_limit;     /* most instructions kept per subgroup; 0 = 4096 */
  const ls_cost_model *cost; /* NULL = the device profile's (checked, copied) */
} ls_profiler_options;

typedef enum ls_prof_access { LS_PROF_LOAD, LS_PROF_STORE, LS_PROF_ATOMIC } ls_prof_access;
typedef enum ls_prof_space { LS_PROF_BUFFER, LS_PROF_WORKGROUP, LS_PROF_TEXTURE } ls_prof_space;

/* One load/store/atomic instruction, or a textureLoad / textureStore
 * (space LS_PROF_TEXTURE: bytes count texel bytes, sectors and lines stay 0,
 * the texel figures at the end say what it cost). A request is one
 * execution of the instruction by a subgroup with at least one lane. */
typedef struct ls_prof_mem {
  uint32_t pc, line, column;
  ls_prof_access access;
  ls_prof_space space;
  const char *variable;   /* the WGSL variable for buffers; NULL for workgroup */
  uint64_t requests, lanes, bytes, unique_bytes, oob_lanes;
  uint64_t sectors, lines;      /* summed over requests */
  uint64_t max_sectors, max_lines;
  double sectors_per_request, lines_per_request;
  double efficiency;            /* unique bytes / (sectors x sector_bytes) */
  uint64_t conflict_sum, conflict_max; /* workgroup: worst-bank degree */
  double conflict_per_request;
  uint64_t same_address_sum, same_address_max; /* atomics: lanes on one address */
  /* for the cost model: distinct 64 KiB regions per request, summed;
   * requests whose lanes read one word; atomic requests whose lanes all
   * use one word, and distinct words per atomic request, summed */
  uint64_t regions, uniform_requests, hot_requests, atomic_ops;
  uint64_t binding_bytes;       /* the binding's size, when known (else 0) */
  /* textures: distinct texels and distinct tiles per request, summed; the
   * tile is tile_width x tile_height texels of texel_bytes each
   * (docs/profiler.md); efficiency = unique bytes / (tiles x tile bytes) */
  uint64_t texels, tiles, max_tiles;
  double texels_per_request, tiles_per_request;
  uint32_t texel_bytes, tile_width, tile_height;
} ls_prof_mem;

/* One MAND (the test of an if, a loop's exit test, && / ||) or MANDN
 * (else). */
typedef struct ls_prof_branch {
  uint32_t pc, line, column;
  int is_else;
  uint64_t evaluations, divergent; /* divergent: some lanes go each way */
  int is_loop_exit; /* the condition of a for or while loop, or `break if` */
} ls_prof_branch;

/* One loop (its back edge). Trips of a lane = back edges it took; an
 * instance = one subgroup running the loop once from entry to exit. */
typedef struct ls_prof_loop {
  uint32_t pc, line, column;
  uint64_t instances;
  uint64_t subgroup_trips;  /* summed over instances: trips of the longest lane */
  uint64_t lane_trips;      /* summed over lanes */
  uint64_t lanes;           /* lanes that made at least one trip, summed */
  uint64_t max_trips;
  double avg_subgroup_trips, avg_lane_trips;
  double max_spread;        /* max over instances of longest - average lane */
  double mean_spread;
  double efficiency;        /* lane_trips / (subgroup trips x lanes), summed */
  uint32_t worst_group[3], worst_subgroup;
} ls_prof_loop;

typedef struct ls_prof_line {
  uint32_t line;
  uint64_t issued, live_lanes;
  double simt_efficiency;   /* live lanes / (issued x W) */
  uint64_t requests, sectors, lines_touched, bytes, unique_bytes;
  uint64_t branches, divergent, loop_trips, barriers, conflicts, atomics;
  uint64_t texel_requests, texels, tiles; /* textureLoad / textureStore */
  double predicted_share;   /* of the dispatch's SM time (issue and memory pipeline) */
} ls_prof_line;

/* One executed instruction of the trace: pc and the lanes live for it. */
typedef struct ls_prof_step {
  uint32_t pc, line;
  uint32_t flags; /* LS_PROF_STEP_* */
  uint64_t mask;  /* live lanes */
} ls_prof_step;
enum {
  LS_PROF_STEP_MEM = 1,
  LS_PROF_STEP_BRANCH = 2,
  LS_PROF_STEP_DIVERGENT = 4,
  LS_PROF_STEP_LOOP = 8,
  LS_PROF_STEP_BARRIER = 16
};

typedef struct ls_prof_trace {
  uint32_t group[3];
  uint32_t subgroups;
  const ls_prof_step *const *steps; /* [subgroups] */
  const uint32_t *nsteps;           /* [subgroups] */
  int truncated;
} ls_prof_trace;

typedef struct ls_prof_dispatch {
  uint32_t index;
  const char *entry_point, *filename, *source; /* copies, owned by the profiler */
  uint32_t source_len;
  uint32_t groups[3], wg_size[3], width;
  ls_memory_model memory;
  int counted;  /* the VM filled the per-instruction counters */
  /* occupancy */
  uint64_t workgroups, invocations, subgroups;
  uint64_t lanes_allocated, lanes_idle; /* per dispatch */
  uint32_t group_lanes, group_idle;     /* per workgroup */
  double idle_fraction;
  /* early exits (lanes that returned before END) and the guard's tail
   * (those that never wrote buffer or workgroup memory) */
  uint64_t early_exits, tail_invocations, tail_groups;
  uint64_t tail_first_group, tail_last_group; /* flat workgroup index */
  /* SIMT */
  uint64_t issued, live_lanes;
  double simt_efficiency;
  uint64_t branches, divergent_branches;
  uint64_t barriers, barrier_releases, atomics;
  uint64_t requests, bytes, unique_bytes, sectors, lines_touched, conflicts;
  double mem_efficiency;
  double cost;  /* issue slots: issued + sectors + bank-conflict replays */
  const ls_prof_mem *mem;       size_t nmem;
  const ls_prof_branch *branch; size_t nbranch;
  const ls_prof_loop *loop;     size_t nloop;
  const ls_prof_line *line;     size_t nline;  /* lines with any figure */
  const ls_prof_trace *trace;   /* NULL unless traced */
  /* texel traffic (textureLoad, textureStore), apart from requests/bytes
   * above; cost counts each tile like a sector */
  uint64_t texel_requests, texel_lanes, texel_bytes, texel_unique_bytes, texels, tiles;
  double texture_efficiency;    /* texel unique bytes / (tiles x tile bytes) */
  /* loops' exit tests, counted apart from branches and divergent_branches
   * (which are the ifs, switches, && and ||): a loop whose lanes leave at
   * different trips diverges there once per instance */
  uint64_t loop_exits, divergent_loop_exits;
  /* the cost model's inputs and its prediction (docs/profiler.md) */
  uint64_t class_issued[LS_PROF_OP_CLASSES];
  uint64_t regions;          /* buffer requests: distinct 64 KiB regions, summed */
  uint64_t uniform_requests; /* buffer requests whose lanes read one word */
  uint64_t hot_atomics;      /* atomic requests whose lanes all use one word */
  uint64_t atomic_ops;       /* distinct words per atomic request, summed */
  uint32_t registers;        /* the program's registers per invocation (no constants) */
  uint32_t workgroup_bytes;
  ls_prof_prediction predicted;
} ls_prof_dispatch;

/* Attaches a profiler to every later dispatch of the device. A device may
 * have several observers at once (profilers, the sanitizer): each sees
 * every dispatch, with the figures it would give alone. NULL with a
 * message in err on bad options. */
LS_API ls_profiler *ls_profiler_attach(ls_device *device, const ls_profiler_options *opts,
                                       char *err, size_t errlen);
/* Detaches and frees it (and every figure it handed out). */
LS_API void ls_profiler_destroy(ls_profiler *p);
LS_API size_t ls_profiler_dispatch_count(const ls_profiler *p);
LS_API const ls_prof_dispatch *ls_profiler_dispatch(const ls_profiler *p, size_t index);
/* Drops the figures gathered so far. */
LS_API void ls_profiler_reset(ls_profiler *p);

/* Reports as malloc'd NUL-terminated text (free with ls_free); NULL when
 * memory runs out. `profile` names the profile in the header; may be NULL. */
LS_API char *ls_profiler_report_text(const ls_profiler *p, const char *profile);
LS_API char *ls_profiler_report_json(const ls_profiler *p, const char *profile);
/* The WGSL source with each line's figures in a margin. */
LS_API char *ls_profiler_annotate(const ls_profiler *p, size_t dispatch);
/* One self-contained HTML page (no network): summary, per-line heat map,
 * the lane-activity picture of the traced workgroup. */
LS_API char *ls_profiler_report_html(const ls_profiler *p, const char *profile,
                                     const char *title);

/* ------------------------------------------------------ dispatch plans */

typedef enum ls_plan_pattern {
  LS_PLAN_AUTO = 0,
  LS_PLAN_1D,          /* dispatchWorkgroups(ceil(n / size)), guard on the count */
  LS_PLAN_2D,          /* a fixed power-of-two width in X, rows in Y (lesson 000) */
  LS_PLAN_GRID_STRIDE  /* enough workgroups to fill the machine, a loop */
} ls_plan_pattern;

typedef struct ls_plan_options {
  size_t struct_size;       /* see "Descriptors" above */
  uint64_t elements;        /* n >= 1 */
  uint32_t workgroup_size;  /* invocations per workgroup (1D) */
  const ls_limits *limits;  /* NULL = WebGPU's defaults */
  ls_plan_pattern pattern;  /* AUTO: 1D when it fits, else 2D */
  uint32_t width_2d;        /* groups in X for 2D, a power of two; 0 = 4096 */
  uint32_t compute_units;   /* grid-stride: units of the machine; 0 = 1 */
  uint32_t groups_per_unit; /* grid-stride: resident workgroups each; 0 = 4 */
} ls_plan_options;

typedef struct ls_dispatch_plan {
  ls_plan_pattern pattern;
  uint32_t workgroups[3];
  uint64_t invocations;     /* launched */
  uint64_t excess;          /* launched past n (stopped by the guard) */
  uint64_t per_invocation;  /* elements each invocation handles (grid-stride: at most) */
  char index[320];          /* the WGSL that computes the element index and guards it */
  char builtins[160];       /* the @builtin parameters it needs */
} ls_dispatch_plan;

/* Plans a dispatch of n elements; LS_OPERATION with a message when no
 * pattern fits the limits (or the options are bad). */
LS_API ls_status ls_plan_dispatch(const ls_plan_options *opts, ls_dispatch_plan *out, char *err,
                                  size_t errlen);
/* min(wanted, what the adapter offers) of a limit, for requiredLimits
 * (lesson 001). For an alignment limit: max(wanted, offered). Returns 0 and
 * leaves *out alone when the name is unknown. */
LS_API int ls_adapter_limit_up_to(const ls_adapter *adapter, const char *webgpu_name,
                                  uint64_t wanted, uint64_t *out);

/* =========================================== introspection (experimental) */

/* Calls for the tools built on lockstep (the `lockstep` command, tests,
 * bindings) that look behind what WebGPU keeps opaque: every dispatch as
 * the queue runs it, the first error of a pass before finish() reports it,
 * a pipeline's bytecode, the lint's findings. A program that only computes
 * needs none of them. Like SQLite's sqlite3_test_control, this corner is
 * outside the stable API: its calls and the text they return may change
 * in any release. Text is malloc'd; free it with ls_free. */

/* One dispatch, as the queue is about to run it. */
typedef struct ls_dispatch_info {
  const char *pipeline_label; /* may be NULL */
  const char *entry_point;
  uint32_t groups[3];         /* workgroups; an indirect dispatch's as read from its buffer */
  uint32_t wg_size[3];        /* the pipeline's workgroup size */
  uint32_t width;             /* the subgroup width W */
  int indirect;
  int skipped;                /* an indirect count over the limit: nothing runs */
} ls_dispatch_info;

typedef void (*ls_dispatch_callback)(void *user, const ls_dispatch_info *info);

/* fn is called for every dispatch the device runs, just before it runs
 * (or, when it is skipped, instead), on the device's queue thread; NULL
 * removes it. */
LS_API void ls_device_set_dispatch_callback(ls_device *device, ls_dispatch_callback fn,
                                            void *user);

/* The first error recorded in the pass's command encoder so far, NULL
 * while it is valid: names the call that broke a rule before
 * ls_command_encoder_finish reports it. Owned by the encoder. */
LS_API const char *ls_compute_pass_get_error(const ls_compute_pass *pass);

/* The pipeline's bytecode, one instruction a line with its WGSL line (what
 * `lockstep disasm` prints; docs/architecture.md describes the
 * instructions). NULL for a NULL pipeline or when memory runs out. */
LS_API char *ls_compute_pipeline_disassemble(const ls_compute_pipeline *pipeline);

/* The static lint of `lockstep check` (docs/sanitizer.md) on a module:
 * returns the number of findings (0 for an invalid module) and, when text
 * is not NULL, sets *text to them printed compiler-style, file:line:col
 * with the source line and a caret (`file` names the source; NULL = the
 * module's label), or to NULL when there are none or memory runs out. */
LS_API int ls_shader_module_lint(const ls_shader_module *module, const char *file, char **text);

#ifdef __cplusplus
}
#endif
#endif /* LOCKSTEP_H */
