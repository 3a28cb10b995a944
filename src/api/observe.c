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
 *
 * Threads: the list is the device's (its mutex), and the dispatch works on
 * a copy taken as it begins, on the queue thread. Attaching waits for the
 * work queued before it, detaching for the work that may have taken the
 * observer in, so an observer sees exactly the dispatches queued while it
 * is attached and may be freed once detached.
 */
#include <stdlib.h>
#include <string.h>

#include "../vm/observe_mux.h"
#include "api.h"

/* The sequence number of the last op queued so far. */
static uint64_t api_queued_last(ls_device *d) {
  API_LOCK(d);
  const uint64_t seq = d->qissued;
  API_UNLOCK(d);
  return seq;
}

int api_observer_add(ls_device *d, const api_observer *o) {
  /* work queued before the attach is not this observer's (on the queue
   * thread itself, from a callback, nothing is waited for) */
  api_timeline_wait(d, api_queued_last(d));
  api_observers *ob = &d->observers;
  int ok = 1;
  API_LOCK(d);
  if (ob->count == ob->cap) {
    size_t cap = ob->cap ? 2 * ob->cap : 4;
    api_observer *l = realloc(ob->list, cap * sizeof *l);
    if (l) {
      ob->list = l;
      ob->cap = cap;
    }
    ok = l != NULL;
  }
  if (ok) {
    ob->list[ob->count++] = *o;
    atomic_store(&ob->attached, ob->count);
  }
  API_UNLOCK(d);
  return ok;
}

void api_observer_remove(ls_device *d, const void *user) {
  api_observers *ob = &d->observers;
  API_LOCK(d);
  for (size_t i = 0; i < ob->count; i++) {
    if (ob->list[i].user != user) continue;
    memmove(&ob->list[i], &ob->list[i + 1], (ob->count - i - 1) * sizeof *ob->list);
    ob->count--;
    break;
  }
  atomic_store(&ob->attached, ob->count);
  const uint64_t seq = d->qissued;
  API_UNLOCK(d);
  /* a dispatch that took it in before the removal may still be running */
  api_timeline_wait(d, seq);
}

void api_observers_free(ls_device *d) {
  api_observers *ob = &d->observers;
  vm_mux_destroy(ob->mux);
  free(ob->list);
  free(ob->snap);
  free(ob->vms);
  free(ob->slots);
  memset(ob, 0, sizeof *ob);
}

/* The list as this dispatch begins, into ob->snap; 0 when memory runs out. */
static int api_observers_take(ls_device *d) {
  api_observers *ob = &d->observers;
  int ok = 1;
  API_LOCK(d);
  if (ob->count > ob->capsnap) {
    api_observer *s = realloc(ob->snap, ob->count * sizeof *s);
    if (s) ob->snap = s;
    const vm_observer **v = realloc(ob->vms, ob->count * sizeof *v);
    if (v) ob->vms = v;
    ok = s && v;
    if (ok) ob->capsnap = ob->count;
  }
  ob->nsnap = ok ? ob->count : 0;
  if (ob->nsnap) memcpy(ob->snap, ob->list, ob->nsnap * sizeof *ob->snap);
  API_UNLOCK(d);
  return ok;
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
  ob->nsnap = 0;
  if (!atomic_load_explicit(&ob->attached, memory_order_relaxed)) return;
  const ir_program *prog = c->pipeline->program;
  free(ob->slots);
  ob->slots = prog->nbindings ? calloc(prog->nbindings, sizeof *ob->slots) : NULL;
  if (!api_observers_take(d) || (prog->nbindings && !ob->slots)) {
    ob->nsnap = 0;
    api_log(d, LS_LOG_WARNING, "dispatch of '%s': out of memory for its observers; it runs "
                               "unobserved", api_pipeline_name(c->pipeline));
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

  /* the watching ones, in order of attachment */
  const vm_observer *watching[64];
  const vm_observer **w = ob->nsnap <= 64 ? watching : malloc(ob->nsnap * sizeof *w);
  unsigned nw = 0;
  for (size_t i = 0; i < ob->nsnap; i++) {
    const api_observer *o = &ob->snap[i];
    ob->vms[i] = o->before ? o->before(o->user, x) : NULL;
    if (ob->vms[i] && w) w[nw++] = ob->vms[i];
  }
  if (nw == 1) {
    desc->observer = w[0];
  } else if (nw > 1) {
    if (!ob->mux) ob->mux = vm_mux_create(d->threads ? d->threads : 1);
    desc->observer = ob->mux ? vm_mux_bind(ob->mux, w, nw) : NULL;
  }
  if (w != watching) free(w);
  if (!w || (nw && !desc->observer)) {
    /* every watcher misses this one rather than some */
    for (size_t i = 0; i < ob->nsnap; i++) ob->vms[i] = NULL;
    desc->observer = NULL;
    api_log(d, LS_LOG_WARNING, "dispatch of '%s': out of memory for its observers; it runs "
                               "unobserved", x->pipeline_name);
  }
}

void api_observers_after(ls_device *d, vm_status *st, const vm_result *r) {
  api_observers *ob = &d->observers;
  size_t nw = 0;
  for (size_t i = 0; i < ob->nsnap; i++) nw += ob->vms[i] != NULL;
  /* the multiplexer's counts are what its children report: incomplete
   * counts are an out-of-memory error, not figures */
  if (nw > 1 && vm_mux_failed(ob->mux) && *st == VM_OK) *st = VM_NO_MEMORY;
  for (size_t i = 0; i < ob->nsnap; i++) {
    const api_observer *o = &ob->snap[i];
    if (ob->vms[i] && o->after) o->after(o->user, &ob->ctx, *st, r);
    ob->vms[i] = NULL;
  }
  ob->nsnap = 0;
  free(ob->slots);
  ob->slots = NULL;
}
