/*
 * observe_mux.c — the observer multiplexer (observe_mux.h): one
 * vm_observer that hands every event of a dispatch on to several, each
 * child getting what the VM would give it alone.
 *
 * The VM sees an observer that never summarises, so it calls back every
 * event and counts nothing but the per-pc issued / lanes figures (into the
 * multiplexer's arrays). For each child the callbacks below then replay
 * the VM's rules of observe.h: a summarising child outside the workgroups
 * it watches in detail gets its coalesced / uniform counts instead of the
 * requests they stand for, no private-memory, branch or barrier calls, and
 * a subgroup end only when a lane returned; every child with a divergent[]
 * array gets its divergence counts. Callbacks run on the worker threads;
 * everything per thread is indexed by the thread, so no locks.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "observe_mux.h"

/* One child, as read after its dispatch_begin. */
typedef struct mux_child {
  const vm_observer *o;
  int sum;     /* summarise */
  int counted; /* issued and lanes: the per-pc counts go to it */
  int pairs;   /* coalesced and uniform: summarised requests are counted */
  unsigned ck; /* coalesce_log2 */
} mux_child;

struct vm_mux {
  vm_observer obs; /* what the VM sees */
  unsigned threads;
  mux_child *ch;
  unsigned n, cap;
  /* detail[t * cap + k]: child k watches thread t's workgroup in detail */
  uint8_t *detail;
  uint8_t *used; /* [threads]: the thread ran a workgroup of this dispatch */
  /* The VM's per-pc counts, [threads] arrays of capcode entries; NULL in
   * obs when no child counts (the VM then counts into its own). */
  uint64_t **issued, **lanes;
  /* instructions run with no live lane ([threads] arrays as above): the
   * children read them only at the end of the dispatch, so they are added
   * in there and need no catching up */
  uint64_t **empty;
  size_t ncode1, capcode;
  /* sync[k * threads + t]: NULL until child k first watches a workgroup in
   * detail on thread t, then 4 x ncode1 entries: the issued and lanes
   * figures it has been given, and those held back for the end. */
  uint64_t **sync;
  uint32_t ninv;
  atomic_int failed;
};

/* ------------------------------------------------------------ counting */

static uint64_t mux_full(uint32_t w) { return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1; }

static int mux_detail(const vm_mux *m, unsigned t, unsigned k) {
  return m->detail[(size_t)t * m->cap + k];
}

/* Child k would be summarised on thread t's workgroup. */
static int mux_sum(const vm_mux *m, unsigned t, unsigned k) {
  return m->ch[k].sum && !mux_detail(m, t, k);
}

/* Child k watches a workgroup in detail on thread t: alone, its issued /
 * lanes counts would be current at every call, so what the VM counted
 * since k last caught up is added in. */
static void mux_catch_up(vm_mux *m, unsigned k, unsigned t) {
  uint64_t *s = m->sync[(size_t)k * m->threads + t];
  if (!s || !m->obs.issued) return;
  const size_t n = m->ncode1;
  uint64_t *ci = m->ch[k].o->issued[t], *cl = m->ch[k].o->lanes[t];
  const uint64_t *mi = m->issued[t], *ml = m->lanes[t];
  for (size_t pc = 0; pc < n; pc++) {
    ci[pc] += mi[pc] - s[pc];
    s[pc] = mi[pc];
    cl[pc] += ml[pc] - s[n + pc];
    s[n + pc] = ml[pc];
  }
}

/* Child k starts watching a workgroup in detail on thread t. What the VM
 * counted since k last caught up came from workgroups k did not watch,
 * whose counts would reach it alone only at the end of the dispatch: they
 * are held back until then. */
static void mux_open(vm_mux *m, unsigned k, unsigned t) {
  if (!m->obs.issued || !m->ch[k].counted) return;
  const size_t n = m->ncode1;
  uint64_t **sp = &m->sync[(size_t)k * m->threads + t];
  if (!*sp && !(*sp = calloc(4 * n, sizeof **sp))) {
    atomic_store_explicit(&m->failed, 1, memory_order_relaxed);
    return; /* k gets its counts at the end only */
  }
  uint64_t *s = *sp;
  const uint64_t *mi = m->issued[t], *ml = m->lanes[t];
  for (size_t pc = 0; pc < n; pc++) {
    s[2 * n + pc] += mi[pc] - s[pc];
    s[pc] = mi[pc];
    s[3 * n + pc] += ml[pc] - s[n + pc];
    s[n + pc] = ml[pc];
  }
}

/* Before any call to child k on thread t. */
static void mux_live(vm_mux *m, unsigned t, unsigned k) {
  if (mux_detail(m, t, k) && m->ch[k].counted) mux_catch_up(m, k, t);
}

/* A request the VM would have counted for summarising child c instead of
 * calling it (observe.h: a full subgroup's W consecutive aligned words or
 * one word, in bounds, of a 4-byte non-atomic buffer access): counted. */
static int mux_take(const mux_child *c, unsigned t, const vm_mem_event *e) {
  const uint32_t w = e->where->width;
  if (e->bytes != 4u || e->space != VM_SPACE_BUFFER || e->access == VM_ATOMIC ||
      e->mask != mux_full(w))
    return 0;
  const uint64_t a0 = e->addr[0];
  if (e->consecutive) {
    if ((a0 & 3) || a0 + 4u * (uint64_t)w > e->size) return 0;
    const uint64_t mask = (UINT64_C(1) << c->ck) - 1;
    c->o->coalesced[t][((size_t)e->pc << c->ck) | ((a0 >> 2) & mask)]++;
    return 1;
  }
  if (e->uniform && a0 + 4 <= e->size) {
    c->o->uniform[t][e->pc]++;
    return 1;
  }
  return 0;
}

/* ----------------------------------------------------------- callbacks */

static void mux_dispatch_begin(void *u, const ir_program *p, const uint32_t groups[3],
                               uint32_t width) {
  vm_mux *m = u;
  atomic_store(&m->failed, 0);
  m->ninv = p->wg_size[0] * p->wg_size[1] * p->wg_size[2];
  m->ncode1 = (size_t)p->ncode + 1;
  int counted = 0;
  for (unsigned k = 0; k < m->n; k++) {
    mux_child *c = &m->ch[k];
    const vm_observer *o = c->o;
    if (o->dispatch_begin) o->dispatch_begin(o->user, p, groups, width);
    c->sum = o->summarise;
    c->counted = o->issued && o->lanes;
    c->pairs = o->coalesced && o->uniform;
    c->ck = o->coalesce_log2;
    counted |= c->counted;
  }
  memset(m->detail, 0, (size_t)m->threads * m->cap);
  memset(m->used, 0, m->threads);
  m->obs.issued = m->obs.lanes = m->obs.empty = NULL;
  if (!counted) return;
  if (m->ncode1 > m->capcode) {
    int ok = 1;
    for (unsigned t = 0; t < m->threads; t++) {
      uint64_t *a = realloc(m->issued[t], m->ncode1 * sizeof *a);
      if (a) m->issued[t] = a;
      uint64_t *b = realloc(m->lanes[t], m->ncode1 * sizeof *b);
      if (b) m->lanes[t] = b;
      uint64_t *e = realloc(m->empty[t], m->ncode1 * sizeof *e);
      if (e) m->empty[t] = e;
      ok = ok && a && b && e;
    }
    if (!ok) {
      atomic_store(&m->failed, 1); /* the counting children get nothing */
      return;
    }
    m->capcode = m->ncode1;
  }
  for (unsigned t = 0; t < m->threads; t++) {
    memset(m->issued[t], 0, m->ncode1 * sizeof(uint64_t));
    memset(m->lanes[t], 0, m->ncode1 * sizeof(uint64_t));
    memset(m->empty[t], 0, m->ncode1 * sizeof(uint64_t));
  }
  m->obs.issued = m->issued;
  m->obs.lanes = m->lanes;
  m->obs.empty = m->empty;
}

static void mux_dispatch_end(void *u) {
  vm_mux *m = u;
  const size_t n = m->ncode1;
  for (unsigned k = 0; k < m->n; k++) {
    const mux_child *c = &m->ch[k];
    for (unsigned t = 0; t < m->threads; t++) {
      uint64_t **sp = &m->sync[(size_t)k * m->threads + t];
      if (c->counted && m->obs.issued && m->used[t]) {
        uint64_t *ci = c->o->issued[t], *cl = c->o->lanes[t];
        const uint64_t *mi = m->issued[t], *ml = m->lanes[t], *s = *sp;
        for (size_t pc = 0; pc < n; pc++) {
          ci[pc] += s ? mi[pc] - s[pc] + s[2 * n + pc] : mi[pc];
          cl[pc] += s ? ml[pc] - s[n + pc] + s[3 * n + pc] : ml[pc];
        }
        if (c->o->empty) {
          uint64_t *ce = c->o->empty[t];
          for (size_t pc = 0; pc < n; pc++) ce[pc] += m->empty[t][pc];
        }
      }
      free(*sp);
      *sp = NULL;
    }
  }
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (o->dispatch_end) o->dispatch_end(o->user);
  }
}

static int mux_group_begin(void *u, unsigned t, const uint32_t g[3]) {
  vm_mux *m = u;
  m->used[t] = 1;
  uint8_t *dt = m->detail + (size_t)t * m->cap;
  int any = 0;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    const int d = o->group_begin ? o->group_begin(o->user, t, g) != 0 : 0;
    dt[k] = (uint8_t)d;
    any |= d;
    if (d) mux_open(m, k, t);
  }
  return any;
}

static void mux_group_end(void *u, unsigned t, const uint32_t g[3]) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    mux_live(m, t, k);
    if (o->group_end) o->group_end(o->user, t, g);
  }
}

static void mux_mem(void *u, unsigned t, const vm_mem_event *e) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const mux_child *c = &m->ch[k];
    if (mux_sum(m, t, k)) {
      if (e->space == VM_SPACE_PRIVATE) continue;
      if (c->pairs && mux_take(c, t, e)) continue;
    }
    if (c->o->mem) {
      mux_live(m, t, k);
      c->o->mem(c->o->user, t, e);
    }
  }
}

static void mux_branch(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t before,
                       uint64_t after) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (o->divergent && o->divergent[t]) o->divergent[t][pc] += after != 0 && after != before;
    if (o->branch && !mux_sum(m, t, k)) {
      mux_live(m, t, k);
      o->branch(o->user, t, w, pc, before, after);
    }
  }
}

static void mux_loop(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (!o->loop) continue;
    mux_live(m, t, k);
    o->loop(o->user, t, w, pc, exec);
  }
}

static void mux_barrier(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec,
                        uint64_t alive) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (!o->barrier || mux_sum(m, t, k)) continue;
    mux_live(m, t, k);
    o->barrier(o->user, t, w, pc, exec, alive);
  }
}

static void mux_release(void *u, unsigned t, const uint32_t g[3], const uint32_t *pcs,
                        uint32_t nsub) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (!o->barrier_release) continue;
    mux_live(m, t, k);
    o->barrier_release(o->user, t, g, pcs, nsub);
  }
}

static void mux_cross_lane(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec,
                           uint64_t inactive) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (!o->cross_lane) continue;
    mux_live(m, t, k);
    o->cross_lane(o->user, t, w, pc, exec, inactive);
  }
}

static void mux_texel(void *u, unsigned t, const vm_texel_event *e) {
  vm_mux *m = u;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (!o->texel) continue;
    mux_live(m, t, k);
    o->texel(o->user, t, e);
  }
}

static void mux_subgroup_end(void *u, unsigned t, const vm_where *w, uint64_t alive,
                             uint64_t wrote) {
  vm_mux *m = u;
  /* the lanes that hold an invocation: summarising, a subgroup all of
   * whose lanes stayed is not reported */
  const uint32_t left = m->ninv - w->subgroup * w->width;
  const uint64_t valid = left >= w->width ? mux_full(w->width) : (UINT64_C(1) << left) - 1;
  for (unsigned k = 0; k < m->n; k++) {
    const vm_observer *o = m->ch[k].o;
    if (!o->subgroup_end || (mux_sum(m, t, k) && !(valid & ~alive))) continue;
    mux_live(m, t, k);
    o->subgroup_end(o->user, t, w, alive, wrote);
  }
}

/* ------------------------------------------------------------ lifetime */

vm_mux *vm_mux_create(unsigned threads) {
  if (threads < 1) threads = 1;
  vm_mux *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->threads = threads;
  m->used = calloc(threads, 1);
  m->issued = calloc(threads, sizeof *m->issued);
  m->lanes = calloc(threads, sizeof *m->lanes);
  m->empty = calloc(threads, sizeof *m->empty);
  if (!m->used || !m->issued || !m->lanes || !m->empty) {
    vm_mux_destroy(m);
    return NULL;
  }
  vm_observer *o = &m->obs;
  o->user = m;
  o->dispatch_begin = mux_dispatch_begin;
  o->dispatch_end = mux_dispatch_end;
  o->group_begin = mux_group_begin;
  o->group_end = mux_group_end;
  o->mem = mux_mem;
  o->branch = mux_branch;
  o->loop = mux_loop;
  o->barrier = mux_barrier;
  o->barrier_release = mux_release;
  o->cross_lane = mux_cross_lane;
  o->texel = mux_texel;
  o->subgroup_end = mux_subgroup_end;
  return m;
}

void vm_mux_destroy(vm_mux *m) {
  if (!m) return;
  for (unsigned t = 0; t < m->threads; t++) {
    if (m->issued) free(m->issued[t]);
    if (m->lanes) free(m->lanes[t]);
    if (m->empty) free(m->empty[t]);
  }
  for (size_t i = 0; m->sync && i < (size_t)m->cap * m->threads; i++) free(m->sync[i]);
  free(m->sync);
  free(m->issued);
  free(m->lanes);
  free(m->empty);
  free(m->used);
  free(m->detail);
  free(m->ch);
  free(m);
}

const vm_observer *vm_mux_bind(vm_mux *m, const vm_observer *const *children, unsigned n) {
  if (!m || (n && !children)) return NULL;
  if (n > m->cap) {
    /* each array grown on its own; cap moves only when all are */
    const size_t th = m->threads;
    uint64_t **s = realloc(m->sync, n * th * sizeof *s);
    if (!s) return NULL;
    memset(s + m->cap * th, 0, (n - m->cap) * th * sizeof *s);
    m->sync = s;
    uint8_t *d = realloc(m->detail, n * th);
    if (!d) return NULL;
    m->detail = d;
    mux_child *c = realloc(m->ch, n * sizeof *c);
    if (!c) return NULL;
    m->ch = c;
    m->cap = n;
  }
  m->n = n;
  m->obs.serial = 0;
  for (unsigned k = 0; k < n; k++) {
    memset(&m->ch[k], 0, sizeof m->ch[k]);
    m->ch[k].o = children[k];
    m->obs.serial |= children[k]->serial;
  }
  return &m->obs;
}

int vm_mux_failed(const vm_mux *m) { return m && atomic_load(&m->failed); }
