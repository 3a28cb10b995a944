/*
 * query.c — query sets (GPUQuerySet): the values a compute pass's
 * timestampWrites fill on the queue timeline (queue.c) and resolveQuerySet
 * copies into a buffer. Timestamps are the host's monotonic clock in
 * nanoseconds: what lockstep really spent on the pass, not a GPU's time.
 */
#include <stdlib.h>

#include "api.h"

#define API_MAX_QUERIES 4096

void api_query_set_ref(ls_query_set *q) {
  if (q) API_REF(q);
}

void api_query_set_unref(ls_query_set *q) {
  if (!q || !API_UNREF_LAST(q)) return;
  ls_device *d = q->device;
  free(q->values);
  free(q->label);
  API_FREE_HANDLE(q);
  api_device_unref(d);
}

ls_query_set *ls_device_create_query_set(ls_device *device, const ls_query_set_desc *desc) {
  if (api_device_dead(device)) return NULL;
  ls_query_set_desc qd;
  if (!desc || !API_DESC(qd, desc)) {
    api_validation(device, "createQuerySet: %s", desc ? API_DESC_NEWER : "no descriptor");
    return NULL;
  }
  const char *name = api_label(qd.label, "(unlabelled)");
  if (qd.type != LS_QUERY_OCCLUSION && qd.type != LS_QUERY_TIMESTAMP) {
    api_validation(device, "createQuerySet '%s': type %d is not \"occlusion\" or \"timestamp\"",
                   name, (int)qd.type);
    return NULL;
  }
  if (qd.type == LS_QUERY_TIMESTAMP && !ls_device_has_feature(device, "timestamp-query")) {
    api_validation(device, "createQuerySet '%s': a \"timestamp\" set needs the "
                           "\"timestamp-query\" feature (requiredFeatures)", name);
    return NULL;
  }
  if (qd.count > API_MAX_QUERIES) {
    api_validation(device, "createQuerySet '%s': count %u exceeds %u", name, qd.count,
                   API_MAX_QUERIES);
    return NULL;
  }
  ls_query_set *q = calloc(1, sizeof *q);
  if (q) q->values = calloc(qd.count ? qd.count : 1, sizeof *q->values);
  if (q && qd.label) q->label = api_strdup(qd.label);
  if (!q || !q->values || (qd.label && !q->label)) {
    if (q) {
      free(q->values);
      free(q->label);
    }
    free(q);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createQuerySet '%s': out of memory", name);
    return NULL;
  }
  q->device = device;
  api_device_ref(device);
  q->refs = 1;
  q->type = qd.type;
  q->count = qd.count;
  return q;
}

void ls_query_set_destroy(ls_query_set *set) {
  if (!set) return;
  API_LOCK(set->device);
  set->destroyed = 1;
  API_UNLOCK(set->device);
}

void ls_query_set_release(ls_query_set *set) { api_query_set_unref(set); }

void ls_query_set_set_label(ls_query_set *set, const char *label) {
  if (set) api_set_label(set->device, &set->label, label);
}

ls_query_type ls_query_set_get_type(const ls_query_set *set) { return set ? set->type : 0; }
uint32_t ls_query_set_get_count(const ls_query_set *set) { return set ? set->count : 0; }
