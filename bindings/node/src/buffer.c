/*
 * buffer.c — GPUBuffer: creation (mappedAtCreation included), destroy(),
 * mapAsync and the ArrayBuffers of getMappedRange.
 *
 * A mapped range of a buffer mapped for writing is an external ArrayBuffer
 * over lockstep's own memory, so what JavaScript writes is the buffer's new
 * contents with no copy; unmap detaches it before lockstep takes the memory
 * back (WebGPU's DetachArrayBuffer). A range of a buffer mapped for reading
 * is a copy, because WebGPU discards what the program writes into it. Where
 * the runtime refuses external ArrayBuffers (napi_no_external_buffers_allowed)
 * a written range is a copy too, written back at unmap.
 *
 * JavaScript keeps the spec's mapping state ([[pending_map]], [[mapping]],
 * the views and their overlap rule); the native side only does what lockstep
 * does.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

/* bufferCreate(js, device, size, usage, label, mappedAtCreation): true when
 * lockstep made the buffer, false when it raised a validation error (the
 * JavaScript object is then an invalid buffer). */
ND_FN(buffer_create) {
  napi_value argv[6];
  if (!nd_args(env, info, 6, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  char *label = nd_get_str(env, argv[4]);
  ls_buffer_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_buffer_desc),
    .size = nd_get_u64(env, argv[2]),
    .usage = nd_get_u32(env, argv[3]),
    .label = label,
    .mapped_at_creation = nd_get_bool(env, argv[5]),
  };
  ls_buffer *b = ls_device_create_buffer(d->h, &desc);
  free(label);
  if (!b) return nd_bool(env, 0);
  nd_obj *o = nd_wrap(env, argv[0], ND_BUFFER, b, d);
  if (!o) return NULL;
  /* V8 sees the buffer's memory, so dropped buffers are collected before
   * the process grows without bound */
  nd_external_memory(env, o, (int64_t)desc.size);
  return nd_bool(env, 1);
}

ND_FN(buffer_destroy) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  nd_obj *o = nd_unwrap(env, argv[0], ND_BUFFER);
  if (o && o->h) {
    ls_buffer_destroy(o->h);
    if (o->ext_bytes) nd_external_memory(env, o, -o->ext_bytes);
  }
  return nd_undefined(env);
}

typedef struct map_request {
  uint32_t id;
} map_request;

static void on_mapped(void *user, ls_status status, const char *message) {
  map_request *r = user;
  nd_post(ND_EV_MAP, r->id, (int32_t)status, message);
  free(r);
}

/* bufferMapAsync(js, mode, offset, size, request): the answer is an
 * ND_EV_MAP event with lockstep's status. size undefined = to the end. */
ND_FN(buffer_map_async) {
  napi_value argv[5];
  if (!nd_args(env, info, 5, argv)) return NULL;
  uint32_t id = nd_get_u32(env, argv[4]);
  nd_obj *o = nd_unwrap(env, argv[0], ND_BUFFER);
  nd_pending_begin(env);
  map_request *r = malloc(sizeof *r);
  if (!o || !o->h || !r) {
    free(r);
    nd_post(ND_EV_MAP, id, LS_DEVICE_LOST, "the buffer has no memory");
    return nd_undefined(env);
  }
  r->id = id;
  ls_buffer_map_async(o->h, nd_get_u32(env, argv[1]), nd_get_u64(env, argv[2]),
                      nd_get_u64(env, argv[3]), on_mapped, r);
  return nd_undefined(env);
}

/* An external ArrayBuffer holds its GPUBuffer (a strong reference) until
 * the ArrayBuffer goes, so that lockstep's memory under it cannot be
 * released while JavaScript can still reach it; unmap and destroy detach
 * it first, and the program may keep the detached ArrayBuffer. */
static void range_finalize(napi_env env, void *data, void *hint) {
  if (hint) napi_delete_reference(env, (napi_ref)hint);
}

/* bufferMappedRange(js, offset, size, copy): [ArrayBuffer, write-back
 * pointer or undefined]. Throws (code "OperationError") when lockstep
 * refuses the range. */
ND_FN(buffer_mapped_range) {
  napi_value argv[4];
  if (!nd_args(env, info, 4, argv)) return NULL;
  nd_obj *o = nd_unwrap(env, argv[0], ND_BUFFER);
  if (!o || !o->h) return nd_throw(env, "OperationError", "the buffer has no memory");
  uint64_t offset = nd_get_u64(env, argv[1]);
  uint64_t size = nd_get_u64(env, argv[2]);
  int copy = nd_get_bool(env, argv[3]);
  char err[256] = "";
  void *p = ls_buffer_get_mapped_range(o->h, offset, size, err, sizeof err);
  if (!p && size != 0) return nd_throw(env, "OperationError", "%s", err[0] ? err : "not mapped");
  napi_value pair, ab, back;
  napi_get_undefined(env, &back);
  napi_status st = napi_generic_failure;
  if (!copy && size != 0) {
    napi_ref keep = NULL;
    napi_create_reference(env, argv[0], 1, &keep);
    st = napi_create_external_arraybuffer(env, p, size, range_finalize, keep, &ab);
    if (st != napi_ok && keep) napi_delete_reference(env, keep);
  }
  if (st != napi_ok) {
    void *data = NULL;
    if (napi_create_arraybuffer(env, size, &data, &ab) != napi_ok)
      return nd_throw(env, "RangeError", "cannot allocate %llu bytes for the mapped range",
                      (unsigned long long)size);
    if (size) memcpy(data, p, size);
    /* a written range that had to be copied goes back at unmap */
    if (!copy && size) napi_create_external(env, p, NULL, NULL, &back);
  }
  napi_create_array_with_length(env, 2, &pair);
  napi_set_element(env, pair, 0, ab);
  napi_set_element(env, pair, 1, back);
  return pair;
}

/* bufferUnmap(js, views): views [[ArrayBuffer, write-back pointer], ...]
 * as bufferMappedRange gave them. Copies written ranges back, detaches
 * every ArrayBuffer, then unmaps. */
ND_FN(buffer_unmap) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  uint32_t n = 0;
  if (!nd_is_nullish(env, argv[1])) napi_get_array_length(env, argv[1], &n);
  for (uint32_t i = 0; i < n; i++) {
    napi_value pair, ab, back;
    napi_get_element(env, argv[1], i, &pair);
    napi_get_element(env, pair, 0, &ab);
    napi_get_element(env, pair, 1, &back);
    bool detached = false;
    napi_is_detached_arraybuffer(env, ab, &detached);
    if (detached) continue;
    if (!nd_is_nullish(env, back)) {
      void *dst = NULL, *src = NULL;
      size_t len = 0;
      napi_get_value_external(env, back, &dst);
      napi_get_arraybuffer_info(env, ab, &src, &len);
      if (dst && src && len) memcpy(dst, src, len);
    }
    napi_detach_arraybuffer(env, ab);
  }
  nd_obj *o = nd_unwrap(env, argv[0], ND_BUFFER);
  if (o && o->h) ls_buffer_unmap(o->h);
  return nd_undefined(env);
}

const nd_export nd_exports_buffer[] = {
  {"bufferCreate", buffer_create},
  {"bufferDestroy", buffer_destroy},
  {"bufferMapAsync", buffer_map_async},
  {"bufferMappedRange", buffer_mapped_range},
  {"bufferUnmap", buffer_unmap},
  {NULL, NULL},
};
