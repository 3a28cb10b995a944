/*
 * check.c (api) — the sanitizer behind the public API: ls_device_enable_checks
 * and the finding accessors of lockstep.h, and the two calls the queue makes
 * around each dispatch (queue.c) so that the sanitizer (src/check/) knows
 * what every binding slot is bound to and sees how the dispatch ended.
 */
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"
#include "api.h"

ls_status ls_device_enable_checks(ls_device *device, int enable, const ls_check_options *opts) {
  if (!device) return LS_VALIDATION;
  ls_check_options o;
  if (!API_DESC(o, opts)) {
    api_validation(device, "enableChecks: %s", API_DESC_NEWER);
    return LS_VALIDATION;
  }
  if (!enable) {
    /* findings stay readable; only the observing stops */
    if (device->check) chk_set_options(device->check, opts);
    device->check_off = 1;
    return LS_OK;
  }
  if (!device->check) {
    device->check = chk_create(device->threads ? device->threads : 1, opts);
    if (!device->check) return LS_OUT_OF_MEMORY;
  } else {
    chk_set_options(device->check, opts);
  }
  device->check_off = 0;
  return LS_OK;
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
