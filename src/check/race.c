/*
 * race.c — the sanitizer's data-race detector: shadow state for every word
 * a dispatch touches, fed by check.c's memory callback.
 *
 * Two layers, because two kinds of ordering exist:
 *
 * - Within a workgroup: accesses are ordered only by barriers. Each worker
 *   thread runs whole workgroups, so it keeps a cell per word (an array for
 *   workgroup memory, an open-addressing table for storage words) holding the
 *   accesses of the current barrier interval: the last writer, its value, and
 *   up to two distinct readers. A cell is valid only while its stamp equals
 *   the thread's current stamp; a barrier or a new workgroup bumps the stamp,
 *   which empties every cell at once.
 *
 * - Between workgroups of one dispatch: nothing orders them, so every
 *   writable storage word has one 64-bit atomic entry for the whole dispatch
 *   (writer workgroup, reader workgroup, "readers from several workgroups"),
 *   updated with compare-and-swap, plus relaxed side words naming the
 *   accesses for the report.
 *
 * A race exists iff two accesses from different invocations, at least one a
 * write, meet in the same interval (same workgroup) or in the dispatch
 * (different workgroups). Each layer keeps enough to see any such pair
 * whichever access comes first (a second reader is kept for the case
 * "read by A, read by B, write by A"), so whether a race is found does not
 * depend on the order the VM ran subgroups or workgroups in. Atomic
 * accesses never race (WGSL reaches atomic<T> only through the atomic
 * built-ins) and are not tracked.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The accesses to one word in the current interval of one workgroup. */
typedef struct chk_cell {
  uint32_t stamp;
  uint32_t wpc, wval;
  uint32_t rpc, rpc2;
  uint16_t wli, rli, rli2; /* local index + 1; 0 = none */
} chk_cell;

typedef struct chk_hcell {
  uint64_t key; /* slot << 40 | word */
  chk_cell c;
} chk_hcell;

#define CHK_HASH_MAX ((size_t)1 << 21) /* storage words per interval tracked */

typedef struct chk_rthread {
  uint32_t wg_stamp, st_stamp;
  chk_cell *wg;
  size_t nwg;
  chk_hcell *h;
  size_t hcap, hcount;
  uint32_t hstamp; /* the stamp hcount counts */
  char pad[64];
} chk_rthread;

/* Cross-workgroup shadow of one writable storage slot. */
typedef struct chk_shadow {
  _Atomic uint64_t *ent;  /* writer group + 1 << 32 | reader group + 1 << 1 | several */
  _Atomic uint32_t *winfo, *rinfo; /* pc << 11 | local index */
  _Atomic uint32_t *wval;
  uint64_t words;
} chk_shadow;

struct chk_race {
  unsigned nthreads;
  chk_rthread *th;
  const ir_program *prog;
  chk_shadow *sh;
  uint32_t nsh;
};

chk_race *chk_race_create(unsigned threads) {
  chk_race *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->nthreads = threads;
  r->th = calloc(threads, sizeof *r->th);
  if (!r->th) {
    free(r);
    return NULL;
  }
  return r;
}

static void chk_shadow_free(chk_race *r) {
  for (uint32_t i = 0; i < r->nsh; i++) {
    free((void *)r->sh[i].ent);
    free((void *)r->sh[i].winfo);
    free((void *)r->sh[i].rinfo);
    free((void *)r->sh[i].wval);
  }
  free(r->sh);
  r->sh = NULL;
  r->nsh = 0;
}

void chk_race_destroy(chk_race *r) {
  if (!r) return;
  chk_shadow_free(r);
  for (unsigned t = 0; t < r->nthreads; t++) {
    free(r->th[t].wg);
    free(r->th[t].h);
  }
  free(r->th);
  free(r);
}

int chk_race_begin(chk_race *r, const ir_program *prog, const uint64_t *sizes, uint32_t nslots,
                   uint64_t cap_bytes) {
  chk_shadow_free(r);
  r->prog = prog;
  r->sh = calloc(nslots + 1, sizeof *r->sh);
  if (!r->sh) return 0;
  r->nsh = nslots;
  uint64_t used = 0;
  int ok = 1;
  for (uint32_t i = 0; i < nslots; i++) {
    uint64_t words = sizes[i] / 4;
    if (!words) continue;
    if (used + words * 20 > cap_bytes) {
      ok = 0; /* too large to shadow: this slot's cross-workgroup races go unseen */
      continue;
    }
    chk_shadow *s = &r->sh[i];
    /* calloc: fresh zero pages, touched only where the dispatch goes */
    s->ent = calloc(words, sizeof *s->ent);
    s->winfo = calloc(words, sizeof *s->winfo);
    s->rinfo = calloc(words, sizeof *s->rinfo);
    s->wval = calloc(words, sizeof *s->wval);
    if (!s->ent || !s->winfo || !s->rinfo || !s->wval) {
      free((void *)s->ent);
      free((void *)s->winfo);
      free((void *)s->rinfo);
      free((void *)s->wval);
      memset(s, 0, sizeof *s);
      ok = 0;
      continue;
    }
    s->words = words;
    used += words * 20;
  }
  return ok;
}

void chk_race_end(chk_race *r) { chk_shadow_free(r); }

/* A new stamp; on wrap-around every cell is cleared so no stale one looks
 * current. */
static uint32_t chk_bump(uint32_t *stamp, chk_rthread *t, int wg) {
  if (++*stamp == 0) {
    if (wg && t->wg) memset(t->wg, 0, t->nwg * sizeof *t->wg);
    if (!wg && t->h) memset(t->h, 0, t->hcap * sizeof *t->h);
    *stamp = 1;
  }
  return *stamp;
}

void chk_race_group(chk_race *r, unsigned thread) {
  if (thread >= r->nthreads) return;
  chk_rthread *t = &r->th[thread];
  chk_bump(&t->wg_stamp, t, 1);
  chk_bump(&t->st_stamp, t, 0);
}

void chk_race_barrier(chk_race *r, unsigned thread, int orders_workgroup, int orders_storage) {
  if (thread >= r->nthreads) return;
  chk_rthread *t = &r->th[thread];
  if (orders_workgroup) chk_bump(&t->wg_stamp, t, 1);
  if (orders_storage) chk_bump(&t->st_stamp, t, 0);
}

static uint64_t chk_hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  return k;
}

/* The storage cell of key in the current interval; NULL when the table is
 * at its limit (the word is then not tracked within the workgroup). */
static chk_cell *chk_hget(chk_rthread *t, uint64_t key) {
  if (t->hstamp != t->st_stamp) {
    t->hstamp = t->st_stamp;
    t->hcount = 0;
  }
  if (t->hcap == 0 || (t->hcount + 1) * 2 > t->hcap) {
    size_t nc = t->hcap ? t->hcap * 2 : 1024;
    if (nc > CHK_HASH_MAX * 2 && t->hcap) {
      /* full: look the key up, do not insert */
      nc = 0;
    }
    if (nc) {
      chk_hcell *n = calloc(nc, sizeof *n);
      if (n) {
        for (size_t i = 0; i < t->hcap; i++) {
          if (t->h[i].c.stamp != t->st_stamp) continue;
          size_t j = chk_hash(t->h[i].key) & (nc - 1);
          while (n[j].c.stamp == t->st_stamp) j = (j + 1) & (nc - 1);
          n[j] = t->h[i];
        }
        free(t->h);
        t->h = n;
        t->hcap = nc;
      } else if (!t->hcap) {
        return NULL;
      }
    }
  }
  size_t mask = t->hcap - 1;
  size_t j = chk_hash(key) & mask;
  for (size_t probes = 0; probes < t->hcap; probes++, j = (j + 1) & mask) {
    chk_hcell *h = &t->h[j];
    if (h->c.stamp != t->st_stamp) {
      if ((t->hcount + 1) * 2 > t->hcap) return NULL;
      memset(h, 0, sizeof *h);
      h->key = key;
      h->c.stamp = t->st_stamp;
      t->hcount++;
      return &h->c;
    }
    if (h->key == key) return &h->c;
  }
  return NULL;
}

typedef void (*chk_report_fn)(void *user, unsigned thread, const chk_race_hit *h);

/* One lane's access against its cell in the current interval. */
static void chk_cell_access(chk_cell *c, uint32_t stamp, const vm_mem_event *e, unsigned lane,
                            chk_inv inv, uint64_t group_base, uint32_t slot, uint64_t offset,
                            chk_report_fn report, void *user, unsigned thread) {
  if (c->stamp != stamp) {
    memset(c, 0, sizeof *c);
    c->stamp = stamp;
  }
  uint16_t me = (uint16_t)(inv - group_base + 1);
  chk_race_hit h;
  memset(&h, 0, sizeof h);
  h.space = e->space;
  h.slot = slot;
  h.offset = offset;
  h.pc = e->pc;
  h.access = e->access;
  h.inv = inv;
  if (e->access == VM_STORE) {
    uint32_t v = e->value[lane];
    if (c->wli && c->wli != me) {
      h.same_value = c->wval == v;
      h.other_pc = c->wpc;
      h.other_access = VM_STORE;
      h.other_inv = group_base + c->wli - 1;
      report(user, thread, &h);
    }
    uint16_t other = c->rli && c->rli != me ? c->rli : c->rli2 && c->rli2 != me ? c->rli2 : 0;
    if (other) {
      h.same_value = 0;
      h.other_pc = other == c->rli ? c->rpc : c->rpc2;
      h.other_access = VM_LOAD;
      h.other_inv = group_base + other - 1;
      report(user, thread, &h);
    }
    c->wli = me;
    c->wpc = e->pc;
    c->wval = v;
  } else {
    if (c->wli && c->wli != me) {
      h.other_pc = c->wpc;
      h.other_access = VM_STORE;
      h.other_inv = group_base + c->wli - 1;
      report(user, thread, &h);
    }
    if (!c->rli) {
      c->rli = me;
      c->rpc = e->pc;
    } else if (c->rli != me && !c->rli2) {
      c->rli2 = me;
      c->rpc2 = e->pc;
    }
  }
}

/* One lane's access against the dispatch-wide entry of a storage word. */
static void chk_cross_access(chk_shadow *s, uint64_t w, const vm_mem_event *e, unsigned lane,
                             chk_inv inv, uint64_t group_linear, uint32_t slot,
                             chk_report_fn report, void *user, unsigned thread) {
  if (group_linear >= 0x7FFFFFFEu) return; /* beyond what an entry can name */
  uint64_t g1 = group_linear + 1;
  uint32_t info = (e->pc << 11) | (uint32_t)(inv % 2048);
  _Atomic uint64_t *ent = &s->ent[w];
  uint64_t old = atomic_load_explicit(ent, memory_order_acquire);
  chk_race_hit h;
  memset(&h, 0, sizeof h);
  h.space = e->space;
  h.slot = slot;
  h.offset = w * 4;
  h.pc = e->pc;
  h.access = e->access;
  h.inv = inv;
  h.across_groups = 1;
  if (e->access == VM_STORE) {
    uint64_t nw;
    do {
      nw = (g1 << 32) | (old & 0xFFFFFFFFu);
      if (nw == old) break;
    } while (!atomic_compare_exchange_weak(ent, &old, nw));
    uint64_t ow = old >> 32, orr = (old >> 1) & 0x7FFFFFFFu;
    uint32_t v = e->value[lane];
    if (ow && ow != g1) {
      uint32_t wi = atomic_load_explicit(&s->winfo[w], memory_order_relaxed);
      h.same_value = atomic_load_explicit(&s->wval[w], memory_order_relaxed) == v;
      h.other_pc = wi >> 11;
      h.other_access = VM_STORE;
      h.other_inv = (ow - 1) * 2048 + (wi & 2047);
      report(user, thread, &h);
    }
    if ((orr && orr != g1) || (old & 1)) {
      uint32_t ri = atomic_load_explicit(&s->rinfo[w], memory_order_relaxed);
      h.same_value = 0;
      h.other_pc = ri >> 11;
      h.other_access = VM_LOAD;
      h.other_inv = (orr && orr != g1 ? orr - 1 : group_linear) * 2048 + (ri & 2047);
      report(user, thread, &h);
    }
    atomic_store_explicit(&s->winfo[w], info, memory_order_relaxed);
    atomic_store_explicit(&s->wval[w], v, memory_order_relaxed);
  } else {
    uint64_t nw;
    int set = 0;
    do {
      uint64_t orr = (old >> 1) & 0x7FFFFFFFu;
      set = 0;
      if (!orr) {
        nw = old | (g1 << 1);
        set = 1;
      } else if (orr != g1 && !(old & 1))
        nw = old | 1;
      else
        break;
    } while (!atomic_compare_exchange_weak(ent, &old, nw));
    if (set) atomic_store_explicit(&s->rinfo[w], info, memory_order_relaxed);
    uint64_t ow = old >> 32;
    if (ow && ow != g1) {
      uint32_t wi = atomic_load_explicit(&s->winfo[w], memory_order_relaxed);
      h.other_pc = wi >> 11;
      h.other_access = VM_STORE;
      h.other_inv = (ow - 1) * 2048 + (wi & 2047);
      report(user, thread, &h);
    }
  }
}

void chk_race_access(chk_race *r, unsigned thread, const vm_mem_event *e, uint64_t group_linear,
                     uint64_t inbounds, chk_report_fn report, void *user) {
  if (thread >= r->nthreads || e->access == VM_ATOMIC) return;
  chk_rthread *t = &r->th[thread];
  const vm_where *wh = e->where;
  uint64_t group_base = group_linear * 2048;
  chk_inv sub_base = group_base + (uint64_t)wh->subgroup * wh->width;
  if (e->space == VM_SPACE_WORKGROUP) {
    const ir_program *p = r->prog;
    size_t need = p ? p->wg_mem_size / 4 : 0;
    if (t->nwg < need) {
      chk_cell *n = calloc(need, sizeof *n);
      if (!n) return;
      free(t->wg);
      t->wg = n;
      t->nwg = need;
    }
    uint32_t slot = p && e->pc < p->ncode ? p->code[e->pc].flags : 0;
    for (uint64_t m = inbounds; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctzll(m);
      uint64_t w = e->addr[l] / 4;
      if (w >= t->nwg) continue;
      chk_cell_access(&t->wg[w], t->wg_stamp, e, l, sub_base + l, group_base, slot,
                      e->addr[l], report, user, thread);
    }
    return;
  }
  if (e->space != VM_SPACE_BUFFER || !r->prog || e->slot >= r->nsh) return;
  if (r->prog->bindings[e->slot].kind != IR_BIND_STORAGE) return; /* read-only: no race */
  chk_shadow *s = &r->sh[e->slot];
  for (uint64_t m = inbounds; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctzll(m);
    uint64_t w = e->addr[l] / 4;
    chk_cell *c = chk_hget(t, ((uint64_t)e->slot << 40) | w);
    if (c)
      chk_cell_access(c, t->st_stamp, e, l, sub_base + l, group_base, e->slot, e->addr[l],
                      report, user, thread);
    if (s->ent && w < s->words)
      chk_cross_access(s, w, e, l, sub_base + l, group_linear, e->slot, report, user, thread);
  }
}
