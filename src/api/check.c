/*
 * check.c (api) — the sanitizer behind the public API: ls_device_enable_checks
 * and the finding accessors of lockstep.h, the sanitizer's glue to the
 * device's observer list (observe.c: before each dispatch it tells the
 * sanitizer (src/check/) what every binding slot is bound to, after it how
 * the dispatch ended), and the lint of ls_shader_module_lint. The finding
 * accessors, clear and the logical size run on the queue thread, which adds
 * the findings, as queue operations the caller waits for.
 */
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"
#include "api.h"

static const vm_observer *api_check_before(void *user, const api_dispatch_ctx *x) {
  chk_state *s = user;
  const uint32_t n = x->prog->nbindings;
  chk_slot *slots = calloc(n + 1, sizeof *slots);
  if (!slots) return NULL; /* unchecked rather than not at all */
  for (uint32_t i = 0; i < n; i++) {
    const api_slot_ctx *b = &x->slots[i];
    slots[i].buffer_label = b->buffer ? b->label : NULL;
    slots[i].size = b->size;
    slots[i].logical = b->logical;
    if (b->vm->tex) {
      slots[i].is_texture = 1;
      slots[i].tex = *b->vm->tex;
    }
  }
  const int ok = chk_dispatch_prepare(s, x->prog, slots, x->groups, x->width, x->pipeline_name);
  free(slots);
  return ok ? chk_observer(s) : NULL;
}

static void api_check_after(void *user, const api_dispatch_ctx *x, vm_status st,
                            const vm_result *r) {
  (void)x;
  chk_dispatch_finish(user, st, r);
}

/* The findings are added on the queue thread, as dispatches run: the calls
 * that read or clear them (and the logical size, which the binding context
 * of the next dispatch reads there) run there too, as a queue operation the
 * caller waits for, so that they see exactly the work queued before them. */
typedef enum { API_CHK_COUNT, API_CHK_FINDING, API_CHK_DROPPED, API_CHK_CLEAR, API_CHK_JSON,
               API_CHK_LOGICAL } api_chk_kind;

typedef struct api_chk_op {
  api_chk_kind kind;
  size_t index;
  ls_buffer *buffer;
  uint64_t bytes;
  /* results */
  size_t count;
  uint64_t dropped;
  const ls_check_finding *finding;
  char *json;
} api_chk_op;

static void api_chk_run(ls_device *d, void *arg) {
  api_chk_op *o = arg;
  API_LOCK(d);
  chk_state *s = d->check; /* set once, under the lock, by enableChecks */
  API_UNLOCK(d);
  switch (o->kind) {
  case API_CHK_COUNT: o->count = chk_finding_count(s); break;
  case API_CHK_FINDING: o->finding = chk_finding(s, o->index); break;
  case API_CHK_DROPPED: o->dropped = chk_dropped(s); break;
  case API_CHK_CLEAR: chk_clear(s); break;
  case API_CHK_JSON:
    o->json = s ? chk_findings_json(s)
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
  ls_check_options shape;
  if (!API_DESC(shape, opts)) {
    api_validation(device, "enableChecks: %s", API_DESC_NEWER);
    return LS_VALIDATION;
  }
  /* detached first (the work that may use it done), so that its options
   * never change under a dispatch */
  if (device->check) {
    api_observer_remove(device, device->check);
    chk_set_options(device->check, opts);
  }
  if (!enable) return LS_OK; /* findings stay readable; only the observing stops */
  if (!device->check) {
    chk_state *s = chk_create(device->threads ? device->threads : 1, opts);
    if (!s) return LS_OUT_OF_MEMORY;
    API_LOCK(device);
    device->check = s;
    API_UNLOCK(device);
  }
  const api_observer o = {.user = device->check, .before = api_check_before,
                          .after = api_check_after};
  return api_observer_add(device, &o) ? LS_OK : LS_OUT_OF_MEMORY;
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

int ls_shader_module_lint(const ls_shader_module *m, const char *file, char **text) {
  if (text) *text = NULL;
  if (!m || !m->module || !m->valid) return 0;
  chk_lint l;
  memset(&l, 0, sizeof l);
  const int n = chk_lint_module(m->module, &l);
  if (n > 0 && text) {
    size_t len = 0;
    const char *src = wgsl_module_source(m->module, &len);
    *text = chk_lint_format(&l, src, len, file ? file : api_label(m->label, "shader.wgsl"));
  }
  chk_lint_free(&l);
  return n > 0 ? n : 0;
}
