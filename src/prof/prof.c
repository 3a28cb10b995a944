/*
 * prof.c — the SIMT profiler's observer: what a GPU would spend on each
 * dispatch, measured from the VM's events (vm/observe.h).
 *
 * Flow: the API's glue (api/prof.c: ls_profiler_attach) attaches the
 * observer of prof_create to the device's observer list, so the queue hands
 * it to vm_dispatch for every dispatch. Callbacks run on the worker
 * thread that runs the workgroup, so every figure is gathered per thread
 * (no locks, no atomics) and merged at dispatch_end into one result
 * (ls_prof_dispatch, lockstep.h): per instruction, per WGSL line and per
 * dispatch. The VM itself counts issued instructions and live lanes per pc
 * into arrays this file owns, so plain instructions cost no callback; and
 * the profiler asks the VM to summarise (observe.h): full-subgroup
 * coalesced or one-word buffer requests come as counts per pc and per
 * alignment of the first address, branches as divergence counts, barriers
 * as issue counts, private accesses not at all, and a subgroup that ends
 * with all its lanes calls nothing. Only the traced
 * workgroup is run in detail.
 *
 * Figures that need a model of the hardware (sectors, lines, banks,
 * texture tiles) use the memory model the glue resolved (the device
 * profile's figures unless the options name others). Texel requests
 * (textureLoad, textureStore) come as one event per subgroup request and
 * are counted in texels and tiles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/bitfn.h"
#include "../vm/observe.h"
#include "../vm/vm.h" /* vm_texture: a texel event's view */
#include "prof.h"

#define PROF_MAXNEST 32   /* loop instances open at once in one subgroup */
#define PROF_MAXLANES 128 /* widest subgroup a profile may describe */

/* Per-instruction accumulators of one thread. */
typedef struct prof_pc {
  uint64_t requests, lanes, unique_bytes, oob, sectors, lines, max_sectors, max_lines;
  uint64_t conflict_sum, conflict_max, same_sum, same_max;
  uint64_t regions, uniform, hot, aops; /* the cost model's (ls_prof_mem) */
  uint64_t bind_bytes; /* the most bytes of a binding a callback named */
  uint64_t evals, divergent;
  uint64_t inst, sub_trips, lane_trips, loop_lanes, max_trips;
  double spread_sum, spread_max, eff_num, eff_den;
  uint32_t worst_group[3], worst_sub;
  uint64_t barriers;
  /* texel requests: bytes asked for, distinct texels and tiles, the tile */
  uint64_t tbytes, texels, tiles, max_tiles;
  uint32_t texel_bytes, tile_w, tile_h;
} prof_pc;

typedef struct prof_loopinst {
  uint32_t pc, trips;
  uint64_t lane_trips, seen;
} prof_loopinst;

/* One subgroup of the workgroup a thread is running. */
typedef struct prof_sub {
  uint32_t nloops;
  prof_loopinst loops[PROF_MAXNEST];
  /* trace: the execution mask as the instructions rebuild it */
  uint64_t exec;
  uint64_t *slots;
  ls_prof_step *steps;
  uint32_t nsteps, capsteps;
} prof_sub;

typedef struct prof_thread {
  prof_pc *pc;
  prof_sub *sub;
  uint32_t group[3];
  uint64_t early, tail, tail_groups, tail_first, tail_last, group_tail;
  uint64_t releases;
  int tracing;
  uint64_t *snap; /* trace: issued[] at the last event */
} prof_thread;

/* One dispatch's figures and the memory behind their pointers. */
typedef struct prof_result {
  ls_prof_dispatch d;
  ls_prof_mem *mem;
  ls_prof_branch *branch;
  ls_prof_loop *loop;
  ls_prof_line *line;
  char *entry, *file, *src;
  char **names;
  uint32_t nnames;
  ls_prof_trace trace;
  ls_prof_step **tsteps;
  uint32_t *tn;
} prof_result;

/* a full texel request's keys and their changes (prof_keys_body) */
typedef void (*prof_keys_fn)(const uint32_t *, const uint32_t *, const uint32_t *,
                             const uint32_t *, unsigned, unsigned, unsigned, uint64_t *,
                             uint64_t *, unsigned[2], unsigned[2]);

struct ls_profiler {
  void *host; /* the device it is attached to, for the API's glue */
  prof_keys_fn keys; /* a full texel request's keys, for this CPU */
  vm_observer obs;
  unsigned nthreads;
  ls_profiler_options opt;
  ls_memory_model model; /* resolved for the device */
  ls_cost_model cost;    /* likewise (prof_cost.c) */
  uint64_t *bsizes;      /* the next dispatch's bound bytes per binding slot */
  uint32_t nbsizes;
  unsigned sshift, lshift; /* log2 of the model's sector and line bytes,
                              computed once: prof_mem runs on every access */
  uint64_t **issued, **lanes;
  uint64_t **empty; /* issued with no live lane (observe.h): not issued on a GPU */
  /* the VM's summaries (observe.h): coalesced[t] has (capcode << klog)
   * entries, the alignment of a request's first word within a line */
  uint64_t **coalesced, **uniform, **divergent;
  unsigned klog;
  prof_thread *th;
  /* the dispatch running */
  const ir_program *prog;
  uint32_t ncode, capcode, width, nsub, capsub, ninv, nmasks;
  uint32_t groups[3];
  uint32_t dispatches; /* dispatches seen, traced or not */
  int broken;          /* out of memory: this dispatch gives no figures */
  prof_result **res;
  size_t nres, capres;
};

/* ------------------------------------------------------------ utilities */

static unsigned prof_log2(uint32_t v) {
  unsigned s = 0;
  while ((1u << s) < v) s++;
  return s;
}

static void prof_sort(uint64_t *a, unsigned n) {
  for (unsigned i = 1; i < n; i++) {
    uint64_t v = a[i];
    unsigned j = i;
    while (j && a[j - 1] > v) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = v;
  }
}

static uint64_t prof_flat(const ls_profiler *p, const uint32_t g[3]) {
  return (uint64_t)g[0] + (uint64_t)p->groups[0] * ((uint64_t)g[1] + (uint64_t)p->groups[1] * g[2]);
}

/* Lanes of subgroup s that hold an invocation (the last subgroup of a
 * workgroup whose size is no multiple of W has fewer). */
static uint64_t prof_valid(const ls_profiler *p, uint32_t s) {
  uint64_t first = (uint64_t)s * p->width;
  if (first >= p->ninv) return 0;
  uint64_t n = p->ninv - first;
  if (n >= p->width) return p->width == 64 ? ~0ull : ((1ull << p->width) - 1);
  return (1ull << n) - 1;
}

/* --------------------------------------------------------------- tracing */

static void prof_trace_push(ls_profiler *p, prof_sub *s, uint32_t pc, uint64_t mask,
                            uint32_t flags) {
  uint32_t limit = p->opt.trace_limit ? p->opt.trace_limit : 4096;
  if (s->nsteps >= limit) {
    s->nsteps = limit + 1; /* marks truncation */
    return;
  }
  if (s->nsteps == s->capsteps) {
    uint32_t nc = s->capsteps ? s->capsteps * 2 : 256;
    ls_prof_step *ns = realloc(s->steps, (size_t)nc * sizeof *ns);
    if (!ns) return;
    s->steps = ns;
    s->capsteps = nc;
  }
  s->steps[s->nsteps].pc = pc;
  s->steps[s->nsteps].flags = flags;
  s->steps[s->nsteps].mask = mask;
  s->nsteps++;
}

/* Replays the instructions subgroup si issued since the last event (read
 * from the VM's per-pc counters: between two events control only moves
 * forward, so they ran in pc order) and rebuilds the execution mask as
 * MSAVE / MLOAD / KILL change it. The event's own instruction is pushed by
 * the caller, with the mask the event carries. */
static void prof_trace_segment(ls_profiler *p, unsigned t, uint32_t si, uint32_t evpc) {
  prof_thread *th = &p->th[t];
  prof_sub *s = &p->th[t].sub[si];
  const uint64_t *is = p->issued[t];
  int counted = 0;
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    uint64_t d = is[pc] - th->snap[pc];
    if (!d) continue;
    th->snap[pc] = is[pc];
    if (pc == evpc) {
      counted = 1;
      continue;
    }
    const ir_insn *in = &p->prog->code[pc];
    prof_trace_push(p, s, pc, s->exec, 0);
    switch (in->op) {
    case IR_MSAVE:
      if (in->a < p->nmasks) s->slots[in->a] = s->exec;
      break;
    case IR_MLOAD:
      if (in->a < p->nmasks) s->exec = s->slots[in->a];
      break;
    case IR_KILL:
      for (uint32_t k = in->a; k < in->b && k < p->nmasks; k++) s->slots[k] &= ~s->exec;
      s->exec = 0;
      break;
    default:
      break;
    }
  }
  /* The event's instruction may be counted after its callback: mark it
   * seen now so the next segment does not replay it. */
  if (evpc < p->ncode && !counted) th->snap[evpc] = is[evpc] + 1;
}


/* ------------------------------------------------------------- callbacks */

static void prof_free_threads_sub(ls_profiler *p) {
  for (unsigned t = 0; t < p->nthreads; t++) {
    for (uint32_t s = 0; s < p->capsub && p->th[t].sub; s++) {
      free(p->th[t].sub[s].slots);
      free(p->th[t].sub[s].steps);
    }
    free(p->th[t].sub);
    p->th[t].sub = NULL;
  }
  p->capsub = 0;
}

static void prof_dispatch_begin(void *user, const ir_program *prog, const uint32_t groups[3],
                                uint32_t width) {
  ls_profiler *p = user;
  p->prog = prog;
  p->ncode = prog->ncode;
  p->width = width;
  memcpy(p->groups, groups, sizeof p->groups);
  p->ninv = prog->wg_size[0] * prog->wg_size[1] * prog->wg_size[2];
  p->nsub = (p->ninv + width - 1) / width;
  p->nmasks = prog->nmasks;
  p->broken = 0;
  if (p->ncode + 1 > p->capcode) {
    uint32_t nc = p->ncode + 1;
    for (unsigned t = 0; t < p->nthreads; t++) {
      uint64_t *a = realloc(p->issued[t], (size_t)nc * sizeof *a);
      if (a) p->issued[t] = a;
      uint64_t *b = realloc(p->lanes[t], (size_t)nc * sizeof *b);
      if (b) p->lanes[t] = b;
      prof_pc *c = realloc(p->th[t].pc, (size_t)nc * sizeof *c);
      if (c) p->th[t].pc = c;
      uint64_t *d = realloc(p->th[t].snap, (size_t)nc * sizeof *d);
      if (d) p->th[t].snap = d;
      uint64_t *e = realloc(p->coalesced[t], ((size_t)nc << p->klog) * sizeof *e);
      if (e) p->coalesced[t] = e;
      uint64_t *f = realloc(p->uniform[t], (size_t)nc * sizeof *f);
      if (f) p->uniform[t] = f;
      uint64_t *g = realloc(p->divergent[t], (size_t)nc * sizeof *g);
      if (g) p->divergent[t] = g;
      uint64_t *h = realloc(p->empty[t], (size_t)nc * sizeof *h);
      if (h) p->empty[t] = h;
      if (!a || !b || !c || !d || !e || !f || !g || !h) p->broken = 1;
    }
    if (!p->broken) p->capcode = nc;
  }
  if (p->nsub > p->capsub || p->broken) {
    prof_free_threads_sub(p);
    for (unsigned t = 0; t < p->nthreads && !p->broken; t++) {
      p->th[t].sub = calloc(p->nsub, sizeof *p->th[t].sub);
      if (!p->th[t].sub) p->broken = 1;
    }
    if (!p->broken) p->capsub = p->nsub;
  }
  for (unsigned t = 0; t < p->nthreads && !p->broken; t++) {
    prof_thread *th = &p->th[t];
    memset(p->issued[t], 0, (size_t)p->capcode * sizeof(uint64_t));
    memset(p->lanes[t], 0, (size_t)p->capcode * sizeof(uint64_t));
    memset(p->empty[t], 0, (size_t)p->capcode * sizeof(uint64_t));
    memset(p->coalesced[t], 0, ((size_t)p->capcode << p->klog) * sizeof(uint64_t));
    memset(p->uniform[t], 0, (size_t)p->capcode * sizeof(uint64_t));
    memset(p->divergent[t], 0, (size_t)p->capcode * sizeof(uint64_t));
    memset(th->pc, 0, (size_t)p->capcode * sizeof *th->pc);
    th->early = th->tail = th->tail_groups = th->releases = 0;
    th->tail_first = UINT64_MAX;
    th->tail_last = 0;
    th->tracing = 0;
    for (uint32_t s = 0; s < p->nsub; s++) {
      free(th->sub[s].slots);
      th->sub[s].slots = calloc(p->nmasks + 1, sizeof(uint64_t));
      if (!th->sub[s].slots) p->broken = 1;
      th->sub[s].nsteps = 0;
    }
  }
  /* Out of memory, some arrays may be shorter than this program: the VM
   * must not count into them (it counts into its own, and every callback
   * returns at once). */
  vm_observer *ob = &p->obs;
  ob->issued = p->broken ? NULL : p->issued;
  ob->lanes = p->broken ? NULL : p->lanes;
  ob->empty = p->broken ? NULL : p->empty;
  ob->coalesced = p->broken || p->lshift - 2 > 12 ? NULL : p->coalesced;
  ob->uniform = p->broken ? NULL : p->uniform;
  ob->divergent = p->broken ? NULL : p->divergent;
}

static int prof_group_begin(void *user, unsigned t, const uint32_t g[3]) {
  ls_profiler *p = user;
  if (p->broken) return 0;
  prof_thread *th = &p->th[t];
  memcpy(th->group, g, sizeof th->group);
  th->group_tail = 0;
  int keep = th->tracing == -1; /* the traced group ran on this thread earlier */
  th->tracing = keep ? -1 : p->opt.trace && p->dispatches == p->opt.trace_dispatch &&
                g[0] == p->opt.trace_group[0] && g[1] == p->opt.trace_group[1] &&
                g[2] == p->opt.trace_group[2];
  for (uint32_t s = 0; s < p->nsub; s++) {
    th->sub[s].nloops = 0;
    if (th->tracing > 0) {
      th->sub[s].exec = prof_valid(p, s);
      memset(th->sub[s].slots, 0, (p->nmasks + 1) * sizeof(uint64_t));
      th->sub[s].nsteps = 0;
    }
  }
  if (th->tracing > 0) memcpy(th->snap, p->issued[t], (size_t)p->ncode * sizeof(uint64_t));
  return th->tracing > 0; /* the traced group: every event, live counts */
}

static void prof_group_end(void *user, unsigned t, const uint32_t g[3]) {
  ls_profiler *p = user;
  if (p->broken) return;
  prof_thread *th = &p->th[t];
  if (th->group_tail) {
    uint64_t f = prof_flat(p, g);
    th->tail_groups++;
    if (f < th->tail_first) th->tail_first = f;
    if (f > th->tail_last) th->tail_last = f;
  }
  /* keep the steps: dispatch_end copies them (the group runs once) */
  if (th->tracing > 0) th->tracing = -1;
}

/* The number of distinct values among n <= PROF_MAXLANES in any order. A
 * few (the runs a request's tile keys leave, one or two per row) are
 * compared pairwise; more go through a small open-addressed set, where
 * sorting first would cost a quadratic insertion sort. */
static uint64_t prof_distinct_any(const uint64_t *a, unsigned n) {
  if (n <= 8) {
    uint64_t c = 0;
    for (unsigned i = 0; i < n; i++) {
      unsigned j = 0;
      while (j < i && a[j] != a[i]) j++;
      c += j == i;
    }
    return c;
  }
  enum { SLOTS = 2 * PROF_MAXLANES };
  uint64_t key[SLOTS];
  uint8_t used[SLOTS];
  memset(used, 0, sizeof used);
  uint64_t c = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned h = (unsigned)((a[i] * UINT64_C(0x9e3779b97f4a7c15)) >> 56) & (SLOTS - 1);
    while (used[h] && key[h] != a[i]) h = (h + 1) & (SLOTS - 1);
    if (!used[h]) {
      used[h] = 1;
      key[h] = a[i];
      c++;
    }
  }
  return c;
}

/* The distinct values of sorted a[0..n) at four shifts at once: one pass,
 * where a value differs from the one before it at shift s when their
 * exclusive or does. */
static void prof_distinct4(const uint64_t *a, unsigned n, const unsigned sh[4], uint64_t out[4]) {
  uint64_t c0 = 1, c1 = 1, c2 = 1, c3 = 1;
  for (unsigned i = 1; i < n; i++) {
    const uint64_t x = a[i] ^ a[i - 1];
    c0 += (x >> sh[0]) != 0;
    c1 += (x >> sh[1]) != 0;
    c2 += (x >> sh[2]) != 0;
    c3 += (x >> sh[3]) != 0;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* The changes of unit (2^sh[k] bytes) inside a run of steps + 1 elements
 * nb bytes apart from a to b, added to d[k]: every step changes it where
 * an element is at least a unit, and where it is smaller every unit from
 * a's to b's is met (each step moves less than one), so the changes are
 * their distance. */
static inline void prof_run_changes(uint64_t a, uint64_t b, unsigned steps, uint64_t nb,
                                    const unsigned sh[4], uint64_t d[4]) {
  for (int k = 0; k < 4; k++)
    d[k] += nb >= (UINT64_C(1) << sh[k]) ? steps : (b >> sh[k]) - (a >> sh[k]);
}

static void prof_mem(void *user, unsigned t, const vm_mem_event *e) {
  ls_profiler *p = user;
  if (p->broken || !e->mask || e->space == VM_SPACE_PRIVATE || e->pc >= p->ncode) return;
  prof_thread *th = &p->th[t];
  uint32_t si = e->where->subgroup;
  if (th->tracing > 0 && si < p->nsub) {
    prof_trace_segment(p, t, si, e->pc);
    prof_trace_push(p, &th->sub[si], e->pc, e->mask, LS_PROF_STEP_MEM);
  }

  prof_pc *pc = &th->pc[e->pc];
  if (e->space == VM_SPACE_BUFFER && e->size > pc->bind_bytes) pc->bind_bytes = e->size;
  const unsigned ss = p->sshift, ls = p->lshift;
  const unsigned W = e->where->width;
  /* Fast paths for a full subgroup (most requests): every lane reads the
   * next word (coalesced), or all read one word (a uniform value). The
   * figures follow by arithmetic, with no walk over the lanes' bits. */
  const uint64_t nb = e->bytes ? e->bytes : 4u; /* 2 for an f16 */
  const int full = e->mask == (W == 64 ? UINT64_MAX : (UINT64_C(1) << W) - 1);
  if (full && e->space == VM_SPACE_BUFFER && e->access != VM_ATOMIC && nb == 4u) {
    const uint64_t a0 = e->addr[0];
    const int seq = e->consecutive, uni = e->uniform;
    const uint64_t last = seq ? a0 + 4u * (W - 1) : a0;
    if ((seq || uni) && last + 4 <= e->size && last >= a0) {
      uint64_t sectors = (last >> ss) - (a0 >> ss) + 1, lines = (last >> ls) - (a0 >> ls) + 1;
      pc->requests++;
      pc->lanes += W;
      pc->unique_bytes += seq ? 4u * W : 4;
      pc->sectors += sectors;
      pc->lines += lines;
      pc->regions += (last >> 16) - (a0 >> 16) + 1;
      pc->uniform += !seq;
      if (sectors > pc->max_sectors) pc->max_sectors = sectors;
      if (lines > pc->max_lines) pc->max_lines = lines;
      return;
    }
  }
  uint64_t a[PROF_MAXLANES];
  const uint64_t *v = a; /* the addresses counted: a, or the event's own row */
  unsigned n = 0, lanes = 0;
  if (full) {
    /* every lane: no walk over the mask's bits; with every lane in bounds
     * (the highest address is: one compare a lane, no branch) the event's
     * row is counted as it is */
    uint64_t hi = 0;
    for (unsigned l = 0; l < W; l++) hi = e->addr[l] > hi ? e->addr[l] : hi;
    if (hi + nb <= e->size && hi + nb >= hi) {
      v = e->addr;
      n = W;
    } else {
      for (unsigned l = 0; l < W; l++) {
        const uint64_t ad = e->addr[l];
        a[n] = ad;
        n += ad + nb <= e->size && ad + nb >= ad;
      }
    }
    lanes = W;
  } else {
    for (uint64_t m = e->mask; m; m &= m - 1) {
      const uint64_t ad = e->addr[__builtin_ctzll(m)];
      lanes++;
      /* a lane out of bounds is counted, not kept */
      a[n] = ad;
      n += ad + nb <= e->size && ad + nb >= ad;
    }
  }
  pc->requests++;
  pc->lanes += lanes;
  pc->oob += lanes - n;
  if (!n) return;
  /* One pass: whether the addresses are in order, and their runs of
   * consecutive elements (a 2D workgroup's rows). Where they are in order,
   * the distinct words, sectors, lines and 64 KiB regions are 1 plus the
   * lanes where the unit changes: at a run's end, tested; inside a run, by
   * arithmetic (prof_run_changes), with no work per lane. */
  const unsigned sh[4] = {nb == 2u ? 1u : 2u, ss, ls, 16};
  uint64_t d[4] = {1, 1, 1, 1};
  int sorted = 1;
  unsigned rs = 0; /* where the current run starts */
  for (unsigned i = 1; i < n; i++) {
    sorted &= v[i] >= v[i - 1];
    if (v[i] != v[i - 1] + nb) {
      prof_run_changes(v[rs], v[i - 1], i - 1 - rs, nb, sh, d);
      const uint64_t x = v[i] ^ v[i - 1];
      for (int k = 0; k < 4; k++) d[k] += (x >> sh[k]) != 0;
      rs = i;
    }
  }
  prof_run_changes(v[rs], v[n - 1], n - 1 - rs, nb, sh, d);
  uint64_t same = 1;
  if (!sorted) {
    if (v != a) memcpy(a, v, n * sizeof *a);
    v = a;
    prof_sort(a, n);
    prof_distinct4(a, n, sh, d);
  }
  if (e->access == VM_ATOMIC) {
    uint64_t run = 1;
    for (unsigned i = 1; i < n; i++) {
      run = v[i] == v[i - 1] ? run + 1 : 1;
      if (run > same) same = run;
    }
  }
  const uint64_t words = d[0], sectors = d[1], lines = d[2], regions = d[3];
  pc->unique_bytes += words * nb;
  pc->sectors += sectors;
  pc->lines += lines;
  pc->regions += regions;
  if (e->space == VM_SPACE_BUFFER && words == 1) pc->uniform++;
  if (sectors > pc->max_sectors) pc->max_sectors = sectors;
  if (lines > pc->max_lines) pc->max_lines = lines;
  if (e->access == VM_ATOMIC) {
    pc->same_sum += same;
    if (same > pc->same_max) pc->same_max = same;
    pc->aops += words;
    pc->hot += words == 1;
  }
  if (e->space == VM_SPACE_WORKGROUP) {
    /* Banks: lanes are served min(W, banks) at a time (a wave64 on 32
     * banks takes two passes even without conflicts); within a pass, the
     * degree is the most distinct bank-words one bank must deliver (the
     * same word to several lanes is a broadcast). */
    unsigned chunk = p->width < p->model.banks ? p->width : p->model.banks;
    unsigned bs = prof_log2(p->model.bank_bytes);
    uint64_t degree = 0;
    for (unsigned c0 = 0; c0 < p->width; c0 += chunk) {
      uint64_t w[PROF_MAXLANES];
      unsigned k = 0;
      for (unsigned l = c0; l < c0 + chunk && l < 64; l++)
        if (((e->mask >> l) & 1) && e->addr[l] + nb <= e->size) w[k++] = e->addr[l] >> bs;
      if (!k) continue;
      prof_sort(w, k);
      unsigned cnt[PROF_MAXLANES];
      memset(cnt, 0, sizeof cnt);
      for (unsigned i = 0; i < k; i++) {
        if (i && w[i] == w[i - 1]) continue;
        unsigned bank = (unsigned)(w[i] & (p->model.banks - 1));
        if (++cnt[bank] > degree) degree = cnt[bank];
      }
    }
    pc->conflict_sum += degree;
    if (degree > pc->conflict_max) pc->conflict_max = degree;
  }
}

/* The texture tile a texel falls in (docs/profiler.md, "Texel traffic"):
 * tile_bytes / texel bytes texels (at least one), 2^ceil(k/2) wide and
 * 2^floor(k/2) tall for 2^k of them; a 1D texture's tile is one row. */
static void prof_tile_shape(uint32_t tile_bytes, uint32_t texel_bytes, int one_d, unsigned *wlog,
                            unsigned *hlog) {
  uint32_t n = texel_bytes && tile_bytes > texel_bytes ? tile_bytes / texel_bytes : 1;
  unsigned k = prof_log2(n);
  *wlog = one_d ? k : (k + 1) / 2;
  *hlog = one_d ? 0 : k / 2;
}

/* Texel and tile keys: level, z (layer or depth), y, x in 5 + 17 + 21 + 21
 * bits; coordinates in bounds are below WebGPU's largest limits (16384
 * wide, 2048 deep or layers), so distinct texels have distinct keys. */
static uint64_t prof_texel_key(uint32_t lv, uint32_t z, uint32_t y, uint32_t x) {
  return (uint64_t)(lv & 31) << 59 | (uint64_t)(z & 0x1ffff) << 42 |
         (uint64_t)(y & 0x1fffff) << 21 | (uint64_t)(x & 0x1fffff);
}

/* Texel and tile keys of every lane of a full request (tk, ti), then the
 * changes from lane to lane and whether the keys ever go down (cnt, rise:
 * texels, then tiles), each in a loop with no branch, so that the
 * compiler makes vector code of both; prof_texel's lane-by-lane loop,
 * which skips lanes, cannot be. */
static inline __attribute__((always_inline)) void
prof_keys_body(const uint32_t *cx, const uint32_t *cy, const uint32_t *cz, const uint32_t *cl,
               unsigned W, unsigned wl, unsigned hl, uint64_t *tk, uint64_t *ti, unsigned cnt[2],
               unsigned rise[2]) {
  for (unsigned l = 0; l < W; l++) {
    tk[l] = prof_texel_key(cl[l], cz[l], cy[l], cx[l]);
    ti[l] = prof_texel_key(cl[l], cz[l], cy[l] >> hl, cx[l] >> wl);
  }
  uint64_t nk = 1, nt = 1, kr = 1, tr = 1; /* 64 bits, as the keys: vectorised */
  for (unsigned l = 1; l < W; l++) {
    nk += tk[l] != tk[l - 1];
    kr &= tk[l] >= tk[l - 1];
    nt += ti[l] != ti[l - 1];
    tr &= ti[l] >= ti[l - 1];
  }
  cnt[0] = (unsigned)nk;
  cnt[1] = (unsigned)nt;
  rise[0] = (unsigned)kr;
  rise[1] = (unsigned)tr;
}

static void prof_keys_base(const uint32_t *cx, const uint32_t *cy, const uint32_t *cz,
                           const uint32_t *cl, unsigned W, unsigned wl, unsigned hl, uint64_t *tk,
                           uint64_t *ti, unsigned cnt[2], unsigned rise[2]) {
  prof_keys_body(cx, cy, cz, cl, W, wl, hl, tk, ti, cnt, rise);
}

#if defined(__GNUC__) && defined(__x86_64__)
/* The same loops in 256-bit vectors (64-bit compares and widening loads
 * the baseline lacks), where the interpreter's variant says the CPU has
 * them: a third of the profiler's work on a sampling kernel. */
__attribute__((target("avx2"))) static void
prof_keys_avx2(const uint32_t *cx, const uint32_t *cy, const uint32_t *cz, const uint32_t *cl,
               unsigned W, unsigned wl, unsigned hl, uint64_t *tk, uint64_t *ti, unsigned cnt[2],
               unsigned rise[2]) {
  prof_keys_body(cx, cy, cz, cl, W, wl, hl, tk, ti, cnt, rise);
}
#endif

static prof_keys_fn prof_keys_pick(void) {
#if defined(__GNUC__) && defined(__x86_64__)
  if (strcmp(vm_isa_name(), "sse2")) return prof_keys_avx2;
#endif
  return prof_keys_base;
}

/* The distinct values among the first n of a, which holds runs of equal
 * values: the runs are moved to the front first (n <= 8 then compares
 * them pairwise). */
static uint64_t prof_distinct_runs(uint64_t *a, unsigned n) {
  unsigned r = 1;
  for (unsigned i = 1; i < n; i++)
    if (a[i] != a[i - 1]) a[r++] = a[i];
  return prof_distinct_any(a, r);
}

static void prof_texel(void *user, unsigned t, const vm_texel_event *e) {
  ls_profiler *p = user;
  if (p->broken || !e->mask || e->pc >= p->ncode || !e->tex) return;
  prof_thread *th = &p->th[t];
  const uint32_t si = e->where->subgroup;
  if (th->tracing > 0 && si < p->nsub) {
    prof_trace_segment(p, t, si, e->pc);
    prof_trace_push(p, &th->sub[si], e->pc, e->mask, LS_PROF_STEP_MEM);
  }
  prof_pc *pc = &th->pc[e->pc];
  const vm_texture *tx = e->tex;
  const uint32_t tb = tx->texel_bytes;
  const int one_d = e->slot < p->prog->nbindings && p->prog->bindings[e->slot].tex_dim == IR_TEXDIM_1D;
  unsigned wl, hl;
  prof_tile_shape(p->model.tile_bytes, tb, one_d, &wl, &hl);
  const uint64_t live = e->mask & ~e->oob;
  const unsigned lanes = bitfn_popcount64(e->mask);
  pc->requests++;
  pc->lanes += lanes;
  pc->tbytes += (uint64_t)lanes * tb;
  pc->oob += bitfn_popcount64(e->oob);
  pc->texel_bytes = tb;
  pc->tile_w = 1u << wl;
  pc->tile_h = 1u << hl;
  if (!live) return;
  /* a missing coordinate row reads as 0 */
  static const uint32_t zero[PROF_MAXLANES];
  const uint32_t *const cx = e->coord[0] ? e->coord[0] : zero;
  const uint32_t *const cy = e->coord[1] ? e->coord[1] : zero;
  const uint32_t *const cz = e->coord[2] ? e->coord[2] : zero;
  const uint32_t *const cl = e->coord[3] ? e->coord[3] : zero;
  /* In lane order a row of texels is in order, and its tiles too. The
   * changes from lane to lane are counted: where the texels never go down,
   * those are the distinct texels, with nothing to sort. The tiles change
   * a few times (a row may start left of the one before): their runs are
   * kept and compared pairwise. A full request does it in vector code
   * (p->keys); one with lanes off, lane by lane, with no branch but the
   * lane test. */
  uint64_t tk[PROF_MAXLANES], ti[PROF_MAXLANES];
  const unsigned W = e->where->width < 64 ? e->where->width : 64; /* live has 64 bits */
  uint64_t texels, tiles;
  if (live == (W == 64 ? ~(uint64_t)0 : (UINT64_C(1) << W) - 1)) {
    unsigned cnt[2], rise[2];
    p->keys(cx, cy, cz, cl, W, wl, hl, tk, ti, cnt, rise);
    texels = rise[0] ? cnt[0] : prof_distinct_runs(tk, W);
    tiles = rise[1] ? cnt[1] : prof_distinct_runs(ti, W);
  } else {
    unsigned l = (unsigned)__builtin_ctzll(live);
    uint64_t pk = prof_texel_key(cl[l], cz[l], cy[l], cx[l]);
    uint64_t pt = prof_texel_key(cl[l], cz[l], cy[l] >> hl, cx[l] >> wl);
    unsigned nk = 1, nt = 1;
    int krise = 1, trise = 1;
    tk[0] = pk;
    ti[0] = pt;
    for (l++; l < W; l++) {
      if (!((live >> l) & 1)) continue;
      const uint64_t k = prof_texel_key(cl[l], cz[l], cy[l], cx[l]);
      const uint64_t t = prof_texel_key(cl[l], cz[l], cy[l] >> hl, cx[l] >> wl);
      tk[nk] = k;
      nk += k != pk;
      krise &= k >= pk;
      ti[nt] = t;
      nt += t != pt;
      trise &= t >= pt;
      pk = k;
      pt = t;
    }
    /* (tk holds the runs too: a lane equal to the one before was written
     * over by the next) */
    texels = krise ? nk : prof_distinct_any(tk, nk);
    tiles = trise ? nt : prof_distinct_any(ti, nt);
  }
  pc->texels += texels;
  pc->unique_bytes += texels * tb;
  pc->tiles += tiles;
  if (tiles > pc->max_tiles) pc->max_tiles = tiles;
}

static void prof_branch(void *user, unsigned t, const vm_where *w, uint32_t pc, uint64_t before,
                        uint64_t after) {
  ls_profiler *p = user;
  if (p->broken || pc >= p->ncode) return;
  prof_thread *th = &p->th[t];
  /* the VM counts evaluations (issued[]) and divergence (divergent[]);
   * only the trace needs the call */
  int div = after != 0 && after != before;
  if (th->tracing > 0 && w->subgroup < p->nsub) {
    prof_sub *s = &th->sub[w->subgroup];
    prof_trace_segment(p, t, w->subgroup, pc);
    prof_trace_push(p, s, pc, s->exec,
                    LS_PROF_STEP_BRANCH | (div && p->prog->code[pc].op == IR_MAND
                                               ? LS_PROF_STEP_DIVERGENT
                                               : 0));
    s->exec = after;
  }
}

/* Whether (group, sub) comes before (og, osub) in dispatch order (z, then y,
 * then x, then subgroup). The worst loop instance is the one with the
 * largest spread and, among ties, the first in this order, so which
 * workgroup a report names does not depend on which thread ran which. */
static int prof_earlier(const uint32_t group[3], uint32_t sub, const uint32_t og[3],
                        uint32_t osub) {
  for (int k = 2; k >= 0; k--)
    if (group[k] != og[k]) return group[k] < og[k];
  return sub < osub;
}

static void prof_loop_close(ls_profiler *p, prof_thread *th, const vm_where *w,
                            const prof_loopinst *li) {
  prof_pc *c = &th->pc[li->pc];
  unsigned lanes = bitfn_popcount64(li->seen);
  c->inst++;
  c->sub_trips += li->trips;
  c->lane_trips += li->lane_trips;
  c->loop_lanes += lanes;
  if (li->trips > c->max_trips) c->max_trips = li->trips;
  c->eff_num += (double)li->lane_trips;
  c->eff_den += (double)li->trips * lanes;
  if (lanes) {
    double spread = li->trips - (double)li->lane_trips / lanes;
    c->spread_sum += spread;
    if (c->inst == 1 || spread > c->spread_max ||
        (spread == c->spread_max &&
         prof_earlier(th->group, w->subgroup, c->worst_group, c->worst_sub))) {
      c->spread_max = spread;
      memcpy(c->worst_group, th->group, sizeof c->worst_group);
      c->worst_sub = w->subgroup;
    }
  }
}

static void prof_loop(void *user, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec) {
  ls_profiler *p = user;
  if (p->broken || pc >= p->ncode || w->subgroup >= p->nsub) return;
  prof_thread *th = &p->th[t];
  prof_sub *s = &th->sub[w->subgroup];
  if (th->tracing > 0) {
    prof_trace_segment(p, t, w->subgroup, pc);
    prof_trace_push(p, s, pc, exec, LS_PROF_STEP_LOOP);
    s->exec = exec;
  }
  int k = (int)s->nloops - 1;
  while (k >= 0 && s->loops[k].pc != pc) k--;
  if (k < 0) {
    if (s->nloops == PROF_MAXNEST) return;
    k = (int)s->nloops++;
    memset(&s->loops[k], 0, sizeof s->loops[k]);
    s->loops[k].pc = pc;
  }
  prof_loopinst *li = &s->loops[k];
  if (exec) {
    li->trips++;
    li->lane_trips += bitfn_popcount64(exec);
    li->seen |= exec;
    return;
  }
  /* The loop is over for this subgroup (and any instance still open above
   * it, which cannot outlive it). */
  prof_loop_close(p, th, w, li);
  s->nloops = (uint32_t)k;
}

static void prof_barrier(void *user, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec,
                         uint64_t alive) {
  ls_profiler *p = user;
  if (p->broken || pc >= p->ncode) return;
  prof_thread *th = &p->th[t];
  /* the count is issued[pc]; only the trace needs the call */
  if (th->tracing > 0 && w->subgroup < p->nsub) {
    prof_trace_segment(p, t, w->subgroup, pc);
    prof_trace_push(p, &th->sub[w->subgroup], pc, exec, LS_PROF_STEP_BARRIER);
  }
}

static void prof_release(void *user, unsigned t, const uint32_t group[3], const uint32_t *pcs,
                         uint32_t nsub) {
  ls_profiler *p = user;
  if (!p->broken) p->th[t].releases++;
}

static void prof_subgroup_end(void *user, unsigned t, const vm_where *w, uint64_t alive,
                              uint64_t wrote) {
  ls_profiler *p = user;
  if (p->broken || w->subgroup >= p->nsub) return;
  prof_thread *th = &p->th[t];
  uint64_t valid = prof_valid(p, w->subgroup);
  uint64_t gone = valid & ~alive;
  uint64_t tail = gone & ~wrote;
  th->early += bitfn_popcount64(gone);
  th->tail += bitfn_popcount64(tail);
  th->group_tail += bitfn_popcount64(tail);
  if (th->tracing > 0) prof_trace_segment(p, t, w->subgroup, UINT32_MAX);
}

/* ----------------------------------------------------------------- merge */

static void prof_result_free(prof_result *r) {
  if (!r) return;
  free(r->mem);
  free(r->branch);
  free(r->loop);
  free(r->line);
  free(r->entry);
  free(r->file);
  free(r->src);
  for (uint32_t i = 0; i < r->nnames; i++) free(r->names[i]);
  free(r->names);
  for (uint32_t s = 0; r->tsteps && s < r->trace.subgroups; s++) free(r->tsteps[s]);
  free(r->tsteps);
  free(r->tn);
  free(r);
}

static char *prof_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static int prof_is_half(unsigned op) {
  return op == IR_LDBH || op == IR_STBH || op == IR_LDWH || op == IR_STWH;
}

static int prof_is_mem(unsigned op) {
  return op == IR_LDB || op == IR_STB || op == IR_LDW || op == IR_STW || op == IR_ATOMB ||
         op == IR_ATOMW || prof_is_half(op);
}

/* The opcodes that report texel requests (vm_texel_event). */
static int prof_is_texel(unsigned op) {
  return op == IR_TLD || op == IR_TST || op == IR_TSMP;
}


/* Adds thread t's summarised requests (observe.h) to the merged figures:
 * the same sums prof_mem's fast path makes, one alignment at a time. The
 * first address a matters only modulo a line (a line holds whole sectors),
 * so bucket k stands for a = 4k. */
static void prof_add_summaries(const ls_profiler *p, unsigned t, prof_pc *all) {
  const unsigned ss = p->sshift, ls = p->lshift, W = p->width;
  const uint64_t K = UINT64_C(1) << p->klog;
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    prof_pc *a = &all[pc];
    const uint64_t *co = p->coalesced[t] + ((size_t)pc << p->klog);
    for (uint64_t k = 0; k < K; k++) {
      const uint64_t c = co[k];
      if (!c) continue;
      const uint64_t a0 = 4 * k, last = a0 + 4u * (W - 1);
      const uint64_t sectors = (last >> ss) - (a0 >> ss) + 1, lines = (last >> ls) - (a0 >> ls) + 1;
      a->requests += c;
      a->lanes += c * W;
      a->unique_bytes += c * 4u * W;
      a->sectors += c * sectors;
      a->lines += c * lines;
      a->regions += c; /* a line at most: one region, but for a boundary every 64 KiB */
      if (sectors > a->max_sectors) a->max_sectors = sectors;
      if (lines > a->max_lines) a->max_lines = lines;
    }
    const uint64_t u = p->uniform[t][pc];
    if (u) {
      a->requests += u;
      a->lanes += u * W;
      a->unique_bytes += u * 4;
      a->sectors += u;
      a->lines += u;
      a->regions += u;
      a->uniform += u;
      if (a->max_sectors < 1) a->max_sectors = 1;
      if (a->max_lines < 1) a->max_lines = 1;
    }
  }
}

/* Builds the result of the dispatch that just ended from every thread's
 * accumulators. Returns NULL when memory runs out. */
static prof_result *prof_merge(ls_profiler *p) {
  const ir_program *prog = p->prog;
  uint32_t n = p->ncode;
  prof_result *r = calloc(1, sizeof *r);
  prof_pc *all = calloc(n + 1, sizeof *all);
  uint64_t *iss = calloc(n + 1, sizeof *iss), *lan = calloc(n + 1, sizeof *lan);
  uint64_t *emp = calloc(n + 1, sizeof *emp);
  if (!r || !all || !iss || !lan || !emp) goto fail;
  ls_prof_dispatch *d = &r->d;
  d->index = p->dispatches;
  d->width = p->width;
  memcpy(d->groups, p->groups, sizeof d->groups);
  memcpy(d->wg_size, prog->wg_size, sizeof d->wg_size);
  d->memory = p->model;
  d->counted = 1;
  r->entry = prof_strdup(prog->entry_point);
  r->file = prof_strdup(prog->filename ? prog->filename : "shader.wgsl");
  if (prog->source) {
    r->src = malloc(prog->source_len + 1);
    if (r->src) {
      memcpy(r->src, prog->source, prog->source_len);
      r->src[prog->source_len] = 0;
    }
  }
  d->entry_point = r->entry;
  d->filename = r->file;
  d->source = r->src;
  d->source_len = r->src ? prog->source_len : 0;
  r->names = calloc(prog->nbindings + 1, sizeof *r->names);
  if (!r->names) goto fail;
  r->nnames = prog->nbindings;
  for (uint32_t i = 0; i < prog->nbindings; i++) r->names[i] = prof_strdup(prog->bindings[i].name);

  uint64_t tail_first = UINT64_MAX, tail_last = 0;
  for (unsigned t = 0; t < p->nthreads; t++) {
    prof_thread *th = &p->th[t];
    for (uint32_t pc = 0; pc < n; pc++) {
      prof_pc *a = &all[pc], *b = &th->pc[pc];
      /* a subgroup with no live lane issues nothing on a GPU: the VM's
       * bookkeeping after a loop's last lane left (the exit itself is the
       * KILL or branch that still had the leaving lanes), the jump over a
       * branch no lane took (its test had the lanes) */
      iss[pc] += p->issued[t][pc] - p->empty[t][pc];
      emp[pc] += p->empty[t][pc];
      lan[pc] += p->lanes[t][pc];
      a->requests += b->requests;
      a->lanes += b->lanes;
      a->unique_bytes += b->unique_bytes;
      a->oob += b->oob;
      a->sectors += b->sectors;
      a->lines += b->lines;
      if (b->max_sectors > a->max_sectors) a->max_sectors = b->max_sectors;
      if (b->max_lines > a->max_lines) a->max_lines = b->max_lines;
      a->conflict_sum += b->conflict_sum;
      if (b->conflict_max > a->conflict_max) a->conflict_max = b->conflict_max;
      a->same_sum += b->same_sum;
      a->regions += b->regions;
      a->uniform += b->uniform;
      a->hot += b->hot;
      a->aops += b->aops;
      if (b->bind_bytes > a->bind_bytes) a->bind_bytes = b->bind_bytes;
      if (b->same_max > a->same_max) a->same_max = b->same_max;
      a->divergent += p->divergent[t][pc];
      if (b->inst) {
        if (!a->inst || b->spread_max > a->spread_max ||
            (b->spread_max == a->spread_max &&
             prof_earlier(b->worst_group, b->worst_sub, a->worst_group, a->worst_sub))) {
          a->spread_max = b->spread_max;
          memcpy(a->worst_group, b->worst_group, sizeof a->worst_group);
          a->worst_sub = b->worst_sub;
        }
      }
      a->inst += b->inst;
      a->sub_trips += b->sub_trips;
      a->lane_trips += b->lane_trips;
      a->loop_lanes += b->loop_lanes;
      if (b->max_trips > a->max_trips) a->max_trips = b->max_trips;
      a->spread_sum += b->spread_sum;
      a->eff_num += b->eff_num;
      a->eff_den += b->eff_den;
      a->barriers += b->barriers;
      a->tbytes += b->tbytes;
      a->texels += b->texels;
      a->tiles += b->tiles;
      if (b->max_tiles > a->max_tiles) a->max_tiles = b->max_tiles;
      if (b->texel_bytes) {
        a->texel_bytes = b->texel_bytes;
        a->tile_w = b->tile_w;
        a->tile_h = b->tile_h;
      }
    }
    prof_add_summaries(p, t, all);
    d->early_exits += th->early;
    d->tail_invocations += th->tail;
    d->tail_groups += th->tail_groups;
    d->barrier_releases += th->releases;
    if (th->tail_groups) {
      if (th->tail_first < tail_first) tail_first = th->tail_first;
      if (th->tail_last > tail_last) tail_last = th->tail_last;
    }
  }
  for (uint32_t pc = 0; pc < n; pc++) {
    if (prog->code[pc].op == IR_MAND || prog->code[pc].op == IR_MANDN) all[pc].evals = iss[pc];
    /* a barrier's arrivals are every subgroup's, live lanes or not */
    if (prog->code[pc].op == IR_BARRIER) all[pc].barriers = iss[pc] + emp[pc];
  }
  d->tail_first_group = d->tail_groups ? tail_first : 0;
  d->tail_last_group = d->tail_groups ? tail_last : 0;

  /* occupancy: fixed by the workgroup size and W alone */
  d->workgroups = (uint64_t)p->groups[0] * p->groups[1] * p->groups[2];
  d->group_lanes = p->nsub * p->width;
  d->group_idle = d->group_lanes - p->ninv;
  d->invocations = d->workgroups * p->ninv;
  d->subgroups = d->workgroups * p->nsub;
  d->lanes_allocated = d->workgroups * d->group_lanes;
  d->lanes_idle = d->workgroups * d->group_idle;
  d->idle_fraction = d->group_lanes ? (double)d->group_idle / d->group_lanes : 0;

  size_t nmem = 0, nbr = 0, nloop = 0;
  for (uint32_t pc = 0; pc < n; pc++) {
    unsigned op = prog->code[pc].op;
    if ((prof_is_mem(op) || prof_is_texel(op)) && all[pc].requests) nmem++;
    if ((op == IR_MAND || op == IR_MANDN) && all[pc].evals) nbr++;
    if (op == IR_JANY && all[pc].inst) nloop++;
  }
  uint32_t nlines = 0;
  if (r->src) {
    nlines = 1;
    for (uint32_t i = 0; i < prog->source_len; i++) nlines += r->src[i] == '\n';
  }
  ls_prof_line *lines = calloc(nlines + 1, sizeof *lines);
  double *cyc = calloc(nlines + 1, sizeof *cyc); /* per line: SM cycles, for the shares */
  r->mem = calloc(nmem + 1, sizeof *r->mem);
  r->branch = calloc(nbr + 1, sizeof *r->branch);
  r->loop = calloc(nloop + 1, sizeof *r->loop);
  if (!lines || !cyc || !r->mem || !r->branch || !r->loop) {
    free(lines);
    free(cyc);
    goto fail;
  }
  for (uint32_t l = 0; l < nlines; l++) lines[l].line = l + 1;
  double cost_replays = 0;
  for (uint32_t pc = 0; pc < n; pc++) {
    const prof_pc *a = &all[pc];
    unsigned op = prog->code[pc].op;
    uint32_t line, col;
    ir_line_col(prog, pc, &line, &col);
    ls_prof_line *L = line >= 1 && line <= nlines ? &lines[line - 1] : NULL;
    d->issued += iss[pc];
    d->live_lanes += lan[pc];
    const ls_prof_op_class cls = prof_cost_class(&prog->code[pc]);
    d->class_issued[cls] += iss[pc];
    if (L) cyc[line - 1] += (double)iss[pc] * p->cost.cpi[cls];
    if (L) {
      L->issued += iss[pc];
      L->live_lanes += lan[pc];
      L->barriers += a->barriers;
    }
    d->barriers += a->barriers;
    if (prof_is_mem(op) && a->requests) {
      ls_prof_mem *m = &r->mem[d->nmem++];
      m->pc = pc;
      m->line = line;
      m->column = col;
      const int ld = op == IR_LDB || op == IR_LDW || op == IR_LDBH || op == IR_LDWH;
      const int st = op == IR_STB || op == IR_STW || op == IR_STBH || op == IR_STWH;
      m->access = ld ? LS_PROF_LOAD : st ? LS_PROF_STORE : LS_PROF_ATOMIC;
      m->space = (op == IR_LDB || op == IR_STB || op == IR_ATOMB || op == IR_LDBH || op == IR_STBH)
                     ? LS_PROF_BUFFER
                     : LS_PROF_WORKGROUP;
      uint32_t slot = op == IR_ATOMB ? prog->code[pc].d >> 8 : prog->code[pc].c;
      m->variable = m->space == LS_PROF_BUFFER && slot < r->nnames ? r->names[slot] : NULL;
      m->requests = a->requests;
      m->lanes = a->lanes;
      m->bytes = a->lanes * (prof_is_half(op) ? 2u : 4u);
      m->unique_bytes = a->unique_bytes;
      m->oob_lanes = a->oob;
      m->sectors = a->sectors;
      m->lines = a->lines;
      m->max_sectors = a->max_sectors;
      m->max_lines = a->max_lines;
      m->sectors_per_request = (double)a->sectors / a->requests;
      m->lines_per_request = (double)a->lines / a->requests;
      m->efficiency =
          a->sectors ? (double)a->unique_bytes / ((double)a->sectors * p->model.sector_bytes) : 0;
      m->conflict_sum = a->conflict_sum;
      m->conflict_max = a->conflict_max;
      m->conflict_per_request = (double)a->conflict_sum / a->requests;
      m->same_address_sum = a->same_sum;
      m->same_address_max = a->same_max;
      m->regions = a->regions;
      m->uniform_requests = a->uniform;
      m->hot_requests = a->hot;
      m->atomic_ops = a->aops;
      m->binding_bytes = m->space == LS_PROF_BUFFER && slot < p->nbsizes ? p->bsizes[slot]
                                                                         : a->bind_bytes;
      d->regions += a->regions;
      d->uniform_requests += a->uniform;
      d->hot_atomics += a->hot;
      d->atomic_ops += a->aops;
      d->requests += a->requests;
      d->bytes += m->bytes;
      d->unique_bytes += a->unique_bytes;
      if (m->space == LS_PROF_BUFFER) {
        d->sectors += a->sectors;
        d->lines_touched += a->lines;
      } else {
        d->conflicts += a->conflict_sum > a->requests ? a->conflict_sum - a->requests : 0;
        cost_replays += a->conflict_sum > a->requests ? (double)(a->conflict_sum - a->requests) : 0;
      }
      if (m->access == LS_PROF_ATOMIC) d->atomics += a->requests;
      if (L) {
        L->requests += a->requests;
        L->bytes += m->bytes;
        L->unique_bytes += a->unique_bytes;
        if (m->space == LS_PROF_BUFFER) {
          L->sectors += a->sectors;
          L->lines_touched += a->lines;
        } else if (a->conflict_sum > a->requests) {
          L->conflicts += a->conflict_sum - a->requests;
        }
        if (m->access == LS_PROF_ATOMIC) L->atomics += a->requests;
      }
    }
    if (prof_is_texel(op) && a->requests) {
      ls_prof_mem *m = &r->mem[d->nmem++];
      m->pc = pc;
      m->line = line;
      m->column = col;
      m->access = op == IR_TST ? LS_PROF_STORE : LS_PROF_LOAD;
      m->space = LS_PROF_TEXTURE;
      const uint32_t slot = prog->code[pc].c;
      m->variable = slot < r->nnames ? r->names[slot] : NULL;
      m->requests = a->requests;
      m->lanes = a->lanes;
      m->bytes = a->tbytes;
      m->unique_bytes = a->unique_bytes;
      m->oob_lanes = a->oob;
      m->texels = a->texels;
      m->tiles = a->tiles;
      m->max_tiles = a->max_tiles;
      m->texels_per_request = (double)a->texels / a->requests;
      m->tiles_per_request = (double)a->tiles / a->requests;
      m->texel_bytes = a->texel_bytes;
      m->tile_width = a->tile_w;
      m->tile_height = a->tile_h;
      m->efficiency =
          a->tiles ? (double)a->unique_bytes / ((double)a->tiles * p->model.tile_bytes) : 0;
      d->texel_requests += a->requests;
      d->texel_lanes += a->lanes;
      d->texel_bytes += a->tbytes;
      d->texel_unique_bytes += a->unique_bytes;
      d->texels += a->texels;
      d->tiles += a->tiles;
      if (L) {
        L->texel_requests += a->requests;
        L->texels += a->texels;
        L->tiles += a->tiles;
      }
    }
    if ((op == IR_MAND || op == IR_MANDN) && a->evals) {
      ls_prof_branch *b = &r->branch[d->nbranch++];
      b->pc = pc;
      b->line = line;
      b->column = col;
      b->is_else = op == IR_MANDN;
      b->is_loop_exit = op == IR_MAND && prog->code[pc].flags == IR_FLAG_LOOP_TEST;
      b->evaluations = a->evals;
      b->divergent = a->divergent;
      if (b->is_loop_exit) {
        d->loop_exits += a->evals;
        d->divergent_loop_exits += a->divergent;
      } else if (op == IR_MAND) {
        d->branches += a->evals;
        d->divergent_branches += a->divergent;
        if (L) {
          L->branches += a->evals;
          L->divergent += a->divergent;
        }
      }
    }
    if (op == IR_JANY && a->inst) {
      ls_prof_loop *lp = &r->loop[d->nloop++];
      lp->pc = pc;
      /* a loop is named by its first line: the jump target's span */
      uint32_t top = prog->code[pc].a < n ? prog->code[pc].a : pc;
      uint32_t tl, tc;
      ir_line_col(prog, top > 0 ? top - 1 : top, &tl, &tc);
      lp->line = tl && tl < line ? tl : line;
      lp->column = tl && tl < line ? tc : col;
      lp->instances = a->inst;
      lp->subgroup_trips = a->sub_trips;
      lp->lane_trips = a->lane_trips;
      lp->lanes = a->loop_lanes;
      lp->max_trips = a->max_trips;
      lp->avg_subgroup_trips = (double)a->sub_trips / a->inst;
      lp->avg_lane_trips = a->loop_lanes ? (double)a->lane_trips / a->loop_lanes : 0;
      lp->max_spread = a->spread_max;
      lp->mean_spread = a->spread_sum / a->inst;
      lp->efficiency = a->eff_den > 0 ? a->eff_num / a->eff_den : 1;
      memcpy(lp->worst_group, a->worst_group, sizeof lp->worst_group);
      lp->worst_subgroup = a->worst_sub;
      ls_prof_line *LL = lp->line >= 1 && lp->line <= nlines ? &lines[lp->line - 1] : NULL;
      if (LL) LL->loop_trips += a->sub_trips;
    }
  }
  d->simt_efficiency = d->issued ? (double)d->live_lanes / ((double)d->issued * p->width) : 0;
  d->mem_efficiency =
      d->sectors ? (double)0 : 0;
  {
    uint64_t ub = 0;
    for (size_t i = 0; i < d->nmem; i++)
      if (r->mem[i].space == LS_PROF_BUFFER) ub += r->mem[i].unique_bytes;
    d->mem_efficiency = d->sectors ? (double)ub / ((double)d->sectors * p->model.sector_bytes) : 0;
  }
  d->texture_efficiency =
      d->tiles ? (double)d->texel_unique_bytes / ((double)d->tiles * p->model.tile_bytes) : 0;
  d->cost = (double)d->issued + (double)d->sectors + cost_replays;
  if (d->tiles) d->cost += (double)d->tiles; /* a tile is a transaction, as a sector */
  /* the cost model: its inputs, the prediction, each line's share of the
   * SM's cycles (issue and memory pipeline) */
  d->registers = prog->nregs > prog->nconsts ? prog->nregs - prog->nconsts : 0;
  d->workgroup_bytes = prog->wg_mem_size;
  d->mem = r->mem;
  ls_cost_predict(&p->cost, d, &d->predicted);
  double cyc_all = 0;
  for (size_t i = 0; i < d->nmem; i++) {
    const uint32_t ln = r->mem[i].line;
    if (ln >= 1 && ln <= nlines) cyc[ln - 1] += prof_cost_mem_cycles(&p->cost, &r->mem[i]);
  }
  for (uint32_t l = 0; l < nlines; l++) cyc_all += cyc[l];
  /* keep the lines that have a figure */
  uint32_t kept = 0;
  for (uint32_t l = 0; l < nlines; l++) {
    ls_prof_line *L = &lines[l];
    L->predicted_share = cyc_all > 0 ? cyc[l] / cyc_all : 0;
    L->simt_efficiency = L->issued ? (double)L->live_lanes / ((double)L->issued * p->width) : 0;
    if (L->issued || L->requests || L->branches || L->loop_trips || L->barriers ||
        L->texel_requests)
      lines[kept++] = *L;
  }
  free(cyc);
  r->line = lines;
  d->nline = kept;
  d->mem = r->mem;
  d->branch = r->branch;
  d->loop = r->loop;
  d->line = r->line;

  /* the lane-activity trace of the chosen workgroup */
  for (unsigned t = 0; t < p->nthreads; t++) {
    if (p->th[t].tracing != -1) continue;
    r->tsteps = calloc(p->nsub, sizeof *r->tsteps);
    r->tn = calloc(p->nsub, sizeof *r->tn);
    if (!r->tsteps || !r->tn) goto fail;
    uint32_t limit = p->opt.trace_limit ? p->opt.trace_limit : 4096;
    r->trace.subgroups = p->nsub;
    memcpy(r->trace.group, p->opt.trace_group, sizeof r->trace.group);
    for (uint32_t s = 0; s < p->nsub; s++) {
      prof_sub *sb = &p->th[t].sub[s];
      uint32_t k = sb->nsteps > limit ? limit : sb->nsteps;
      if (sb->nsteps > limit) r->trace.truncated = 1;
      r->tsteps[s] = malloc((k + 1) * sizeof **r->tsteps);
      if (!r->tsteps[s]) goto fail;
      if (k) memcpy(r->tsteps[s], sb->steps, k * sizeof **r->tsteps);
      for (uint32_t i = 0; i < k; i++) {
        uint32_t col;
        if (r->tsteps[s][i].pc < n)
          ir_line_col(prog, r->tsteps[s][i].pc, &r->tsteps[s][i].line, &col);
      }
      r->tn[s] = k;
    }
    r->trace.steps = (const ls_prof_step *const *)r->tsteps;
    r->trace.nsteps = r->tn;
    d->trace = &r->trace;
    p->th[t].tracing = 0;
    break;
  }
  free(all);
  free(iss);
  free(lan);
  free(emp);
  return r;
fail:
  free(all);
  free(iss);
  free(lan);
  free(emp);
  prof_result_free(r);
  return NULL;
}

static void prof_dispatch_end(void *user) {
  ls_profiler *p = user;
  if (!p->broken) {
    prof_result *r = prof_merge(p);
    if (r && p->nres == p->capres) {
      size_t nc = p->capres ? p->capres * 2 : 8;
      prof_result **nr = realloc(p->res, nc * sizeof *nr);
      if (nr) {
        p->res = nr;
        p->capres = nc;
      }
    }
    if (r && p->nres < p->capres)
      p->res[p->nres++] = r;
    else
      prof_result_free(r);
  }
  p->dispatches++;
  p->prog = NULL;
}

/* ------------------------------------- lifetime (the glue) and public API */

ls_profiler *prof_create(const ls_profiler_options *o, const ls_memory_model *model,
                         const ls_cost_model *cost, unsigned threads) {
  ls_profiler *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->keys = prof_keys_pick();
  p->opt = *o;
  p->opt.cost = NULL; /* copied: the caller's may go */
  p->model = *model;
  p->cost = *cost;
  if (!p->model.tile_bytes) p->model.tile_bytes = 128;
  p->sshift = prof_log2(p->model.sector_bytes);
  p->lshift = prof_log2(p->model.line_bytes);
  /* The alignment buckets cover one line (the profile makes it >= 4
   * bytes); a line of more than 16 KiB (no real GPU) keeps every request
   * a callback, and one bucket stays allocated. */
  p->klog = p->lshift - 2 <= 12 ? p->lshift - 2 : 0;
  p->nthreads = threads ? threads : 1;
  p->issued = calloc(p->nthreads, sizeof *p->issued);
  p->lanes = calloc(p->nthreads, sizeof *p->lanes);
  p->empty = calloc(p->nthreads, sizeof *p->empty);
  p->th = calloc(p->nthreads, sizeof *p->th);
  p->coalesced = calloc(p->nthreads, sizeof *p->coalesced);
  p->uniform = calloc(p->nthreads, sizeof *p->uniform);
  p->divergent = calloc(p->nthreads, sizeof *p->divergent);
  if (!p->issued || !p->lanes || !p->empty || !p->th || !p->coalesced || !p->uniform || !p->divergent) {
    prof_destroy(p);
    return NULL;
  }
  vm_observer *ob = &p->obs;
  ob->user = p;
  ob->summarise = 1;
  ob->coalesce_log2 = p->klog; /* the arrays themselves: dispatch_begin */
  ob->dispatch_begin = prof_dispatch_begin;
  ob->dispatch_end = prof_dispatch_end;
  ob->group_begin = prof_group_begin;
  ob->group_end = prof_group_end;
  ob->mem = prof_mem;
  ob->branch = prof_branch;
  ob->loop = prof_loop;
  ob->barrier = prof_barrier;
  ob->barrier_release = prof_release;
  ob->subgroup_end = prof_subgroup_end;
  ob->texel = prof_texel;
  return p;
}

const vm_observer *prof_observer(ls_profiler *p) { return p ? &p->obs : NULL; }

void prof_set_binding_sizes(ls_profiler *p, const uint64_t *sizes, uint32_t n) {
  if (n > p->nbsizes) {
    uint64_t *b = realloc(p->bsizes, n * sizeof *b);
    if (!b) {
      p->nbsizes = 0; /* the sizes are a refinement: the model does without */
      return;
    }
    p->bsizes = b;
  }
  if (n) memcpy(p->bsizes, sizes, n * sizeof *sizes);
  p->nbsizes = n;
}

void prof_set_host(ls_profiler *p, void *host) { p->host = host; }

void *prof_host(const ls_profiler *p) { return p->host; }

void ls_profiler_reset(ls_profiler *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nres; i++) prof_result_free(p->res[i]);
  p->nres = 0;
  p->dispatches = 0;
}

void prof_destroy(ls_profiler *p) {
  if (!p) return;
  ls_profiler_reset(p);
  free(p->res);
  if (p->th) prof_free_threads_sub(p);
  for (unsigned t = 0; t < p->nthreads; t++) {
    if (p->issued) free(p->issued[t]);
    if (p->lanes) free(p->lanes[t]);
    if (p->empty) free(p->empty[t]);
    if (p->th) {
      free(p->th[t].pc);
      free(p->th[t].snap);
    }
    if (p->coalesced) free(p->coalesced[t]);
    if (p->uniform) free(p->uniform[t]);
    if (p->divergent) free(p->divergent[t]);
  }
  free(p->issued);
  free(p->lanes);
  free(p->empty);
  free(p->bsizes);
  free(p->th);
  free(p->coalesced);
  free(p->uniform);
  free(p->divergent);
  free(p);
}

size_t ls_profiler_dispatch_count(const ls_profiler *p) { return p ? p->nres : 0; }

const ls_prof_dispatch *ls_profiler_dispatch(const ls_profiler *p, size_t i) {
  return p && i < p->nres ? &p->res[i]->d : NULL;
}

void ls_free(void *ptr) { free(ptr); }
