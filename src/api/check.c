/*
 * check.c (api) — the sanitizer behind the public API: ls_device_enable_checks
 * and the finding accessors of lockstep.h, and the two calls the queue makes
 * around each dispatch (queue.c) so that the sanitizer (src/check/) knows
 * what every binding slot is bound to and sees how the dispatch ended.
 * The sanitizer's state is the queue thread's: the public calls run on it.
 */
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"
#include "api.h"

/* The sanitizer's state belongs to the queue thread, which reads it at
 * every dispatch: the calls below that change or read it run there, as a
 * queue operation, and wait for it, so that they see exactly the work queued
 * before them and never a dispatch half watched. */
typedef enum { API_CHK_ENABLE, API_CHK_COUNT, API_CHK_FINDING, API_CHK_DROPPED, API_CHK_CLEAR,
               API_CHK_JSON, API_CHK_LOGICAL } api_chk_kind;

typedef struct api_chk_op {
  api_chk_kind kind;
  int enable;
  const ls_check_options *opts;
  size_t index;
  ls_buffer *buffer;
  uint64_t bytes;
  /* results */
  ls_status status;
  size_t count;
  uint64_t dropped;
  const ls_check_finding *finding;
  char *json;
} api_chk_op;

static void api_chk_run(ls_device *d, void *arg) {
  api_chk_op *o = arg;
  switch (o->kind) {
  case API_CHK_ENABLE:
    if (!o->enable) {
      /* findings stay readable; only the observing stops */
      if (d->check) chk_set_options(d->check, o->opts);
      d->check_off = 1;
    } else if (!d->check && !(d->check = chk_create(d->threads ? d->threads : 1, o->opts))) {
      o->status = LS_OUT_OF_MEMORY;
    } else {
      chk_set_options(d->check, o->opts);
      d->check_off = 0;
    }
    break;
  case API_CHK_COUNT: o->count = chk_finding_count(d->check); break;
  case API_CHK_FINDING: o->finding = chk_finding(d->check, o->index); break;
  case API_CHK_DROPPED: o->dropped = chk_dropped(d->check); break;
  case API_CHK_CLEAR: chk_clear(d->check); break;
  case API_CHK_JSON:
    o->json = d->check ? chk_findings_json(d->check)
                       : api_strdup("{\n  \"format\": \"lockstep-check/1\",\n  \"findings\": [],\n"
                                    "  \"dropped\": 0\n}\n");
    break;
  case API_CHK_LOGICAL: o->buffer->logical_size = o->bytes; break;
  }
}

/* Runs o on the queue thread and waits; directly when called there (from a
 * callback) or once the queue has stopped (a destroyed device). */
static void api_chk_on_queue(ls_device *d, api_chk_op *o) {
  if (api_timeline_is_queue_thread(d)) {
    api_chk_run(d, o);
    return;
  }
  /* a lost device drops queued work; these still run (the findings of the
   * dispatch that lost it are what a program wants to read) */
  api_timeline_wait(d, api_timeline_push(d, api_chk_run, api_chk_run, o));
}

ls_status ls_device_enable_checks(ls_device *device, int enable, const ls_check_options *opts) {
  if (!device) return LS_VALIDATION;
  ls_check_options o;
  if (!API_DESC(o, opts)) {
    api_validation(device, "enableChecks: %s", API_DESC_NEWER);
    return LS_VALIDATION;
  }
  api_chk_op op = {.kind = API_CHK_ENABLE, .enable = enable, .opts = opts, .status = LS_OK};
  api_chk_on_queue(device, &op);
  return op.status;
}

size_t ls_device_check_finding_count(const ls_device *device) {
  if (!device) return 0;
  api_chk_op op = {.kind = API_CHK_COUNT};
  api_chk_on_queue((ls_device *)device, &op);
  return op.count;
}

const ls_check_finding *ls_device_check_finding(const ls_device *device, size_t index) {
  if (!device) return NULL;
  api_chk_op op = {.kind = API_CHK_FINDING, .index = index};
  api_chk_on_queue((ls_device *)device, &op);
  return op.finding;
}

uint64_t ls_device_check_dropped(const ls_device *device) {
  if (!device) return 0;
  api_chk_op op = {.kind = API_CHK_DROPPED};
  api_chk_on_queue((ls_device *)device, &op);
  return op.dropped;
}

void ls_device_clear_check_findings(ls_device *device) {
  if (!device) return;
  api_chk_op op = {.kind = API_CHK_CLEAR};
  api_chk_on_queue(device, &op);
}

char *ls_device_check_findings_json(const ls_device *device) {
  if (!device) return NULL;
  api_chk_op op = {.kind = API_CHK_JSON};
  api_chk_on_queue((ls_device *)device, &op);
  return op.json;
}

void ls_buffer_set_logical_size(ls_buffer *buffer, uint64_t bytes) {
  if (!buffer) return;
  api_chk_op op = {.kind = API_CHK_LOGICAL, .buffer = buffer, .bytes = bytes};
  api_chk_on_queue(buffer->device, &op);
}

void api_check_free(ls_device *d) {
  chk_destroy(d->check);
  d->check = NULL;
}

void api_check_before_dispatch(ls_device *d, const struct api_cmd *c, const ir_program *prog,
                               const vm_binding *vb, const uint32_t n[3], vm_dispatch_desc *desc) {
  if (!d->check || d->check_off) return;
  chk_slot *slots = calloc(prog->nbindings + 1, sizeof *slots);
  if (!slots) return; /* unchecked rather than not at all */
  for (uint32_t i = 0; i < prog->nbindings; i++) {
    const ir_binding *b = &prog->bindings[i];
    const ls_bind_group *bg = b->group < c->ngroups ? c->groups[b->group] : NULL;
    const api_bind_entry *e = api_bind_group_find(bg, b->binding);
    slots[i].size = vb[i].size;
    slots[i].logical = UINT64_MAX;
    if (vb[i].tex) {
      slots[i].is_texture = 1;
      slots[i].tex = *vb[i].tex;
    }
    if (e && e->buffer) {
      slots[i].buffer_label = e->buffer->label;
      uint64_t l = e->buffer->logical_size;
      /* the logical size counts from the buffer's start, the binding from
       * its offset */
      if (l != UINT64_MAX) slots[i].logical = l > e->offset ? l - e->offset : 0;
    }
  }
  if (chk_dispatch_prepare(d->check, prog, slots, n, d->width, api_pipeline_name(c->pipeline)))
    desc->observer = chk_observer(d->check);
  free(slots);
}

void api_check_after_dispatch(ls_device *d, vm_status st, const vm_result *r) {
  if (d->check && !d->check_off) chk_dispatch_finish(d->check, st, r);
}
