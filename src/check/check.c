/*
 * check.c — the sanitizer's observer: what the VM reports about a dispatch
 * (observe.h) becomes findings with the WGSL position (check.h).
 *
 * Each worker thread collects into its own table of records, one record per
 * (kind, pc, ...) key with a count and the first offending invocations; the
 * tables are merged when the dispatch ends. "First" means lowest global
 * linear invocation, not first seen, so that what is reported does not
 * depend on how workgroups were spread over threads.
 *
 * Bounds: every lane of every access is compared with the size the VM
 * checked it against and with the binding's logical size. Barriers: a
 * barrier reached with lanes missing (returned or in the other branch), or
 * released while subgroups wait at different barriers or have ended.
 * Runaway: the last loop back edge each thread saw names the loop and an
 * invocation still inside it. Races: race.c; storage textures go to a
 * detector of their own (a word per texel), since only textureBarrier
 * orders texel accesses within a workgroup.
 */
#include "check.h"
#include "../util/bitfn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHK_MAX_THREADS_REC 4096 /* records per thread before counting only */

/* One finding under construction. */
typedef struct chk_rec {
  ls_check_kind kind;
  uint32_t pc, pc2;         /* pc2: race the other access; barrier where others wait */
  uint32_t space, slot;
  uint32_t access, access2;
  int across;               /* race between workgroups */
  uint64_t count;
  uint64_t returned, elsewhere; /* barrier: invocations that returned / wait elsewhere */
  uint32_t wait_pc;         /* barrier: pc + 1 of another barrier others wait at; 0 none */
  uint64_t offset;          /* of the first invocation's access */
  chk_inv inv[LS_CHECK_MAX_INVOCATIONS];
  uint32_t ninv;
  chk_inv other;            /* race: the other invocation of the first pair;
                               barrier: the first invocation that reached it */
  int has_other;
  uint32_t texel[4];        /* texel out of bounds: the first invocation's x, y, z, level */
} chk_rec;

typedef struct chk_thread {
  chk_rec *recs;
  size_t nrecs, cap;
  uint64_t dropped;
  /* the last loop back edge taken: for runaway shaders */
  int has_loop;
  uint32_t loop_pc;
  uint32_t loop_group[3];
  uint32_t loop_subgroup;
  uint64_t loop_exec;
  char pad[64];
} chk_thread;

struct chk_state {
  ls_check_options opts;
  unsigned nthreads;
  chk_thread *threads;
  vm_observer obs;
  chk_race *race;
  chk_race *race16; /* 2-byte (f16) accesses, chk_race_halves */
  chk_race *race_tex; /* storage textures: one word per texel (chk_texel_race) */
  /* the dispatch */
  const ir_program *prog;
  uint8_t *orders; /* per pc: what a barrier there orders (chk_barrier_kind's
                      CHK_ORDERS_* bits), worked out once per dispatch */
  chk_slot *slots;
  uint32_t nslots;
  uint64_t *unchecked; /* per slot: the shadow bytes a race detector could not
                          have (its cross-workgroup races go unseen); 0 = checked */
  uint64_t *quiet;     /* per slot: loads below this many bytes have nothing
                          to find (vm_observer.quiet_loads) */
  uint32_t groups[3];
  uint32_t width;
  uint32_t wg_invocations;
  char *pipeline;
  uint32_t dispatch_index;
  int active;
  /* findings */
  ls_check_finding **findings; /* each its own allocation: what chk_finding
                                * returns stays put as more are added */
  size_t nfindings, capfindings;
  uint64_t dropped;
};

/* ------------------------------------------------------------- helpers */

static uint64_t chk_group_linear(const chk_state *s, const uint32_t g[3]) {
  return (uint64_t)g[0] + (uint64_t)s->groups[0] * ((uint64_t)g[1] + (uint64_t)s->groups[1] * g[2]);
}

static chk_inv chk_key(const chk_state *s, const vm_where *w, unsigned lane) {
  return chk_group_linear(s, w->group) * 2048 + (uint64_t)w->subgroup * w->width + lane;
}

static void chk_inv_ids(const chk_state *s, chk_inv k, ls_check_invocation *out) {
  uint64_t lin = k / 2048;
  uint32_t li = (uint32_t)(k % 2048);
  const uint32_t *ws = s->prog->wg_size;
  uint32_t g[3];
  g[0] = (uint32_t)(lin % s->groups[0]);
  g[1] = (uint32_t)(lin / s->groups[0] % s->groups[1]);
  g[2] = (uint32_t)(lin / s->groups[0] / s->groups[1]);
  out->local_index = li;
  out->local_id[0] = li % ws[0];
  out->local_id[1] = li / ws[0] % ws[1];
  out->local_id[2] = li / (ws[0] * ws[1]);
  for (int i = 0; i < 3; i++) {
    out->workgroup_id[i] = g[i];
    out->global_id[i] = g[i] * ws[i] + out->local_id[i];
  }
}

static int chk_popcount(uint64_t m) { return (int)bitfn_popcount64(m); }

static unsigned chk_ctz(uint64_t m) { return (unsigned)__builtin_ctzll(m); }

/* Live lanes of subgroup sub: the last subgroup of a workgroup may be short. */
static uint64_t chk_live(const chk_state *s, uint32_t sub, uint32_t width) {
  uint64_t first = (uint64_t)sub * width;
  uint64_t n = s->wg_invocations > first ? s->wg_invocations - first : 0;
  if (n >= width) return width == 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
  return ((uint64_t)1 << n) - 1;
}

static chk_thread *chk_th(chk_state *s, unsigned t) {
  return t < s->nthreads ? &s->threads[t] : NULL;
}

/* The record with this key, created when new; NULL when the table is full. */
static chk_rec *chk_find(chk_thread *th, ls_check_kind kind, uint32_t pc, uint32_t pc2,
                         uint32_t space, uint32_t slot, uint32_t access, uint32_t access2) {
  for (size_t i = 0; i < th->nrecs; i++) {
    chk_rec *r = &th->recs[i];
    if (r->kind == kind && r->pc == pc && r->pc2 == pc2 && r->space == space && r->slot == slot &&
        r->access == access && r->access2 == access2)
      return r;
  }
  if (th->nrecs == th->cap) {
    if (th->cap >= CHK_MAX_THREADS_REC) return NULL;
    size_t nc = th->cap ? th->cap * 2 : 16;
    chk_rec *n = realloc(th->recs, nc * sizeof *n);
    if (!n) return NULL;
    th->recs = n;
    th->cap = nc;
  }
  chk_rec *r = &th->recs[th->nrecs++];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->pc = pc;
  r->pc2 = pc2;
  r->space = space;
  r->slot = slot;
  r->access = access;
  r->access2 = access2;
  r->offset = UINT64_MAX;
  return r;
}

/* Keeps the LS_CHECK_MAX_INVOCATIONS lowest keys; returns 1 when k became
 * the lowest. */
static int chk_offer(chk_rec *r, chk_inv k) {
  uint32_t n = r->ninv;
  for (uint32_t i = 0; i < n; i++)
    if (r->inv[i] == k) return 0;
  if (n == LS_CHECK_MAX_INVOCATIONS && k > r->inv[n - 1]) return 0;
  uint32_t at = n < LS_CHECK_MAX_INVOCATIONS ? n : n - 1;
  while (at > 0 && r->inv[at - 1] > k) {
    r->inv[at] = r->inv[at - 1];
    at--;
  }
  r->inv[at] = k;
  if (n < LS_CHECK_MAX_INVOCATIONS) r->ninv++;
  return at == 0;
}

/* ----------------------------------------------------------- callbacks */

static void chk_on_dispatch_begin(void *user, const ir_program *prog, const uint32_t groups[3],
                                  uint32_t width) {
  (void)user;
  (void)prog;
  (void)groups;
  (void)width;
}

static void chk_on_dispatch_end(void *user) { (void)user; }

static int chk_on_group_begin(void *user, unsigned thread, const uint32_t group[3]) {
  chk_state *s = user;
  if (s->race && (s->opts.checks & LS_CHECK_RACES)) {
    chk_race_group(s->race, thread);
    chk_race_group(s->race16, thread);
    chk_race_group(s->race_tex, thread);
  }
  return 0;
}

/* Bytes one lane of memory instruction op accesses. */
static unsigned chk_op_bytes(unsigned op) {
  return op == IR_LDBH || op == IR_STBH || op == IR_LDWH || op == IR_STWH || op == IR_LDPH ||
                 op == IR_STPH
             ? 2u
             : 4u;
}

static void chk_bounds_hit(chk_state *s, chk_thread *th, const vm_mem_event *e, uint64_t lanes,
                           ls_check_kind kind) {
  uint32_t slot = e->space == VM_SPACE_BUFFER      ? e->slot
                  : e->space == VM_SPACE_WORKGROUP ? s->prog->code[e->pc].flags
                                                   : 0;
  chk_rec *r = chk_find(th, kind, e->pc, 0, e->space, slot, e->access, 0);
  if (!r) {
    th->dropped++;
    return;
  }
  r->count += (uint64_t)chk_popcount(lanes);
  /* lanes in order are invocations in order: the first few lanes suffice */
  int k = 0;
  for (uint64_t m = lanes; m && k < LS_CHECK_MAX_INVOCATIONS; m &= m - 1, k++) {
    unsigned l = chk_ctz(m);
    if (chk_offer(r, chk_key(s, e->where, l))) r->offset = e->addr[l];
  }
}

static void chk_race_report(void *user, unsigned thread, const chk_race_hit *h) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  if (!th) return;
  if (h->same_value && s->opts.ignore_same_value) return;
  ls_check_kind kind = h->same_value ? LS_CHECK_RACE_SAME_VALUE : LS_CHECK_DATA_RACE;
  /* one record per pair of places, whichever came first */
  uint32_t pa = h->pc, pb = h->other_pc, aa = h->access, ab = h->other_access;
  chk_inv ia = h->inv, ib = h->other_inv;
  if (pa > pb || (pa == pb && aa > ab)) {
    uint32_t t = pa;
    pa = pb;
    pb = t;
    t = aa;
    aa = ab;
    ab = t;
    chk_inv x = ia;
    ia = ib;
    ib = x;
  }
  chk_rec *r = chk_find(th, kind, pa, pb, h->space, h->slot, aa, ab);
  if (!r) {
    th->dropped++;
    return;
  }
  r->count++;
  r->across |= h->across_groups;
  if (chk_offer(r, ia) || !r->has_other) {
    if (r->inv[0] == ia) {
      r->other = ib;
      r->offset = h->offset;
      r->has_other = 1;
    }
  }
}

/* A race the f16 detector found: its offsets are doubled. */
static void chk_race_report16(void *user, unsigned thread, const chk_race_hit *h) {
  chk_race_hit h2 = *h;
  h2.offset /= 2;
  chk_race_report(user, thread, &h2);
}

/* A race the texture detector found: its offsets are texel index * 4. */
static void chk_race_report_tex(void *user, unsigned thread, const chk_race_hit *h) {
  chk_state *s = user;
  chk_race_hit h2 = *h;
  const uint32_t tb = h->slot < s->nslots ? s->slots[h->slot].tex.texel_bytes : 4;
  h2.offset = h->offset / 4 * tb;
  chk_race_report(user, thread, &h2);
}

static void chk_on_mem(void *user, unsigned thread, const vm_mem_event *e) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  if (!th || !e->mask) return;
  uint64_t oob = 0, beyond = 0;
  uint64_t logical = UINT64_MAX;
  if (e->space == VM_SPACE_BUFFER && e->slot < s->nslots) logical = s->slots[e->slot].logical;
  /* The common cases, a whole subgroup reading or writing consecutive words,
   * or all one word, inside the binding and its logical size: one comparison of
   * the run's end instead of a walk over the lanes' bits (the loop below has
   * no branch and vectorizes). */
  const unsigned W = e->where->width;
  const uint64_t full = W >= 64 ? UINT64_MAX : ((uint64_t)1 << W) - 1;
  int inside = 0, seq = 0;
  const uint64_t nb = e->bytes ? e->bytes : 4u; /* 2 for an f16 */
  if (e->mask == full && W <= 64) {
    const uint64_t a0 = e->addr[0];
    seq = e->consecutive;
    const uint64_t end = a0 + (seq ? 4u * (W - 1) + nb : nb);
    inside = (seq || e->uniform) && end > a0 && end <= e->size && end <= logical;
  }
  if (!inside) {
    /* a partial subgroup (a guarded access, a tree reduction's step): the
     * highest address its lanes touch settles most of them at once */
    uint64_t hi = 0;
    for (uint64_t m = e->mask; m; m &= m - 1) {
      const uint64_t a = e->addr[chk_ctz(m)];
      hi = a > hi ? a : hi;
    }
    inside = hi + nb > hi && hi + nb <= e->size && hi + nb <= logical;
  }
  if (inside) {
    /* nothing out of bounds or beyond the logical size */
  } else if (s->opts.checks & LS_CHECK_BOUNDS) {
    for (uint64_t m = e->mask; m; m &= m - 1) {
      unsigned l = chk_ctz(m);
      uint64_t a = e->addr[l];
      if (a + nb > e->size || a + nb < a)
        oob |= (uint64_t)1 << l;
      else if (a + nb > logical)
        beyond |= (uint64_t)1 << l;
    }
    if (oob) chk_bounds_hit(s, th, e, oob, LS_CHECK_OUT_OF_BOUNDS);
    if (beyond) chk_bounds_hit(s, th, e, beyond, LS_CHECK_BEYOND_LOGICAL);
  } else {
    for (uint64_t m = e->mask; m; m &= m - 1) {
      unsigned l = chk_ctz(m);
      if (e->addr[l] + nb > e->size) oob |= (uint64_t)1 << l;
    }
  }
  if (!s->race || !(s->opts.checks & LS_CHECK_RACES) || e->space == VM_SPACE_PRIVATE ||
      !(e->mask & ~oob))
    return;
  if (nb == 4u) {
    chk_race_access(s->race, thread, e, chk_group_linear(s, e->where->group), e->mask & ~oob,
                    inside && seq, chk_race_report, s);
    return;
  }
  /* f16: the detector with a cell per half-word sees the addresses doubled
   * (half-word k at "word" k); consecutive halves become consecutive words */
  uint64_t a2[64];
  vm_mem_event e2 = *e;
  int seq2 = 1;
  for (unsigned l = 0; l < W && l < 64; l++) {
    a2[l] = 2 * e->addr[l];
    seq2 &= e->addr[l] == e->addr[0] + 2u * l;
  }
  e2.addr = a2;
  e2.size = 2 * e->size;
  e2.bytes = 4;
  e2.consecutive = seq2;
  e2.uniform = e->uniform;
  const int fast = seq2 && e->mask == full && e->addr[0] + 2u * W <= e->size &&
                   e->addr[0] + 2u * W <= logical;
  chk_race_access(s->race16, thread, &e2, chk_group_linear(s, e->where->group), e->mask & ~oob,
                  fast, chk_race_report16, s);
}

/* A whole subgroup on consecutive words inside the binding
 * (vm_observer.mem_seq): nothing out of bounds, so what is left to see is
 * the logical size and races. */
static void chk_on_mem_seq(void *user, unsigned thread, const vm_where *w, uint32_t pc,
                           vm_access access, uint32_t slot, uint64_t addr, const uint32_t *value,
                           uint64_t size) {
  chk_state *s = user;
  const unsigned W = w->width;
  const uint64_t logical = slot < s->nslots ? s->slots[slot].logical : UINT64_MAX;
  if (addr + 4u * W > logical) {
    /* past the logical size: the general path reports the lanes */
    uint64_t a[64];
    const vm_mem_event e = chk_seq_event(w, pc, access, slot, addr, value, size, a);
    chk_on_mem(user, thread, &e);
    return;
  }
  if (!chk_th(s, thread) || !s->race || !(s->opts.checks & LS_CHECK_RACES)) return;
  chk_race_seq(s->race, thread, w, pc, access, slot, addr, value, size,
               chk_group_linear(s, w->group), chk_race_report, s);
}

static void chk_on_loop(void *user, unsigned thread, const vm_where *w, uint32_t pc,
                        uint64_t exec) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  if (!th || !exec) return;
  th->has_loop = 1;
  th->loop_pc = pc;
  memcpy(th->loop_group, w->group, sizeof th->loop_group);
  th->loop_subgroup = w->subgroup;
  th->loop_exec = exec;
}

static void chk_on_barrier(void *user, unsigned thread, const vm_where *w, uint32_t pc,
                           uint64_t exec, uint64_t alive) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  /* exec == 0: no lane is here (lowering can run the rest of a loop body
   * with an empty mask after the last lane left); nothing to compare */
  if (!th || !exec || !(s->opts.checks & LS_CHECK_BARRIERS)) return;
  uint64_t live = chk_live(s, w->subgroup, w->width);
  uint64_t returned = live & ~alive;
  uint64_t elsewhere = alive & ~exec;
  if (!returned && !elsewhere) return;
  chk_rec *r = chk_find(th, LS_CHECK_BARRIER_DIVERGENCE, pc, 0, 0, 0, 0, 0);
  if (!r) {
    th->dropped++;
    return;
  }
  r->returned += (uint64_t)chk_popcount(returned);
  r->elsewhere += (uint64_t)chk_popcount(elsewhere);
  r->count += (uint64_t)chk_popcount(returned | elsewhere);
  int k = 0;
  for (uint64_t m = returned | elsewhere; m && k < LS_CHECK_MAX_INVOCATIONS; m &= m - 1, k++)
    chk_offer(r, chk_key(s, w, chk_ctz(m)));
  if (exec) {
    chk_inv f = chk_key(s, w, chk_ctz(exec));
    if (!r->has_other || f < r->other) r->other = f;
    r->has_other = 1;
  }
}

/* Does the barrier at pc order workgroup memory, storage memory, texture
 * (handle) memory? The bytecode has one BARRIER for every built-in; the
 * source tells which. WGSL: workgroupBarrier orders the workgroup address
 * space, storageBarrier the storage one, textureBarrier the handle one. */
enum { CHK_ORDERS_WG = 1, CHK_ORDERS_ST = 2, CHK_ORDERS_TX = 4, CHK_ORDERS_ALL = 7 };

static unsigned chk_barrier_kind(const ir_program *p, uint32_t pc) {
  if (!p->source || !p->spans || pc >= p->ncode) return CHK_ORDERS_ALL;
  uint32_t at = p->spans[pc].start;
  if (at >= p->source_len) return CHK_ORDERS_ALL;
  const char *t = p->source + at;
  size_t left = p->source_len - at;
  if (left >= 16 && !strncmp(t, "workgroupBarrier", 16)) return CHK_ORDERS_WG;
  if (left >= 14 && !strncmp(t, "storageBarrier", 14)) return CHK_ORDERS_ST;
  if (left >= 14 && !strncmp(t, "textureBarrier", 14)) return CHK_ORDERS_TX;
  return CHK_ORDERS_ALL;
}

static void chk_on_barrier_release(void *user, unsigned thread, const uint32_t group[3],
                                   const uint32_t *pcs, uint32_t nsub) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  if (!th) return;
  uint32_t first = UINT32_MAX, other = UINT32_MAX;
  int differ = 0;
  for (uint32_t i = 0; i < nsub; i++) {
    if (pcs[i] == UINT32_MAX) {
      differ = 1;
      continue;
    }
    if (first == UINT32_MAX) first = pcs[i];
    else if (pcs[i] != first) {
      differ = 1;
      if (other == UINT32_MAX) other = pcs[i];
    }
  }
  if (s->race && (s->opts.checks & LS_CHECK_RACES) && first != UINT32_MAX) {
    unsigned k = 0;
    for (uint32_t i = 0; i < nsub; i++)
      if (pcs[i] != UINT32_MAX)
        k |= s->orders && pcs[i] < s->prog->ncode ? s->orders[pcs[i]] : CHK_ORDERS_ALL;
    const int wg = !!(k & CHK_ORDERS_WG), st = !!(k & CHK_ORDERS_ST), tx = !!(k & CHK_ORDERS_TX);
    chk_race_barrier(s->race, thread, wg, st);
    chk_race_barrier(s->race16, thread, wg, st);
    chk_race_barrier(s->race_tex, thread, 0, tx);
  }
  if (!differ || first == UINT32_MAX || !(s->opts.checks & LS_CHECK_BARRIERS)) return;
  chk_rec *r = chk_find(th, LS_CHECK_BARRIER_DIVERGENCE, first, 0, 0, 0, 0, 0);
  if (!r) {
    th->dropped++;
    return;
  }
  vm_where w = {{group[0], group[1], group[2]}, 0, s->width};
  for (uint32_t i = 0; i < nsub; i++) {
    if (pcs[i] == first) continue;
    w.subgroup = i;
    uint64_t live = chk_live(s, i, s->width);
    int n = chk_popcount(live);
    r->count += (uint64_t)n;
    if (pcs[i] == UINT32_MAX) r->returned += (uint64_t)n;
    else {
      r->elsewhere += (uint64_t)n;
      if (!r->wait_pc) r->wait_pc = pcs[i] + 1;
    }
    if (live) chk_offer(r, chk_key(s, &w, 0));
  }
  for (uint32_t i = 0; i < nsub; i++)
    if (pcs[i] == first) {
      w.subgroup = i;
      chk_inv f = chk_key(s, &w, 0);
      if (!r->has_other || f < r->other) r->other = f;
      r->has_other = 1;
      break;
    }
}

/* A shuffle, broadcast or quad operation whose source lane was not active
 * (another branch, returned, past a partial subgroup) or not in the
 * subgroup: WGSL leaves the value indeterminate; lockstep gave 0. */
static void chk_on_cross_lane(void *user, unsigned thread, const vm_where *w, uint32_t pc,
                              uint64_t exec, uint64_t inactive) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  if (!th || !inactive || !(s->opts.checks & LS_CHECK_SUBGROUPS)) return;
  /* a vector is one SHUF per component, all from one call: one finding */
  const ir_program *p = s->prog;
  while (p->spans && pc > 0 && pc < p->ncode && p->code[pc - 1].op == IR_SHUF &&
         p->spans[pc - 1].start == p->spans[pc].start && p->spans[pc - 1].end == p->spans[pc].end)
    pc--;
  chk_rec *r = chk_find(th, LS_CHECK_SUBGROUP_INACTIVE, pc, 0, 0, 0, 0, 0);
  if (!r) {
    th->dropped++;
    return;
  }
  r->count += (uint64_t)chk_popcount(inactive);
  int k = 0;
  for (uint64_t m = inactive; m && k < LS_CHECK_MAX_INVOCATIONS; m &= m - 1, k++)
    chk_offer(r, chk_key(s, w, chk_ctz(m)));
}

/* 32 bits standing for a texel's stored bytes, for the same-value rule:
 * the bytes themselves for a texel of 4 bytes, a digest of them for wider
 * ones (two different texels then read as the same value once in 2^32). */
static uint32_t chk_texel_bits(const vm_texture *t, const vm_texel_event *e, unsigned l,
                               unsigned W) {
  const uint32_t v[4] = {e->value[l], e->value[W + l], e->value[2 * W + l], e->value[3 * W + l]};
  uint8_t b[16];
  vm_tex_encode(t->format, v, b);
  uint32_t wd[4];
  memcpy(wd, b, 16);
  if (t->texel_bytes <= 4) return wd[0];
  uint32_t h = 0x811c9dc5u;
  for (unsigned i = 0; i < t->texel_bytes / 4; i++) {
    h = (h ^ wd[i]) * 0x01000193u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
  }
  return h;
}

/* A texel request on a storage texture that can be written, to the
 * texture detector: texel index i (byte offset / texel bytes) is word i,
 * so a row of texels is a run of consecutive words whatever the format. */
static void chk_texel_race(chk_state *s, unsigned thread, const vm_texel_event *e) {
  const vm_texture *t = e->tex;
  const unsigned W = e->where->width;
  const uint64_t live = e->mask & ~e->oob;
  if (!t || !t->texel_bytes || W > 64 || !live) return;
  if (e->access == VM_STORE && !e->value) return;
  const uint64_t full = W >= 64 ? UINT64_MAX : ((uint64_t)1 << W) - 1;
  uint64_t a[64];
  uint32_t v[64];
  int seq = live == full, uni = live == full;
  for (unsigned l = 0; l < W; l++) {
    a[l] = 0;
    v[l] = 0;
    if (!((live >> l) & 1)) continue;
    const uint32_t x = e->coord[0] ? e->coord[0][l] : 0, y = e->coord[1] ? e->coord[1][l] : 0;
    const uint32_t z = e->coord[2] ? e->coord[2][l] : 0, lv = e->coord[3] ? e->coord[3][l] : 0;
    const uint64_t byte = t->level[lv].offset + (uint64_t)z * t->level[lv].slice +
                          (uint64_t)y * t->level[lv].row + (uint64_t)x * t->texel_bytes;
    a[l] = byte / t->texel_bytes * 4;
    if (e->access == VM_STORE) v[l] = chk_texel_bits(t, e, l, W);
    seq &= a[l] == a[0] + 4u * l;
    uni &= a[l] == a[0];
  }
  const uint64_t words = e->slot < s->nslots ? s->slots[e->slot].size / t->texel_bytes : 0;
  vm_mem_event me = {e->pc, e->access, VM_SPACE_BUFFER, e->slot, 0, live, a,
                     e->access == VM_STORE ? v : NULL, 4 * words, e->where, seq, uni, 4};
  chk_race_access(s->race_tex, thread, &me, chk_group_linear(s, e->where->group), live, seq,
                  chk_race_report_tex, s);
}

/* Every textureLoad / textureStore: lanes whose texel address was outside
 * the view (vm/texture.c gave 0 or dropped the store) are a warning, the
 * rest go to the race detector when the texture can be written. */
static void chk_on_texel(void *user, unsigned thread, const vm_texel_event *e) {
  chk_state *s = user;
  chk_thread *th = chk_th(s, thread);
  if (!th) return;
  const uint64_t lanes = e->oob;
  if (lanes && (s->opts.checks & LS_CHECK_BOUNDS)) {
    chk_rec *r = chk_find(th, LS_CHECK_TEXEL_OUT_OF_BOUNDS, e->pc, 0, VM_SPACE_BUFFER, e->slot,
                          e->access, 0);
    if (!r) {
      th->dropped++;
    } else {
      r->count += (uint64_t)chk_popcount(lanes);
      int k = 0;
      for (uint64_t m = lanes; m && k < LS_CHECK_MAX_INVOCATIONS; m &= m - 1, k++) {
        const unsigned l = chk_ctz(m);
        if (chk_offer(r, chk_key(s, e->where, l)))
          for (int i = 0; i < 4; i++) r->texel[i] = e->coord[i] ? e->coord[i][l] : 0;
      }
    }
  }
  if (!s->race_tex || !(s->opts.checks & LS_CHECK_RACES) || e->slot >= s->prog->nbindings)
    return;
  const ir_binding_kind k = s->prog->bindings[e->slot].kind;
  if (k == IR_BIND_WRITE_ONLY_STORAGE_TEXTURE || k == IR_BIND_READ_WRITE_STORAGE_TEXTURE)
    chk_texel_race(s, thread, e);
}

/* ----------------------------------------------------------- lifetime */

static void chk_opts_norm(ls_check_options *o, const ls_check_options *in) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  if (in) {
    size_t n = in->struct_size && in->struct_size < sizeof *o ? in->struct_size : sizeof *o;
    memcpy(o, in, n);
    o->struct_size = sizeof *o;
  }
  if (!o->checks) o->checks = LS_CHECK_ALL;
  if (!o->max_findings) o->max_findings = 256;
  if (!o->race_shadow_bytes) o->race_shadow_bytes = (uint64_t)1 << 30;
}

chk_state *chk_create(unsigned threads, const ls_check_options *opts) {
  chk_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  if (threads < 1) threads = 1;
  s->nthreads = threads;
  s->threads = calloc(threads, sizeof *s->threads);
  s->race = chk_race_create(threads);
  s->race16 = chk_race_create(threads);
  s->race_tex = chk_race_create(threads);
  if (s->race16) chk_race_halves(s->race16);
  if (!s->threads || !s->race || !s->race16 || !s->race_tex) {
    chk_destroy(s);
    return NULL;
  }
  chk_opts_norm(&s->opts, opts);
  s->obs.user = s;
  s->obs.dispatch_begin = chk_on_dispatch_begin;
  s->obs.dispatch_end = chk_on_dispatch_end;
  s->obs.group_begin = chk_on_group_begin;
  s->obs.mem = chk_on_mem;
  s->obs.mem_seq = chk_on_mem_seq;
  s->obs.loop = chk_on_loop;
  s->obs.barrier = chk_on_barrier;
  s->obs.barrier_release = chk_on_barrier_release;
  s->obs.cross_lane = chk_on_cross_lane;
  s->obs.texel = chk_on_texel;
  return s;
}

void chk_set_options(chk_state *s, const ls_check_options *opts) {
  if (s) chk_opts_norm(&s->opts, opts);
}

static void chk_finding_free(ls_check_finding *f) {
  free((char *)f->message);
  free((char *)f->text);
  free((char *)f->file);
  free((char *)f->entry_point);
  free((char *)f->variable);
}

void chk_clear(chk_state *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nfindings; i++) {
    chk_finding_free(s->findings[i]);
    free(s->findings[i]);
  }
  s->nfindings = 0;
  s->dropped = 0;
  s->dispatch_index = 0;
}

void chk_destroy(chk_state *s) {
  if (!s) return;
  chk_clear(s);
  free(s->findings);
  for (unsigned t = 0; s->threads && t < s->nthreads; t++) free(s->threads[t].recs);
  free(s->threads);
  chk_race_destroy(s->race);
  chk_race_destroy(s->race16);
  chk_race_destroy(s->race_tex);
  free(s->orders);
  free(s->slots);
  free(s->unchecked);
  free(s->quiet);
  free(s->pipeline);
  free(s);
}

const vm_observer *chk_observer(chk_state *s) { return s ? &s->obs : NULL; }

int chk_dispatch_prepare(chk_state *s, const ir_program *prog, const chk_slot *slots,
                         const uint32_t groups[3], uint32_t width, const char *pipeline) {
  s->prog = prog;
  free(s->orders);
  s->orders = malloc(prog->ncode ? prog->ncode : 1);
  for (uint32_t pc = 0; s->orders && pc < prog->ncode; pc++)
    s->orders[pc] = (uint8_t)chk_barrier_kind(prog, pc);
  free(s->slots);
  free(s->unchecked);
  free(s->quiet);
  s->obs.quiet_loads = NULL;
  s->slots = calloc(prog->nbindings + 1, sizeof *s->slots);
  s->unchecked = calloc(prog->nbindings + 1, sizeof *s->unchecked);
  s->quiet = calloc(prog->nbindings + 1, sizeof *s->quiet);
  free(s->pipeline);
  s->pipeline = pipeline ? strdup(pipeline) : NULL;
  if (!s->slots || !s->unchecked || !s->quiet) return 0;
  if (prog->nbindings) memcpy(s->slots, slots, prog->nbindings * sizeof *slots);
  /* A load from a buffer that has no race shadow (uniform, read-only
   * storage, or any with races off) can only be out of bounds or beyond
   * the logical size: below both, chk_on_mem would find nothing. */
  for (uint32_t i = 0; i < prog->nbindings; i++) {
    const int shadowed =
        (s->opts.checks & LS_CHECK_RACES) && prog->bindings[i].kind == IR_BIND_STORAGE;
    if (shadowed || slots[i].is_texture) continue;
    const uint64_t end = slots[i].logical < slots[i].size ? slots[i].logical : slots[i].size;
    s->quiet[i] = (s->opts.checks & LS_CHECK_BOUNDS) ? end : slots[i].size;
  }
  s->obs.quiet_loads = s->quiet;
  s->nslots = prog->nbindings;
  memcpy(s->groups, groups, sizeof s->groups);
  s->width = width;
  s->wg_invocations = prog->wg_size[0] * prog->wg_size[1] * prog->wg_size[2];
  for (unsigned t = 0; t < s->nthreads; t++) {
    s->threads[t].nrecs = 0;
    s->threads[t].dropped = 0;
    s->threads[t].has_loop = 0;
  }
  if (s->opts.checks & LS_CHECK_RACES) {
    uint64_t *sizes = calloc(prog->nbindings + 1, sizeof *sizes);
    /* the cross-workgroup shadow is 20 bytes per word per thread: bounded;
     * a binding over the bound gets a races-unchecked finding */
    const uint64_t cap = s->opts.race_shadow_bytes;
    const uint64_t ngroups = (uint64_t)groups[0] * groups[1] * groups[2];
    if (sizes) {
      for (uint32_t i = 0; i < prog->nbindings; i++)
        if (prog->bindings[i].kind == IR_BIND_STORAGE) sizes[i] = slots[i].size;
      chk_race_begin(s->race, prog, sizes, prog->nbindings, ngroups, cap, s->unchecked);
      /* the f16 detector: a cell per half-word, for programs with f16 */
      int half = 0;
      for (uint32_t pc = 0; pc < prog->ncode && !half; pc++)
        half = chk_op_bytes(prog->code[pc].op) == 2;
      for (uint32_t i = 0; i < prog->nbindings; i++) sizes[i] = half ? 2 * sizes[i] : 0;
      chk_race_begin(s->race16, prog, sizes, prog->nbindings, ngroups, cap, s->unchecked);
      /* the texture detector: a word per texel of each writable storage texture */
      for (uint32_t i = 0; i < prog->nbindings; i++) {
        const ir_binding_kind k = prog->bindings[i].kind;
        const int w = k == IR_BIND_WRITE_ONLY_STORAGE_TEXTURE ||
                      k == IR_BIND_READ_WRITE_STORAGE_TEXTURE;
        sizes[i] = w && slots[i].is_texture && slots[i].tex.texel_bytes
                       ? slots[i].size / slots[i].tex.texel_bytes * 4
                       : 0;
      }
      chk_race_begin(s->race_tex, prog, sizes, prog->nbindings, ngroups, cap, s->unchecked);
      free(sizes);
    } else {
      /* no room even to say which: every writable binding goes unchecked */
      for (uint32_t i = 0; i < prog->nbindings; i++)
        if (prog->bindings[i].kind == IR_BIND_STORAGE) s->unchecked[i] = UINT64_MAX;
    }
  }
  s->active = 1;
  return 1;
}

/* ------------------------------------------------------------ findings */

static char *chk_vfmt(const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0) return NULL;
  char *p = malloc((size_t)n + 1);
  if (p) vsnprintf(p, (size_t)n + 1, fmt, ap);
  return p;
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *chk_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *p = chk_vfmt(fmt, ap);
  va_end(ap);
  return p;
}

static const char *chk_access_name(uint32_t a) {
  return a == VM_STORE ? "write" : a == VM_ATOMIC ? "atomic" : "read";
}

static void chk_place(const chk_state *s, uint32_t pc, ls_check_access *a) {
  const ir_program *p = s->prog;
  memset(a, 0, sizeof *a);
  if (!p->spans || pc >= p->ncode) return;
  a->offset = p->spans[pc].start;
  a->length = p->spans[pc].end > p->spans[pc].start ? p->spans[pc].end - p->spans[pc].start : 0;
  if (p->source) ir_line_col(p, pc, &a->line, &a->column);
}

static void chk_inv_text(const ls_check_invocation *v, char *buf, size_t len) {
  snprintf(buf, len, "global_invocation_id (%u, %u, %u) [workgroup (%u, %u, %u), local %u]",
           v->global_id[0], v->global_id[1], v->global_id[2], v->workgroup_id[0],
           v->workgroup_id[1], v->workgroup_id[2], v->local_index);
}

/* "(3000001, 0, 0), (3000002, 0, 0), ..." */
static void chk_inv_list(const ls_check_finding *f, char *buf, size_t len) {
  size_t o = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < f->ninvocations && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s(%u, %u, %u)", i ? ", " : "",
                          f->invocations[i].global_id[0], f->invocations[i].global_id[1],
                          f->invocations[i].global_id[2]);
  if (f->count > f->ninvocations && o < len) o += (size_t)snprintf(buf + o, len - o, ", ...");
  if (f->ninvocations && o < len)
    snprintf(buf + o, len - o, " (global_invocation_id; the first is local %u of workgroup (%u, %u, %u))",
             f->invocations[0].local_index, f->invocations[0].workgroup_id[0],
             f->invocations[0].workgroup_id[1], f->invocations[0].workgroup_id[2]);
}

/* The variable an access of a record touched. */
static void chk_variable(const chk_state *s, const chk_rec *r, ls_check_finding *f,
                         uint64_t *base) {
  const ir_program *p = s->prog;
  *base = 0;
  if (r->space == VM_SPACE_BUFFER && r->slot < p->nbindings) {
    const ir_binding *b = &p->bindings[r->slot];
    f->variable = strdup(b->name);
    f->group = b->group;
    f->binding = b->binding;
    f->binding_size = r->slot < s->nslots ? s->slots[r->slot].size : 0;
    f->logical_size = r->slot < s->nslots ? s->slots[r->slot].logical : UINT64_MAX;
  } else if (r->space == VM_SPACE_WORKGROUP) {
    f->workgroup_memory = 1;
    f->group = f->binding = UINT32_MAX;
    if (r->slot >= 1 && r->slot <= p->nwgvars) {
      const ir_wgvar *v = &p->wgvars[r->slot - 1];
      f->variable = strdup(v->name);
      f->binding_size = v->size;
      *base = v->offset;
    } else {
      f->binding_size = p->wg_mem_size;
    }
  } else {
    f->group = f->binding = UINT32_MAX;
    f->variable = strdup("(a function or private array)");
    f->binding_size = p->priv_mem_size;
  }
}

static void chk_var_text(const ls_check_finding *f, char *buf, size_t len) {
  if (f->workgroup_memory)
    snprintf(buf, len, "workgroup variable '%s'", f->variable ? f->variable : "?");
  else if (f->group != UINT32_MAX)
    snprintf(buf, len, "'%s' (@group(%u) @binding(%u))", f->variable ? f->variable : "?",
             f->group, f->binding);
  else
    snprintf(buf, len, "%s", f->variable ? f->variable : "memory");
}

static void chk_add_text(const chk_state *s, ls_check_finding *f, const ls_check_access *second,
                         const char *second_msg) {
  const ir_program *p = s->prog;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  diag g;
  g.severity = f->severity == LS_CHECK_ERROR     ? DIAG_ERROR
               : f->severity == LS_CHECK_WARNING ? DIAG_WARNING
                                                 : DIAG_NOTE;
  g.span.start = f->first.offset;
  g.span.end = f->first.offset + f->first.length;
  char *m = chk_fmt("%s [%s]", f->message, f->id);
  g.message = m ? m : (char *)f->message;
  diag_format_one(&g, p->source, p->source_len, p->filename, &buf, &n, &cap);
  free(m);
  if (second && second_msg) {
    g.severity = DIAG_NOTE;
    g.span.start = second->offset;
    g.span.end = second->offset + second->length;
    g.message = (char *)second_msg;
    diag_format_one(&g, p->source, p->source_len, p->filename, &buf, &n, &cap);
  }
  f->text = buf;
}

static void chk_push(chk_state *s, ls_check_finding *f) {
  if (s->nfindings >= s->opts.max_findings) {
    s->dropped++;
    chk_finding_free(f);
    return;
  }
  ls_check_finding *kept = malloc(sizeof *kept);
  if (kept && s->nfindings == s->capfindings) {
    size_t nc = s->capfindings ? s->capfindings * 2 : 16;
    ls_check_finding **nf = realloc(s->findings, nc * sizeof *nf);
    if (nf) {
      s->findings = nf;
      s->capfindings = nc;
    }
  }
  if (!kept || s->nfindings == s->capfindings) {
    s->dropped++;
    chk_finding_free(f);
    free(kept);
    return;
  }
  *kept = *f;
  s->findings[s->nfindings++] = kept;
}

static void chk_common(const chk_state *s, ls_check_finding *f, ls_check_kind kind) {
  memset(f, 0, sizeof *f);
  f->kind = kind;
  f->file = strdup(s->prog->filename ? s->prog->filename : "shader.wgsl");
  f->entry_point = strdup(s->prog->entry_point ? s->prog->entry_point : "?");
  f->dispatch = s->dispatch_index;
  f->group = f->binding = UINT32_MAX;
  f->access_size = 4;
}

/* A coordinate as the shader most likely wrote it: the u32 bits of a
 * negative i32 read back as negative. */
static long long chk_coord(uint32_t c) { return c >= 0x80000000u ? (long long)(int32_t)c : (long long)c; }

/* "texel (3, 2) of level 0", "texel (5, 1), array layer 2 of level 1", as
 * the binding's dimension has them. */
static void chk_texel_text(const ir_binding *b, const uint32_t c[4], char *buf, size_t len) {
  const ir_tex_dim d = b->tex_dim;
  if (d == IR_TEXDIM_1D)
    snprintf(buf, len, "texel (%lld) of level %lld", chk_coord(c[0]), chk_coord(c[3]));
  else if (d == IR_TEXDIM_3D)
    snprintf(buf, len, "texel (%lld, %lld, %lld) of level %lld", chk_coord(c[0]), chk_coord(c[1]),
             chk_coord(c[2]), chk_coord(c[3]));
  else if (d == IR_TEXDIM_2D_ARRAY || d == IR_TEXDIM_CUBE || d == IR_TEXDIM_CUBE_ARRAY)
    snprintf(buf, len, "texel (%lld, %lld), array layer %lld of level %lld", chk_coord(c[0]),
             chk_coord(c[1]), chk_coord(c[2]), chk_coord(c[3]));
  else
    snprintf(buf, len, "texel (%lld, %lld) of level %lld", chk_coord(c[0]), chk_coord(c[1]),
             chk_coord(c[3]));
}

/* The texel a byte offset of the texture's memory holds (view level, z,
 * y, x); 0 when no level of the view covers it. */
static int chk_texel_at(const vm_texture *t, uint64_t off, uint32_t c[4]) {
  for (uint32_t lv = 0; lv < t->levels && lv < VM_TEX_LEVELS; lv++) {
    const uint64_t lo = t->level[lv].offset, n = (uint64_t)t->level[lv].d * t->level[lv].slice;
    if (off < lo || off >= lo + n || !t->level[lv].row || !t->level[lv].slice) continue;
    const uint64_t in = off - lo;
    c[2] = (uint32_t)(in / t->level[lv].slice);
    c[1] = (uint32_t)(in % t->level[lv].slice / t->level[lv].row);
    c[0] = (uint32_t)(in % t->level[lv].row / t->texel_bytes);
    c[3] = lv;
    return 1;
  }
  return 0;
}

/* Fills the texture fields of a finding on slot `slot` at texel c; size
 * gets "is 13 x 7 texels at level 0 (1 mip level)" or, for a level the
 * view lacks, "has 1 mip level". */
static void chk_texel_fields(const chk_state *s, uint32_t slot, const uint32_t c[4],
                             ls_check_finding *f, char *size, size_t len) {
  const vm_texture *t = slot < s->nslots && s->slots[slot].is_texture ? &s->slots[slot].tex : NULL;
  const ir_binding *b = &s->prog->bindings[slot];
  f->texel = 1;
  memcpy(f->texel_coord, c, sizeof f->texel_coord);
  f->offset = 0;
  f->access_size = t ? t->texel_bytes : 4;
  size[0] = 0;
  if (!t) return;
  f->texture_levels = t->levels;
  const uint32_t lv = c[3];
  const char *pl = t->levels == 1 ? "" : "s";
  if (lv >= t->levels) {
    snprintf(size, len, "has %u mip level%s", t->levels, pl);
    return;
  }
  f->texture_size[0] = t->level[lv].w;
  f->texture_size[1] = t->level[lv].h;
  f->texture_size[2] = t->level[lv].d;
  if (b->tex_dim == IR_TEXDIM_1D)
    snprintf(size, len, "is %u texels at level %u (%u mip level%s)", t->level[lv].w, lv, t->levels, pl);
  else if (b->tex_dim == IR_TEXDIM_3D)
    snprintf(size, len, "is %u x %u x %u texels at level %u (%u mip level%s)", t->level[lv].w,
             t->level[lv].h, t->level[lv].d, lv, t->levels, pl);
  else if (b->tex_dim == IR_TEXDIM_2D)
    snprintf(size, len, "is %u x %u texels at level %u (%u mip level%s)", t->level[lv].w,
             t->level[lv].h, lv, t->levels, pl);
  else
    snprintf(size, len, "is %u x %u texels, %u array layers at level %u (%u mip level%s)",
             t->level[lv].w, t->level[lv].h, t->level[lv].d, lv, t->levels, pl);
}

static void chk_rec_finding(chk_state *s, const chk_rec *r) {
  ls_check_finding f;
  chk_common(s, &f, r->kind);
  chk_place(s, r->pc, &f.first);
  if (r->pc < s->prog->ncode) f.access_size = chk_op_bytes(s->prog->code[r->pc].op);
  f.first.access = r->access == VM_STORE ? LS_CHECK_WRITE : r->access == VM_ATOMIC ? LS_CHECK_ATOMIC : LS_CHECK_READ;
  f.count = r->count;
  f.ninvocations = r->ninv;
  for (uint32_t i = 0; i < r->ninv; i++) chk_inv_ids(s, r->inv[i], &f.invocations[i]);
  if (r->ninv) f.first.invocation = f.invocations[0];
  char var[300], invs[400], one[200], two[200];
  char *second_msg = NULL;
  switch (r->kind) {
  case LS_CHECK_OUT_OF_BOUNDS:
  case LS_CHECK_BEYOND_LOGICAL: {
    uint64_t base;
    chk_variable(s, r, &f, &base);
    chk_var_text(&f, var, sizeof var);
    chk_inv_list(&f, invs, sizeof invs);
    int saturated = r->offset >= 0xFFFFFFFFull;
    f.offset = saturated ? UINT64_MAX : r->offset - (r->offset >= base ? base : 0);
    const char *what = chk_access_name(r->access);
    if (r->kind == LS_CHECK_BEYOND_LOGICAL) {
      f.severity = r->access == VM_LOAD ? LS_CHECK_WARNING : LS_CHECK_ERROR;
      f.id = "beyond-logical-size";
      f.message = chk_fmt("%s of %u bytes %s %s at byte offset %llu, beyond its logical size of "
                          "%llu bytes (binding size %llu bytes) by %llu invocation%s: %s",
                          what, f.access_size, r->access == VM_LOAD ? "from" : "to", var,
                          (unsigned long long)f.offset, (unsigned long long)f.logical_size, (unsigned long long)f.binding_size,
                          (unsigned long long)f.count, f.count == 1 ? "" : "s", invs);
    } else {
      f.severity = LS_CHECK_ERROR;
      f.id = "out-of-bounds";
      if (saturated)
        f.message = chk_fmt("out-of-bounds %s of %u bytes %s %s: an index out of range (past the "
                            "end of a fixed-size array of %llu bytes, or an address beyond 4 GiB), by %llu invocation%s: %s",
                            what, f.access_size, r->access == VM_LOAD ? "from" : "to", var,
                            (unsigned long long)f.binding_size,
                            (unsigned long long)f.count, f.count == 1 ? "" : "s", invs);
      else
        f.message = chk_fmt("out-of-bounds %s of %u bytes %s %s at byte offset %llu; the %s is "
                            "%llu bytes; by %llu invocation%s: %s (%s)",
                            what, f.access_size, r->access == VM_LOAD ? "from" : "to", var,
                            (unsigned long long)f.offset, f.workgroup_memory ? "variable" : "binding",
                            (unsigned long long)f.binding_size, (unsigned long long)f.count,
                            f.count == 1 ? "" : "s", invs,
                            r->access == VM_LOAD ? "the load gave 0" : "the store was dropped");
    }
    break;
  }
  case LS_CHECK_TEXEL_OUT_OF_BOUNDS: {
    /* defined behaviour in WGSL, so a warning: the texel address (a
     * coordinate past textureDimensions, a negative one, a layer or level
     * the view lacks) and the view's size there */
    uint64_t base;
    chk_variable(s, r, &f, &base);
    chk_var_text(&f, var, sizeof var);
    chk_inv_list(&f, invs, sizeof invs);
    char texel[160], size[160];
    chk_texel_fields(s, r->slot, r->texel, &f, size, sizeof size);
    chk_texel_text(&s->prog->bindings[r->slot], r->texel, texel, sizeof texel);
    f.severity = LS_CHECK_WARNING;
    f.id = "texture-out-of-bounds";
    f.message = chk_fmt("%s %s outside the texture view: %s; the view %s; by %llu "
                        "invocation%s: %s (%s: defined in WGSL, but rarely meant)",
                        r->access == VM_LOAD ? "textureLoad from" : "textureStore to", var, texel,
                        size, (unsigned long long)f.count, f.count == 1 ? "" : "s", invs,
                        r->access == VM_LOAD ? "the load gave (0, 0, 0, 0)" : "the store was dropped");
    break;
  }
  case LS_CHECK_DATA_RACE:
  case LS_CHECK_RACE_SAME_VALUE: {
    uint64_t base;
    chk_variable(s, r, &f, &base);
    chk_var_text(&f, var, sizeof var);
    f.offset = r->offset >= base ? r->offset - base : r->offset;
    /* a storage texture: the texel instead of a byte offset */
    char where_t[200] = "", size_t_[160];
    const int tex = r->space == VM_SPACE_BUFFER && r->slot < s->prog->nbindings &&
                    IR_BIND_IS_TEXTURE(s->prog->bindings[r->slot].kind);
    if (tex) {
      uint32_t c[4] = {0, 0, 0, 0};
      const int known = r->slot < s->nslots && chk_texel_at(&s->slots[r->slot].tex, r->offset, c);
      chk_texel_fields(s, r->slot, c, &f, size_t_, sizeof size_t_);
      if (known) chk_texel_text(&s->prog->bindings[r->slot], c, where_t, sizeof where_t);
      else snprintf(where_t, sizeof where_t, "a texel");
    }
    f.has_second = 1;
    chk_place(s, r->pc2, &f.second);
    f.second.access = r->access2 == VM_STORE ? LS_CHECK_WRITE : LS_CHECK_READ;
    if (r->has_other) chk_inv_ids(s, r->other, &f.second.invocation);
    chk_inv_text(&f.first.invocation, one, sizeof one);
    chk_inv_text(&f.second.invocation, two, sizeof two);
    int same = r->kind == LS_CHECK_RACE_SAME_VALUE;
    f.severity = same ? LS_CHECK_WARNING : LS_CHECK_ERROR;
    f.id = same ? "race-same-value" : "data-race";
    if (tex)
      f.message = chk_fmt("%s: %s by %s and %s by %s at line %u of %s, %s, %s "
                          "(%llu conflicting access pair%s)%s",
                          same ? "data race (both wrote the same value)" : "data race",
                          chk_access_name(r->access), one, chk_access_name(r->access2), two,
                          f.second.line, var, where_t,
                          r->across ? "from different workgroups of one dispatch (nothing orders them)"
                                    : "in the same workgroup with no textureBarrier between them "
                                      "(workgroupBarrier and storageBarrier do not order texture "
                                      "accesses)",
                          (unsigned long long)f.count, f.count == 1 ? "" : "s",
                          same ? "; silence with --allow-same-value" : "");
    else
      f.message = chk_fmt("%s: %s by %s and %s by %s at line %u of %s, byte offset %llu, %s "
                        "(%llu conflicting access pair%s)%s",
                        same ? "data race (both wrote the same value)" : "data race",
                        chk_access_name(r->access), one, chk_access_name(r->access2), two,
                        f.second.line, var, (unsigned long long)f.offset,
                        r->across ? "from different workgroups of one dispatch (nothing orders them)"
                                  : "in the same workgroup with no barrier between them",
                        (unsigned long long)f.count, f.count == 1 ? "" : "s",
                        same ? "; silence with --allow-same-value" : "");
    second_msg = chk_fmt("the other access: %s by %s", chk_access_name(r->access2), two);
    break;
  }
  case LS_CHECK_BARRIER_DIVERGENCE: {
    f.severity = LS_CHECK_ERROR;
    f.id = "barrier-divergence";
    chk_inv_list(&f, invs, sizeof invs);
    if (r->has_other) {
      chk_inv_ids(s, r->other, &f.second.invocation);
      f.first.invocation = f.second.invocation;
    }
    chk_inv_text(&f.first.invocation, one, sizeof one);
    char where[160] = "";
    if (r->wait_pc) {
      f.has_second = 1;
      chk_place(s, r->wait_pc - 1, &f.second);
      snprintf(where, sizeof where, "; %llu wait at the barrier at line %u",
               (unsigned long long)r->elsewhere, f.second.line);
      second_msg = chk_fmt("where the other invocations wait");
    } else if (r->elsewhere) {
      snprintf(where, sizeof where, "; %llu are in another branch of the same subgroup",
               (unsigned long long)r->elsewhere);
    }
    f.message = chk_fmt("barrier divergence: this barrier is reached by %s and others, but not "
                        "by %llu invocation%s of the same workgroup (%s): %llu returned "
                        "before it%s; every invocation of a workgroup must reach the same "
                        "barrier",
                        one, (unsigned long long)f.count, f.count == 1 ? "" : "s", invs,
                        (unsigned long long)r->returned, where);
    break;
  }
  case LS_CHECK_SUBGROUP_INACTIVE: {
    f.severity = LS_CHECK_WARNING;
    f.id = "subgroup-inactive-lane";
    chk_inv_list(&f, invs, sizeof invs);
    f.message = chk_fmt("subgroup read from an inactive lane: %llu invocation%s (%s) read a lane "
                        "that is not active here (in another branch, returned, or past the end "
                        "of the subgroup); WGSL leaves the value indeterminate (lockstep gives 0)",
                        (unsigned long long)f.count, f.count == 1 ? "" : "s", invs);
    break;
  }
  default:
    break;
  }
  if (!f.message) {
    chk_finding_free(&f);
    s->dropped++;
    free(second_msg);
    return;
  }
  chk_add_text(s, &f, f.has_second ? &f.second : NULL, second_msg);
  free(second_msg);
  chk_push(s, &f);
}

static int chk_rec_cmp(const void *a, const void *b) {
  const chk_rec *x = a, *y = b;
  if (x->pc != y->pc) return x->pc < y->pc ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->pc2 != y->pc2) return x->pc2 < y->pc2 ? -1 : 1;
  if (x->access != y->access) return x->access < y->access ? -1 : 1;
  return 0;
}

static void chk_runaway(chk_state *s, const vm_result *r) {
  ls_check_finding f;
  chk_common(s, &f, LS_CHECK_RUNAWAY);
  f.severity = LS_CHECK_ERROR;
  f.id = "runaway";
  uint32_t pc = r->pc;
  int have = 0;
  /* the thread that ran the workgroup saw its last back edge */
  for (unsigned t = 0; t < s->nthreads; t++) {
    chk_thread *th = &s->threads[t];
    if (th->has_loop && !memcmp(th->loop_group, r->group, sizeof th->loop_group)) {
      vm_where w = {{r->group[0], r->group[1], r->group[2]}, th->loop_subgroup, s->width};
      pc = th->loop_pc;
      chk_inv_ids(s, chk_key(s, &w, chk_ctz(th->loop_exec)), &f.first.invocation);
      f.count = (uint64_t)chk_popcount(th->loop_exec);
      f.invocations[0] = f.first.invocation;
      f.ninvocations = 1;
      have = 1;
      break;
    }
  }
  ls_check_access place;
  chk_place(s, pc, &place);
  place.invocation = f.first.invocation;
  f.first = place;
  char one[200];
  chk_inv_text(&f.first.invocation, one, sizeof one);
  if (have)
    f.message = chk_fmt("runaway shader: the loop at line %u did not finish within the "
                        "instruction budget; %s is still inside it (with %llu other lane%s of "
                        "its subgroup); the device is lost",
                        f.first.line, one, (unsigned long long)(f.count - 1),
                        f.count == 2 ? "" : "s");
  else
    f.message = chk_fmt("runaway shader: workgroup (%u, %u, %u) did not finish within the "
                        "instruction budget (at line %u); the device is lost",
                        r->group[0], r->group[1], r->group[2], f.first.line);
  if (!f.message) {
    chk_finding_free(&f);
    s->dropped++;
    return;
  }
  chk_add_text(s, &f, NULL, NULL);
  chk_push(s, &f);
}

/* A writable binding whose races between workgroups the detector could not
 * watch in this dispatch (its shadow over the budget, or memory ran out):
 * one warning per binding of an entry point, counting the dispatches. */
static void chk_races_unchecked(chk_state *s, uint32_t slot) {
  const ir_binding *b = &s->prog->bindings[slot];
  const char *entry = s->prog->entry_point ? s->prog->entry_point : "?";
  for (size_t i = 0; i < s->nfindings; i++) {
    ls_check_finding *o = s->findings[i];
    if (o->kind == LS_CHECK_RACES_UNCHECKED && o->group == b->group && o->binding == b->binding &&
        !strcmp(o->entry_point, entry) &&
        !strcmp(o->file, s->prog->filename ? s->prog->filename : "shader.wgsl")) {
      o->count++;
      return;
    }
  }
  ls_check_finding f;
  chk_common(s, &f, LS_CHECK_RACES_UNCHECKED);
  f.severity = LS_CHECK_WARNING;
  f.id = "races-unchecked";
  f.variable = strdup(b->name ? b->name : "?");
  f.group = b->group;
  f.binding = b->binding;
  f.binding_size = slot < s->nslots ? s->slots[slot].size : 0;
  f.first.access = LS_CHECK_WRITE;
  f.first.offset = b->span.start;
  f.first.length = b->span.end > b->span.start ? b->span.end - b->span.start : 0;
  if (s->prog->source)
    diag_line_col(s->prog->source, s->prog->source_len, f.first.offset, &f.first.line,
                  &f.first.column);
  f.count = 1; /* dispatches */
  char var[300], why[300];
  chk_var_text(&f, var, sizeof var);
  const uint64_t need = s->unchecked[slot];
  if (need != UINT64_MAX && need > s->opts.race_shadow_bytes)
    snprintf(why, sizeof why, "its shadow would take %llu bytes (20 per word, or texel, per "
             "worker thread), over the race detector's budget of %llu bytes per dispatch "
             "(ls_check_options.race_shadow_bytes)",
             (unsigned long long)need, (unsigned long long)s->opts.race_shadow_bytes);
  else
    snprintf(why, sizeof why, "memory for its shadow ran out");
  f.message = chk_fmt("races between workgroups on %s (%llu bytes) were not checked: %s; races "
                      "within a workgroup were", var, (unsigned long long)f.binding_size, why);
  if (!f.message) {
    chk_finding_free(&f);
    s->dropped++;
    return;
  }
  chk_add_text(s, &f, NULL, NULL);
  chk_push(s, &f);
}

void chk_dispatch_finish(chk_state *s, vm_status st, const vm_result *r) {
  if (!s || !s->active) return;
  s->active = 0;
  if (s->opts.checks & LS_CHECK_RACES) {
    chk_race_end(s->race, chk_race_report, s);
    chk_race_end(s->race16, chk_race_report16, s);
    chk_race_end(s->race_tex, chk_race_report_tex, s);
  }
  /* merge the threads' tables into thread 0's */
  chk_thread *t0 = &s->threads[0];
  for (unsigned t = 1; t < s->nthreads; t++) {
    chk_thread *th = &s->threads[t];
    t0->dropped += th->dropped;
    for (size_t i = 0; i < th->nrecs; i++) {
      const chk_rec *x = &th->recs[i];
      chk_rec *y = chk_find(t0, x->kind, x->pc, x->pc2, x->space, x->slot, x->access, x->access2);
      if (!y) {
        t0->dropped++;
        continue;
      }
      int fresh = y->count == 0 && y->ninv == 0 && !y->has_other;
      if (fresh) {
        *y = *x;
        continue;
      }
      y->count += x->count;
      y->returned += x->returned;
      y->elsewhere += x->elsewhere;
      y->across |= x->across;
      if (!y->wait_pc) y->wait_pc = x->wait_pc;
      for (uint32_t k = 0; k < x->ninv; k++) {
        int lowest = chk_offer(y, x->inv[k]);
        if (lowest && k == 0 && x->kind != LS_CHECK_BARRIER_DIVERGENCE) {
          y->offset = x->offset;
          memcpy(y->texel, x->texel, sizeof y->texel);
          if (x->has_other) {
            y->other = x->other;
            y->has_other = 1;
          }
        }
      }
      if (x->kind == LS_CHECK_BARRIER_DIVERGENCE && x->has_other &&
          (!y->has_other || x->other < y->other)) {
        y->other = x->other;
        y->has_other = 1;
      }
    }
    th->nrecs = 0;
  }
  if (t0->nrecs) qsort(t0->recs, t0->nrecs, sizeof *t0->recs, chk_rec_cmp);
  for (size_t i = 0; i < t0->nrecs; i++) chk_rec_finding(s, &t0->recs[i]);
  s->dropped += t0->dropped;
  t0->nrecs = 0;
  if (st == VM_BUDGET_EXCEEDED && r && (s->opts.checks & LS_CHECK_RUNAWAY_LOOPS)) chk_runaway(s, r);
  for (uint32_t i = 0; s->unchecked && i < s->nslots; i++)
    if (s->unchecked[i]) chk_races_unchecked(s, i);
  s->dispatch_index++;
}

size_t chk_finding_count(const chk_state *s) { return s ? s->nfindings : 0; }

const ls_check_finding *chk_finding(const chk_state *s, size_t i) {
  return s && i < s->nfindings ? s->findings[i] : NULL;
}

uint64_t chk_dropped(const chk_state *s) { return s ? s->dropped : 0; }

void chk_counts(const chk_state *s, size_t *errors, size_t *warnings, size_t *notes) {
  size_t e = 0, w = 0, n = 0;
  for (size_t i = 0; s && i < s->nfindings; i++) {
    if (s->findings[i]->severity == LS_CHECK_ERROR) e++;
    else if (s->findings[i]->severity == LS_CHECK_WARNING) w++;
    else n++;
  }
  if (errors) *errors = e;
  if (warnings) *warnings = w;
  if (notes) *notes = n;
}
