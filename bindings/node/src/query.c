/*
 * query.c — GPUQuerySet: createQuerySet ("timestamp" needs the
 * "timestamp-query" feature; lockstep's timestamps are the host's monotonic
 * clock on the queue thread, in nanoseconds: the pass's real elapsed time on
 * the CPU) and destroy().
 */
#include "addon.h"

#include <stdlib.h>

static const char *const type_names[] = {"occlusion", "timestamp", NULL};
static const int type_values[] = {LS_QUERY_OCCLUSION, LS_QUERY_TIMESTAMP};

/* querySetCreate(js, device, type, count, label): true when made. */
ND_FN(query_set_create) {
  napi_value argv[5];
  if (!nd_args(env, info, 5, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  char *label = nd_get_str(env, argv[4]);
  ls_query_set_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_query_set_desc),
    .type = nd_enum(env, argv[2], type_names, type_values, LS_QUERY_TIMESTAMP),
    .count = nd_get_u32(env, argv[3]),
    .label = label,
  };
  ls_query_set *q = ls_device_create_query_set(d->h, &desc);
  free(label);
  if (!q) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_QUERY_SET, q, d) != NULL);
}

ND_FN(query_set_destroy) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  ls_query_set *q = nd_handle(env, argv[0], ND_QUERY_SET);
  if (q) ls_query_set_destroy(q);
  return nd_undefined(env);
}

const nd_export nd_exports_query[] = {
  {"querySetCreate", query_set_create},
  {"querySetDestroy", query_set_destroy},
  {NULL, NULL},
};
