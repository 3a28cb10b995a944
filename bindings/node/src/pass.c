/*
 * pass.c — GPUComputePassEncoder: setPipeline, setBindGroup (both of
 * WebGPU's overloads arrive as one Uint32Array range), dispatches,
 * setImmediates, debug markers and end. These are the calls a program makes
 * per dispatch, so each is one unwrap and one lockstep call.
 */
#include "addon.h"

#include <stdlib.h>


#define PASS_ARG(n)                                                            \
  napi_value argv[n];                                                          \
  if (!nd_args(env, info, n, argv)) return NULL;                               \
  ls_compute_pass *pass = nd_handle(env, argv[0], ND_COMPUTE_PASS);            \
  if (!pass) return nd_undefined(env)

ND_FN(set_pipeline) {
  PASS_ARG(2);
  ls_compute_pass_set_pipeline(pass, nd_handle(env, argv[1], ND_COMPUTE_PIPELINE));
  return nd_undefined(env);
}

/* setBindGroup(pass, index, group | null, offsets, start, length): offsets
 * a Uint32Array (or undefined for none). */
ND_FN(set_bind_group) {
  PASS_ARG(6);
  const uint32_t *offsets = NULL;
  size_t count = 0;
  if (!nd_is_nullish(env, argv[3])) {
    napi_typedarray_type t;
    size_t n = 0;
    void *data = NULL;
    napi_get_typedarray_info(env, argv[3], &t, &n, &data, NULL, NULL);
    size_t start = (size_t)nd_get_u64(env, argv[4]);
    count = nd_get_u32(env, argv[5]);
    if (t == napi_uint32_array && start <= n && count <= n - start)
      offsets = (const uint32_t *)data + start;
    else
      count = 0;
  }
  ls_bind_group *g = nd_is_nullish(env, argv[2]) ? NULL : nd_handle(env, argv[2], ND_BIND_GROUP);
  ls_compute_pass_set_bind_group(pass, nd_get_u32(env, argv[1]), g, offsets, count);
  return nd_undefined(env);
}

ND_FN(dispatch) {
  PASS_ARG(4);
  ls_compute_pass_dispatch_workgroups(pass, nd_get_u32(env, argv[1]), nd_get_u32(env, argv[2]),
                                      nd_get_u32(env, argv[3]));
  return nd_undefined(env);
}

ND_FN(dispatch_indirect) {
  PASS_ARG(3);
  ls_compute_pass_dispatch_workgroups_indirect(pass, nd_handle(env, argv[1], ND_BUFFER),
                                               nd_get_u64(env, argv[2]));
  return nd_undefined(env);
}

/* setImmediates(pass, rangeOffset, bytes): bytes a Uint8Array. */
ND_FN(set_immediates) {
  PASS_ARG(3);
  size_t n = 0;
  void *data = NULL;
  if (!nd_get_bytes(env, argv[2], &data, &n))
    return nd_throw(env, "ERR_LOCKSTEP_ARGUMENT", "setImmediates: expected a Uint8Array");
  ls_compute_pass_set_immediates(pass, nd_get_u32(env, argv[1]), data, n);
  return nd_undefined(env);
}

/* passDebug(pass, op, label): op 0 push, 1 pop, 2 marker. */
ND_FN(pass_debug) {
  PASS_ARG(3);
  char *label = nd_get_str(env, argv[2]);
  switch (nd_get_u32(env, argv[1])) {
  case 0: ls_compute_pass_push_debug_group(pass, label ? label : ""); break;
  case 1: ls_compute_pass_pop_debug_group(pass); break;
  default: ls_compute_pass_insert_debug_marker(pass, label ? label : ""); break;
  }
  free(label);
  return nd_undefined(env);
}

/* passEnd(pass): the pass is ended; its handle stays in the wrap until the
 * finalizer releases it (the JavaScript layer keeps the pass's state). */
ND_FN(pass_end) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  nd_obj *o = nd_unwrap(env, argv[0], ND_COMPUTE_PASS);
  if (o && o->h) ls_compute_pass_end(o->h);
  return nd_undefined(env);
}

const nd_export nd_exports_pass[] = {
  {"setPipeline", set_pipeline},
  {"setBindGroup", set_bind_group},
  {"dispatch", dispatch},
  {"dispatchIndirect", dispatch_indirect},
  {"setImmediates", set_immediates},
  {"passDebug", pass_debug},
  {"passEnd", pass_end},
  {NULL, NULL},
};
