/*
 * observe.c — the observers of a device: any number of them (the
 * sanitizer of check.c, profilers of prof.c, tests) attach to a device and
 * each sees every dispatch.
 *
 * Around each dispatch the queue (queue.c) makes two calls. Before: the
 * binding context is built once (what every binding slot is bound to, its
 * label, range and logical size, the counts, the pipeline), each observer
 * says which VM observer watches (or none), and the VM gets nothing (the
 * plain interpreter: no observer costs nothing), the one that watches, or
 * the device's multiplexer over all of them (vm/observe_mux.h), which
 * gives each exactly what it would see alone. After: each that watched is
 * told how the dispatch ended.
 */
#include <stdlib.h>
#include <string.h>

#include "../vm/observe_mux.h"
#include "api.h"

int api_observer_add(ls_device *d, const api_observer *o) {
  api_observers *ob = &d->observers;
  if (ob->count == ob->cap) {
    size_t cap = ob->cap ? 2 * ob->cap : 4;
    api_observer *l = realloc(ob->list, cap * sizeof *l);
    if (!l) return 0;
    ob->list = l;
    const vm_observer **v = realloc(ob->vms, cap * sizeof *v);
    if (!v) return 0;
    ob->vms = v;
    ob->cap = cap;
  }
  ob->list[ob->count++] = *o;
  return 1;
}

void api_observer_remove(ls_device *d, const void *user) {
  api_observers *ob = &d->observers;
  for (size_t i = 0; i < ob->count; i++) {
    if (ob->list[i].user != user) continue;
    memmove(&ob->list[i], &ob->list[i + 1], (ob->count - i - 1) * sizeof *ob->list);
    ob->count--;
    return;
  }
}

void api_observers_free(ls_device *d) {
  api_observers *ob = &d->observers;
  vm_mux_destroy(ob->mux);
  free(ob->list);
  free(ob->vms);
  free(ob->slots);
  memset(ob, 0, sizeof *ob);
}

/* The binding context of slot i of command c. */
static void api_slot_of(const api_cmd *c, const ir_program *prog, const vm_binding *vb,
                        uint32_t i, api_slot_ctx *s) {
  const ir_binding *b = &prog->bindings[i];
  memset(s, 0, sizeof *s);
  s->decl = b;
  s->vm = &vb[i];
  s->size = vb[i].size;
  s->logical = UINT64_MAX;
  if (b->kind == IR_BIND_IMMEDIATE) return; /* the pass's bytes, in no bind group */
  const ls_bind_group *bg = b->group < c->ngroups ? c->groups[b->group] : NULL;
  const api_bind_entry *e = api_bind_group_find(bg, b->binding);
  if (!e) return;
  if (e->buffer) {
    s->buffer = e->buffer;
    s->label = e->buffer->label;
    s->offset = e->offset;
    /* the logical size counts from the buffer's start, the binding from
     * its offset */
    const uint64_t l = e->buffer->logical_size;
    if (l != UINT64_MAX) s->logical = l > e->offset ? l - e->offset : 0;
  } else if (e->view) {
    s->view = e->view;
    s->label = e->view->texture->label;
  } else if (e->sampler) {
    s->sampler = e->sampler;
    s->label = e->sampler->label;
  }
}

void api_observers_before(ls_device *d, const api_cmd *c, const vm_binding *vb,
                          const uint32_t n[3], vm_dispatch_desc *desc) {
  api_observers *ob = &d->observers;
  desc->observer = NULL;
  if (!ob->count) return;
  const ir_program *prog = c->pipeline->program;
  free(ob->slots);
  ob->slots = prog->nbindings ? calloc(prog->nbindings, sizeof *ob->slots) : NULL;
  if (prog->nbindings && !ob->slots) {
    api_log(d, LS_LOG_WARNING, "dispatch of '%s': out of memory for its observers; it runs "
                               "unobserved", api_pipeline_name(c->pipeline));
    for (size_t i = 0; i < ob->count; i++) ob->vms[i] = NULL;
    return;
  }
  for (uint32_t i = 0; i < prog->nbindings; i++) api_slot_of(c, prog, vb, i, &ob->slots[i]);
  api_dispatch_ctx *x = &ob->ctx;
  memset(x, 0, sizeof *x);
  x->device = d;
  x->pipeline = c->pipeline;
  x->pipeline_name = api_pipeline_name(c->pipeline);
  x->prog = prog;
  memcpy(x->groups, n, sizeof x->groups);
  x->width = d->width;
  x->indirect = c->indirect != NULL;
  x->slots = ob->slots;

  /* the watching ones, in order of attachment, packed at the end of vms */
  const vm_observer *watching[64];
  const vm_observer **w = ob->count <= 64 ? watching : malloc(ob->count * sizeof *w);
  unsigned nw = 0;
  for (size_t i = 0; i < ob->count; i++) {
    const api_observer *o = &ob->list[i];
    ob->vms[i] = o->before ? o->before(o->user, x) : NULL;
    if (ob->vms[i] && w) w[nw++] = ob->vms[i];
  }
  if (nw == 1) {
    desc->observer = w[0];
  } else if (nw > 1) {
    if (!ob->mux) ob->mux = vm_mux_create(d->threads ? d->threads : 1);
    desc->observer = ob->mux ? vm_mux_bind(ob->mux, w, nw) : NULL;
  }
  if (!w || (nw && !desc->observer)) {
    /* every watcher misses this one rather than some */
    api_log(d, LS_LOG_WARNING, "dispatch of '%s': out of memory for its observers; it runs "
                               "unobserved", x->pipeline_name);
    for (size_t i = 0; i < ob->count; i++) ob->vms[i] = NULL;
    desc->observer = NULL;
  }
  if (w != watching) free(w);
}

void api_observers_after(ls_device *d, vm_status *st, const vm_result *r) {
  api_observers *ob = &d->observers;
  if (!ob->count) return;
  size_t nw = 0;
  for (size_t i = 0; i < ob->count; i++) nw += ob->vms[i] != NULL;
  /* the multiplexer's counts are what its children report: incomplete
   * counts are an out-of-memory error, not figures */
  if (nw > 1 && vm_mux_failed(ob->mux) && *st == VM_OK) *st = VM_NO_MEMORY;
  for (size_t i = 0; i < ob->count; i++) {
    const api_observer *o = &ob->list[i];
    if (ob->vms[i] && o->after) o->after(o->user, &ob->ctx, *st, r);
    ob->vms[i] = NULL;
  }
  free(ob->slots);
  ob->slots = NULL;
}
