/*
 * pipeline.c — GPUComputePipeline: createComputePipeline,
 * createComputePipelineAsync (lockstep's try-create on libuv's thread pool,
 * so that compiling a large shader leaves the event loop free) and
 * getBindGroupLayout.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

/* A compute pipeline descriptor with its own copies of every string, so
 * that it can outlive the call (async creation). */
typedef struct pipe_desc {
  ls_compute_pipeline_desc desc;
  ls_constant_entry *constants;
  char **keys;
  uint32_t nconst;
  char *entry, *label;
} pipe_desc;

static void pipe_desc_free(pipe_desc *p) {
  for (uint32_t i = 0; p->keys && i < p->nconst; i++) free(p->keys[i]);
  free(p->keys);
  free(p->constants);
  free(p->entry);
  free(p->label);
}

/* argv: module, entryPoint, constants [[key, value]], layout (null = auto),
 * label. */
static int pipe_desc_read(napi_env env, napi_value *argv, pipe_desc *p) {
  memset(p, 0, sizeof *p);
  napi_get_array_length(env, argv[2], &p->nconst);
  p->constants = calloc(p->nconst + 1, sizeof *p->constants);
  p->keys = calloc(p->nconst + 1, sizeof *p->keys);
  if (!p->constants || !p->keys) return 0;
  for (uint32_t i = 0; i < p->nconst; i++) {
    napi_value pair, k, v;
    napi_get_element(env, argv[2], i, &pair);
    napi_get_element(env, pair, 0, &k);
    napi_get_element(env, pair, 1, &v);
    p->keys[i] = nd_get_name(env, k);
    p->constants[i] = (ls_constant_entry){.key = p->keys[i], .value = nd_get_f64(env, v)};
  }
  p->entry = nd_get_name(env, argv[1]);
  p->label = nd_get_str(env, argv[4]);
  p->desc = (ls_compute_pipeline_desc){
    .struct_size = LS_STRUCT_SIZE(ls_compute_pipeline_desc),
    .module = nd_handle(env, argv[0], ND_SHADER_MODULE),
    .entry_point = p->entry,
    .constants = p->constants,
    .constant_count = p->nconst,
    .layout = nd_is_nullish(env, argv[3]) ? NULL : nd_handle(env, argv[3], ND_PIPELINE_LAYOUT),
    .label = p->label,
  };
  return 1;
}

/* computePipelineCreate(js, device, module, entryPoint, constants, layout,
 * label): true when made. */
ND_FN(compute_pipeline_create) {
  napi_value argv[7];
  if (!nd_args(env, info, 7, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  pipe_desc p;
  if (!pipe_desc_read(env, argv + 2, &p)) {
    pipe_desc_free(&p);
    return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  }
  ls_compute_pipeline *cp = ls_device_create_compute_pipeline(d->h, &p.desc);
  pipe_desc_free(&p);
  if (!cp) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_COMPUTE_PIPELINE, cp, d) != NULL);
}

typedef struct async_pipe {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref js, module, layout; /* kept alive while the work runs */
  nd_device *dev;
  pipe_desc p;
  ls_compute_pipeline *result;
  char *message;
} async_pipe;

static void async_execute(napi_env env, void *data) {
  async_pipe *a = data;
  a->result = ls_device_try_create_compute_pipeline(a->dev->h, &a->p.desc, &a->message);
}

static void async_complete(napi_env env, napi_status status, void *data) {
  async_pipe *a = data;
  napi_value js = NULL;
  napi_get_reference_value(env, a->js, &js);
  if (a->result && js && !a->dev->released && nd_wrap(env, js, ND_COMPUTE_PIPELINE, a->result, a->dev)) {
    napi_resolve_deferred(env, a->deferred, js);
  } else {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending) {
      napi_value exc;
      napi_get_and_clear_last_exception(env, &exc);
    }
    if (a->result && !js) ls_compute_pipeline_release(a->result);
    napi_value err;
    napi_create_object(env, &err);
    nd_set(env, err, "message",
           nd_str(env, a->message ? a->message : "the compute pipeline could not be created"));
    napi_reject_deferred(env, a->deferred, err);
  }
  napi_delete_reference(env, a->js);
  if (a->module) napi_delete_reference(env, a->module);
  if (a->layout) napi_delete_reference(env, a->layout);
  napi_delete_async_work(env, a->work);
  ls_free(a->message);
  pipe_desc_free(&a->p);
  free(a);
}

/* computePipelineCreateAsync(js, device, module, entryPoint, constants,
 * layout, label): a promise of js (now holding the pipeline), rejected with
 * {message} when lockstep refuses the descriptor. */
ND_FN(compute_pipeline_create_async) {
  napi_value argv[7], promise, name;
  if (!nd_args(env, info, 7, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  async_pipe *a = calloc(1, sizeof *a);
  if (!a) return nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
  napi_create_promise(env, &a->deferred, &promise);
  if (!d || !pipe_desc_read(env, argv + 2, &a->p)) {
    napi_value err;
    napi_create_object(env, &err);
    nd_set(env, err, "message", nd_str(env, d ? "out of memory" : "the device is lost"));
    nd_set(env, err, "lost", nd_bool(env, !d));
    napi_reject_deferred(env, a->deferred, err);
    pipe_desc_free(&a->p);
    free(a);
    return promise;
  }
  a->dev = d;
  napi_create_reference(env, argv[0], 1, &a->js);
  if (!nd_is_nullish(env, argv[2])) napi_create_reference(env, argv[2], 1, &a->module);
  if (!nd_is_nullish(env, argv[5])) napi_create_reference(env, argv[5], 1, &a->layout);
  napi_create_string_utf8(env, "lockstep createComputePipelineAsync", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, async_execute, async_complete, a, &a->work);
  napi_queue_async_work(env, a->work);
  return promise;
}

/* pipelineBindGroupLayout(jsLayout, pipeline, index): true when made
 * (lockstep raises a validation error for an index past the layout's). */
ND_FN(pipeline_bind_group_layout) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  nd_obj *p = nd_unwrap(env, argv[1], ND_COMPUTE_PIPELINE);
  if (!p || !p->h) return nd_bool(env, 0);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p->h, nd_get_u32(env, argv[2]));
  if (!l) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_BIND_GROUP_LAYOUT, l, p->dev) != NULL);
}

/* pipelineWorkgroupSize(pipeline): [x, y, z] after override substitution
 * (lockstep's channel). */
ND_FN(pipeline_workgroup_size) {
  napi_value argv[1], arr;
  if (!nd_args(env, info, 1, argv)) return NULL;
  ls_compute_pipeline *p = nd_handle(env, argv[0], ND_COMPUTE_PIPELINE);
  if (!p) return nd_undefined(env);
  uint32_t size[3] = {0, 0, 0};
  ls_compute_pipeline_get_workgroup_size(p, size);
  napi_create_array_with_length(env, 3, &arr);
  for (uint32_t i = 0; i < 3; i++) napi_set_element(env, arr, i, nd_u32(env, size[i]));
  return arr;
}

const nd_export nd_exports_pipeline[] = {
  {"computePipelineCreate", compute_pipeline_create},
  {"computePipelineCreateAsync", compute_pipeline_create_async},
  {"pipelineBindGroupLayout", pipeline_bind_group_layout},
  {"pipelineWorkgroupSize", pipeline_workgroup_size},
  {NULL, NULL},
};
