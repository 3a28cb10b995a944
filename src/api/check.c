/*
 * check.c (api) — the sanitizer behind the public API: ls_device_enable_checks
 * and the finding accessors of lockstep.h, the sanitizer's glue to the
 * device's observer list (observe.c: before each dispatch it tells the
 * sanitizer (src/check/) what every binding slot is bound to, after it how
 * the dispatch ended), and the lint of ls_shader_module_lint.
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

ls_status ls_device_enable_checks(ls_device *device, int enable, const ls_check_options *opts) {
  if (!device) return LS_VALIDATION;
  /* detached first (the work that may use it done), so that its options
   * never change under a dispatch */
  if (device->check) {
    api_observer_remove(device, device->check);
    chk_set_options(device->check, opts);
  }
  if (!enable) return LS_OK; /* findings stay readable; only the observing stops */
  if (!device->check) {
    device->check = chk_create(device->threads ? device->threads : 1, opts);
    if (!device->check) return LS_OUT_OF_MEMORY;
  }
  const api_observer o = {.user = device->check, .before = api_check_before,
                          .after = api_check_after};
  return api_observer_add(device, &o) ? LS_OK : LS_OUT_OF_MEMORY;
}

size_t ls_device_check_finding_count(const ls_device *device) {
  return device ? chk_finding_count(device->check) : 0;
}

const ls_check_finding *ls_device_check_finding(const ls_device *device, size_t index) {
  return device ? chk_finding(device->check, index) : NULL;
}

uint64_t ls_device_check_dropped(const ls_device *device) {
  return device ? chk_dropped(device->check) : 0;
}

void ls_device_clear_check_findings(ls_device *device) {
  if (device) chk_clear(device->check);
}

char *ls_device_check_findings_json(const ls_device *device) {
  if (!device) return NULL;
  if (!device->check) {
    const char *empty = "{\n  \"format\": \"lockstep-check/1\",\n  \"findings\": [],\n  \"dropped\": 0\n}\n";
    return api_strdup(empty);
  }
  return chk_findings_json(device->check);
}

void ls_buffer_set_logical_size(ls_buffer *buffer, uint64_t bytes) {
  if (buffer) buffer->logical_size = bytes;
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
