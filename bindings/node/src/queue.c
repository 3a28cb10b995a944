/*
 * queue.c — GPUQueue: submit (which returns at once: lockstep runs the work
 * on its queue thread and thread pool), writeBuffer, writeTexture and
 * onSubmittedWorkDone.
 *
 * The binding watches submitted work with a work-done callback of its own:
 * when it comes (on the queue thread), the sanitizer's new findings are
 * printed, and its event lets the event loop go once no submitted work is
 * left. One watch is outstanding per device at a time: submits made while
 * it is renew it when it completes, so a stream of submits costs one
 * callback per batch, not one each. A script therefore exits when its last
 * submitted work is done, and never while a device loss or a finding of
 * that work is still on its way.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

static void on_internal_done(void *user, ls_status status) {
  nd_device *d = user;
  nd_device_drain_findings(d);
  nd_post(ND_EV_INTERNAL_DONE, d->id, (int32_t)status, NULL);
}

void nd_watch_submit(napi_env env, nd_device *d) {
  if (d->watching) {
    d->submitted_since = 1;
    return;
  }
  d->watching = 1;
  d->submitted_since = 0;
  nd_pending_begin(env);
  ls_queue_on_submitted_work_done(d->h, on_internal_done, d);
}

int nd_watch_done(nd_device *d) {
  if (!d || d->released) return 0;
  if (d->submitted_since && !ls_device_is_lost(d->h)) {
    d->submitted_since = 0;
    ls_queue_on_submitted_work_done(d->h, on_internal_done, d);
    return 1;
  }
  d->watching = 0;
  return 0;
}

/* submit(device, commandBuffers): the command buffers are spent; their
 * handles stay in the wraps until the finalizers release them (device null:
 * the JavaScript layer refused the submit, nothing is submitted). Returns
 * lockstep's status name. */
ND_FN(submit) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[0]);
  uint32_t n = 0;
  napi_get_array_length(env, argv[1], &n);
  ls_command_buffer *stack[16];
  ls_command_buffer **cbs = n <= 16 ? stack : calloc(n, sizeof *cbs);
  if (!cbs) return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  uint32_t got = 0;
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    napi_get_element(env, argv[1], i, &v);
    nd_obj *o = nd_unwrap(env, v, ND_COMMAND_BUFFER);
    if (o && o->h) cbs[got++] = o->h;
  }
  ls_status st = LS_DEVICE_LOST;
  if (d) {
    st = ls_queue_submit_async(d->h, cbs, got);
    if (st == LS_OK) nd_watch_submit(env, d);
  }
  if (cbs != stack) free(cbs);
  return nd_str(env, ls_status_name(st));
}

/* writeBuffer(device, buffer, offset, bytes): bytes a Uint8Array. */
ND_FN(write_buffer) {
  napi_value argv[4];
  if (!nd_args(env, info, 4, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[0]);
  ls_buffer *b = nd_handle(env, argv[1], ND_BUFFER);
  void *data = NULL;
  size_t len = 0;
  if (!nd_get_bytes(env, argv[3], &data, &len))
    return nd_throw(env, "ERR_LOCKSTEP_ARGUMENT", "writeBuffer: expected a Uint8Array");
  if (d && b) ls_queue_write_buffer(d->h, b, nd_get_u64(env, argv[2]), data, len);
  return nd_undefined(env);
}

/* The ls_texel_copy_texture_info of a converted GPUTexelCopyTextureInfo
 * {texture, mipLevel, origin: [x, y, z], aspect: 0..2} (encoder.c too). */
int nd_copy_texture_info(napi_env env, napi_value v, ls_texel_copy_texture_info *out) {
  napi_value origin = nd_prop(env, v, "origin");
  napi_value e;
  uint32_t xyz[3] = {0, 0, 0};
  for (uint32_t i = 0; i < 3; i++) {
    if (napi_get_element(env, origin, i, &e) == napi_ok) xyz[i] = nd_get_u32(env, e);
  }
  *out = (ls_texel_copy_texture_info){
    .texture = nd_handle(env, nd_prop(env, v, "texture"), ND_TEXTURE),
    .mip_level = nd_get_u32(env, nd_prop(env, v, "mipLevel")),
    .origin = {.x = xyz[0], .y = xyz[1], .z = xyz[2]},
    .aspect = (ls_texture_aspect)nd_get_u32(env, nd_prop(env, v, "aspect")),
  };
  return out->texture != NULL;
}

/* A converted GPUTexelCopyBufferLayout {offset, bytesPerRow, rowsPerImage}
 * (undefined members: not given). */
void nd_copy_buffer_layout(napi_env env, napi_value v, ls_texel_copy_buffer_layout *out) {
  napi_value bpr = nd_prop(env, v, "bytesPerRow"), rpi = nd_prop(env, v, "rowsPerImage");
  *out = (ls_texel_copy_buffer_layout){
    .offset = nd_is_nullish(env, nd_prop(env, v, "offset")) ? 0
                                                             : nd_get_u64(env, nd_prop(env, v, "offset")),
    .bytes_per_row = nd_is_nullish(env, bpr) ? LS_COPY_STRIDE_UNDEFINED : nd_get_u32(env, bpr),
    .rows_per_image = nd_is_nullish(env, rpi) ? LS_COPY_STRIDE_UNDEFINED : nd_get_u32(env, rpi),
  };
}

/* A converted GPUExtent3D: [width, height, depthOrArrayLayers]. */
void nd_extent(napi_env env, napi_value v, ls_extent3d *out) {
  napi_value e;
  uint32_t whd[3] = {1, 1, 1};
  for (uint32_t i = 0; i < 3; i++) {
    if (napi_get_element(env, v, i, &e) == napi_ok) whd[i] = nd_get_u32(env, e);
  }
  *out = (ls_extent3d){.width = whd[0], .height = whd[1], .depth_or_array_layers = whd[2]};
}

/* writeTexture(device, destination, bytes, layout, size) */
ND_FN(write_texture) {
  napi_value argv[5];
  if (!nd_args(env, info, 5, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[0]);
  ls_texel_copy_texture_info dst;
  void *data = NULL;
  size_t len = 0;
  if (!nd_get_bytes(env, argv[2], &data, &len))
    return nd_throw(env, "ERR_LOCKSTEP_ARGUMENT", "writeTexture: expected a Uint8Array");
  if (!d || !nd_copy_texture_info(env, argv[1], &dst)) return nd_undefined(env);
  ls_texel_copy_buffer_layout layout;
  ls_extent3d size;
  nd_copy_buffer_layout(env, argv[3], &layout);
  nd_extent(env, argv[4], &size);
  ls_queue_write_texture(d->h, &dst, data, len, &layout, &size);
  return nd_undefined(env);
}

typedef struct done_request {
  uint32_t id;
} done_request;

static void on_done(void *user, ls_status status) {
  done_request *r = user;
  nd_post(ND_EV_DONE, r->id, (int32_t)status, NULL);
  free(r);
}

/* onSubmittedWorkDone(device, request): an ND_EV_DONE event follows. */
ND_FN(on_submitted_work_done) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[0]);
  uint32_t id = nd_get_u32(env, argv[1]);
  nd_pending_begin(env);
  done_request *r = malloc(sizeof *r);
  if (!d || !r) {
    free(r);
    nd_post(ND_EV_DONE, id, LS_DEVICE_LOST, NULL);
    return nd_undefined(env);
  }
  r->id = id;
  ls_queue_on_submitted_work_done(d->h, on_done, r);
  return nd_undefined(env);
}

const nd_export nd_exports_queue[] = {
  {"submit", submit},
  {"writeBuffer", write_buffer},
  {"writeTexture", write_texture},
  {"onSubmittedWorkDone", on_submitted_work_done},
  {NULL, NULL},
};
