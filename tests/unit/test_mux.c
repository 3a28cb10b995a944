/*
 * test_mux.c — the observer multiplexer (vm/observe_mux.h): several
 * observers on one dispatch must each see exactly what they see alone.
 *
 * A recording observer writes one line per callback (every argument, and
 * in a workgroup it watches in detail the per-pc counts it can read at that
 * moment) and, at the end of the dispatch, every counter array it owns.
 * Recorders of different kinds (summarising or not, with or without
 * counters, each watching a different workgroup in detail) run alone and
 * then together behind one multiplexer; their records must be identical:
 * in order on one thread, as sorted lines on three.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit_util.h"

#include "vm/observe_mux.h"
#include "vm/vm.h"

#define MAXT 4

typedef struct rec_cfg {
  int summarise, counted, pairs, divergent, serial;
  int detail_group; /* workgroup x watched in detail; -1 none */
} rec_cfg;

typedef struct rec {
  rec_cfg cfg;
  size_t ncode1;
  unsigned ck;
  uint64_t *is[MAXT], *ln[MAXT], *co[MAXT], *un[MAXT], *dv[MAXT];
  vm_observer o;
  int detail[MAXT];
  /* per thread (callbacks of several threads run at once); thread 0 also
   * gets dispatch_begin / dispatch_end, which run alone */
  char **lines[MAXT];
  size_t nlines[MAXT], cap[MAXT];
} rec;

static void rec_line(rec *r, unsigned t, const char *fmt, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (r->nlines[t] == r->cap[t]) {
    r->cap[t] = r->cap[t] ? 2 * r->cap[t] : 256;
    r->lines[t] = realloc(r->lines[t], r->cap[t] * sizeof *r->lines[t]);
    assert_non_null(r->lines[t]);
  }
  r->lines[t][r->nlines[t]] = strdup(buf);
  assert_non_null(r->lines[t][r->nlines[t]]);
  r->nlines[t]++;
}

/* In a workgroup watched in detail, the counts the VM keeps current. */
static uint64_t rec_live(const rec *r, unsigned t) {
  uint64_t s = 0;
  if (!r->detail[t] || !r->cfg.counted) return 0;
  for (size_t pc = 0; pc < r->ncode1; pc++) s += r->is[t][pc] * (pc + 1) + r->ln[t][pc];
  return s;
}

static void r_dispatch_begin(void *u, const ir_program *p, const uint32_t g[3], uint32_t w) {
  rec *r = u;
  rec_line(r, 0, "begin %u %u %u w%u n%u", g[0], g[1], g[2], w, p->ncode);
}

static void r_dispatch_end(void *u) {
  rec *r = u;
  /* totals over the threads: which thread ran a workgroup may vary */
  for (size_t pc = 0; pc < r->ncode1; pc++) {
    uint64_t is = 0, ln = 0, un = 0, dv = 0, co[4] = {0};
    for (unsigned t = 0; t < MAXT; t++) {
      if (r->cfg.counted) is += r->is[t][pc], ln += r->ln[t][pc];
      if (r->cfg.pairs) {
        un += r->un[t][pc];
        for (unsigned k = 0; k < 4; k++) co[k] += r->co[t][pc << r->ck | k];
      }
      if (r->cfg.divergent) dv += r->dv[t][pc];
    }
    rec_line(r, 0, "end pc%zu is%llu ln%llu un%llu dv%llu co%llu,%llu,%llu,%llu", pc,
             (unsigned long long)is, (unsigned long long)ln, (unsigned long long)un,
             (unsigned long long)dv, (unsigned long long)co[0], (unsigned long long)co[1],
             (unsigned long long)co[2], (unsigned long long)co[3]);
  }
}

static int r_group_begin(void *u, unsigned t, const uint32_t g[3]) {
  rec *r = u;
  r->detail[t] = r->cfg.detail_group >= 0 && g[0] == (uint32_t)r->cfg.detail_group;
  rec_line(r, t, "group %u %u %u d%d live%llu", g[0], g[1], g[2], r->detail[t],
           (unsigned long long)rec_live(r, t));
  return r->detail[t];
}

static void r_group_end(void *u, unsigned t, const uint32_t g[3]) {
  rec *r = u;
  rec_line(r, t, "group_end %u %u %u live%llu", g[0], g[1], g[2], (unsigned long long)rec_live(r, t));
}

static void r_mem(void *u, unsigned t, const vm_mem_event *e) {
  rec *r = u;
  char lanes[3000];
  size_t o = 0;
  for (unsigned l = 0; l < e->where->width && o < sizeof lanes - 40; l++)
    if (e->mask >> l & 1)
      o += (size_t)snprintf(lanes + o, sizeof lanes - o, " %llx=%x", (unsigned long long)e->addr[l],
                            e->value ? e->value[l] : 0u);
  rec_line(r, t, "mem pc%u a%d s%d slot%u op%u m%llx sz%llu b%u c%d u%d g%u s%u live%llu%s", e->pc,
           (int)e->access, (int)e->space, e->slot, e->atomic_op, (unsigned long long)e->mask,
           (unsigned long long)e->size, e->bytes, e->consecutive, e->uniform, e->where->group[0],
           e->where->subgroup, (unsigned long long)rec_live(r, t), lanes);
}

static void r_branch(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t b, uint64_t a) {
  rec *r = u;
  rec_line(r, t, "branch pc%u %llx %llx g%u s%u live%llu", pc, (unsigned long long)b,
           (unsigned long long)a, w->group[0], w->subgroup, (unsigned long long)rec_live(r, t));
}

static void r_loop(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec) {
  rec *r = u;
  rec_line(r, t, "loop pc%u %llx g%u s%u live%llu", pc, (unsigned long long)exec, w->group[0],
           w->subgroup, (unsigned long long)rec_live(r, t));
}

static void r_barrier(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec,
                      uint64_t alive) {
  rec *r = u;
  rec_line(r, t, "barrier pc%u %llx %llx g%u s%u live%llu", pc, (unsigned long long)exec,
           (unsigned long long)alive, w->group[0], w->subgroup, (unsigned long long)rec_live(r, t));
}

static void r_release(void *u, unsigned t, const uint32_t g[3], const uint32_t *pcs, uint32_t n) {
  rec *r = u;
  char b[256];
  size_t o = 0;
  for (uint32_t i = 0; i < n && o < sizeof b - 16; i++)
    o += (size_t)snprintf(b + o, sizeof b - o, " %u", pcs[i]);
  rec_line(r, t, "release g%u live%llu%s", g[0], (unsigned long long)rec_live(r, t), b);
}

static void r_end(void *u, unsigned t, const vm_where *w, uint64_t alive, uint64_t wrote) {
  rec *r = u;
  rec_line(r, t, "subgroup_end %llx %llx g%u s%u live%llu", (unsigned long long)alive,
           (unsigned long long)wrote, w->group[0], w->subgroup, (unsigned long long)rec_live(r, t));
}

static void rec_init(rec *r, const rec_cfg *cfg, const ir_program *p) {
  memset(r, 0, sizeof *r);
  r->cfg = *cfg;
  r->ncode1 = (size_t)p->ncode + 1;
  r->ck = 2;
  for (unsigned t = 0; t < MAXT; t++) {
    r->is[t] = calloc(r->ncode1, sizeof(uint64_t));
    r->ln[t] = calloc(r->ncode1, sizeof(uint64_t));
    r->co[t] = calloc(r->ncode1 << r->ck, sizeof(uint64_t));
    r->un[t] = calloc(r->ncode1, sizeof(uint64_t));
    r->dv[t] = calloc(r->ncode1, sizeof(uint64_t));
    assert_true(r->is[t] && r->ln[t] && r->co[t] && r->un[t] && r->dv[t]);
  }
  vm_observer *o = &r->o;
  o->user = r;
  o->serial = cfg->serial;
  o->summarise = cfg->summarise;
  o->coalesce_log2 = r->ck;
  o->issued = cfg->counted ? r->is : NULL;
  o->lanes = cfg->counted ? r->ln : NULL;
  o->coalesced = cfg->pairs ? r->co : NULL;
  o->uniform = cfg->pairs ? r->un : NULL;
  o->divergent = cfg->divergent ? r->dv : NULL;
  o->dispatch_begin = r_dispatch_begin;
  o->dispatch_end = r_dispatch_end;
  o->group_begin = r_group_begin;
  o->group_end = r_group_end;
  o->mem = r_mem;
  o->branch = r_branch;
  o->loop = r_loop;
  o->barrier = r_barrier;
  o->barrier_release = r_release;
  o->subgroup_end = r_end;
}

static void rec_free(rec *r) {
  for (unsigned t = 0; t < MAXT; t++) {
    free(r->is[t]);
    free(r->ln[t]);
    free(r->co[t]);
    free(r->un[t]);
    free(r->dv[t]);
  }
  for (unsigned t = 0; t < MAXT; t++) {
    for (size_t i = 0; i < r->nlines[t]; i++) free(r->lines[t][i]);
    free(r->lines[t]);
  }
}

static int cmp_line(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* All threads' lines of r (borrowed), sorted when asked. */
static char **rec_all(const rec *r, int sorted, size_t *n) {
  *n = 0;
  for (unsigned t = 0; t < MAXT; t++) *n += r->nlines[t];
  char **all = malloc((*n + 1) * sizeof *all);
  assert_non_null(all);
  size_t k = 0;
  for (unsigned t = 0; t < MAXT; t++)
    for (size_t i = 0; i < r->nlines[t]; i++) all[k++] = r->lines[t][i];
  if (sorted) qsort(all, *n, sizeof *all, cmp_line);
  return all;
}

/* The records must be the same, in order or (several threads) as sets. */
static void rec_same(rec *alone, rec *shared, int sorted) {
  size_t na, ns;
  char **a = rec_all(alone, sorted, &na), **s = rec_all(shared, sorted, &ns);
  assert_true(na > 0);
  size_t n = na < ns ? na : ns;
  for (size_t i = 0; i < n; i++)
    if (strcmp(a[i], s[i])) {
      fprintf(stderr, "record line %zu differs:\n  alone:  %s\n  shared: %s\n", i, a[i], s[i]);
      fail();
    }
  assert_int_equal(na, ns);
  free(a);
  free(s);
}

/* Everything the observers distinguish: coalesced loads by full subgroups
 * (0..2 of each workgroup) and a partial one (the 4-lane subgroup 3), a
 * uniform load, strided loads, workgroup memory and a barrier, a divergent
 * loop over private memory, an atomic, and a guard whose early returns
 * fall in workgroup 2 only. 3 workgroups of 100 at W = 32. */
static const char *mux_src =
    "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n"
    "@group(0) @binding(2) var<uniform> n: vec4u;\n"
    "@group(0) @binding(3) var<storage, read_write> cnt: atomic<u32>;\n"
    "var<workgroup> sh: array<u32, 100>;\n"
    "@compute @workgroup_size(100)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u,\n"
    "        @builtin(local_invocation_index) li: u32) {\n"
    "  sh[li] = a[gid.x];\n"
    "  workgroupBarrier();\n"
    "  var p: array<u32, 4>;\n"
    "  for (var j = 0u; j < (li & 3u); j++) { p[j] = sh[(li + j) % 100u] + n.y; }\n"
    "  if (gid.x >= n.x) { return; }\n"
    "  if ((li & 7u) == 0u) { atomicAdd(&cnt, 1u); }\n"
    "  o[gid.x] = p[li & 3u] + a[li * 2u];\n"
    "}\n";

typedef struct mux_bufs {
  uint32_t a[300], o[300], n[4], cnt;
  vm_binding b[4];
} mux_bufs;

static void bufs_init(mux_bufs *m, const ir_program *p) {
  memset(m, 0, sizeof *m);
  for (uint32_t i = 0; i < 300; i++) m->a[i] = i * 7u + 1u;
  m->n[0] = 250;
  m->n[1] = 3;
  for (uint32_t i = 0; i < p->nbindings; i++) {
    switch (p->bindings[i].binding) {
    case 0: m->b[i] = (vm_binding){.data = (uint8_t *)m->a, .size = sizeof m->a}; break;
    case 1: m->b[i] = (vm_binding){.data = (uint8_t *)m->o, .size = sizeof m->o}; break;
    case 2: m->b[i] = (vm_binding){.data = (uint8_t *)m->n, .size = sizeof m->n}; break;
    default: m->b[i] = (vm_binding){.data = (uint8_t *)&m->cnt, .size = 4}; break;
    }
  }
}

/* Runs the kernel once with observer obs (NULL: none) on a pool of
 * `threads` (0: no pool); returns the results in out. */
static void run_with(const ir_program *p, const vm_observer *obs, unsigned threads,
                     mux_bufs *out) {
  bufs_init(out, p);
  vm_dispatch_desc d = {.prog = p, .bindings = out->b, .groups = {3, 1, 1}, .width = 32,
                        .observer = obs};
  vm_pool *pool = threads ? vm_pool_create(threads) : NULL;
  assert_int_equal(vm_dispatch(pool, &d, NULL), VM_OK);
  vm_pool_destroy(pool);
}

static const rec_cfg kinds[] = {
    /* a profiler: summarises, counts everything, traces workgroup 1 */
    {.summarise = 1, .counted = 1, .pairs = 1, .divergent = 1, .detail_group = 1},
    /* a sanitizer: every event, no counters */
    {.detail_group = -1},
    /* summarises without request counts (every buffer request called back) */
    {.summarise = 1, .counted = 1, .detail_group = -1},
    /* every event, counts, workgroup 0 in detail */
    {.counted = 1, .divergent = 1, .detail_group = 0},
    /* a second profiler tracing workgroup 2 */
    {.summarise = 1, .counted = 1, .pairs = 1, .divergent = 1, .detail_group = 2},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static void check_together(unsigned threads, const unsigned *order, unsigned n) {
  wgsl_module *m;
  ir_program *p = tu_build(mux_src, NULL, 0, &m);
  mux_bufs plain, seen;
  run_with(p, NULL, threads, &plain);
  rec alone[NKINDS], shared[NKINDS];
  for (unsigned i = 0; i < n; i++) {
    rec_init(&alone[i], &kinds[order[i]], p);
    run_with(p, &alone[i].o, threads, &seen);
    assert_memory_equal(seen.o, plain.o, sizeof plain.o);
    rec_init(&shared[i], &kinds[order[i]], p);
  }
  vm_mux *mux = vm_mux_create(threads ? threads : 1);
  assert_non_null(mux);
  const vm_observer *kids[NKINDS];
  for (unsigned i = 0; i < n; i++) kids[i] = &shared[i].o;
  const vm_observer *mo = vm_mux_bind(mux, kids, n);
  assert_non_null(mo);
  run_with(p, mo, threads, &seen);
  assert_false(vm_mux_failed(mux));
  /* the results are the plain run's; each record is its lone run's */
  assert_memory_equal(seen.o, plain.o, sizeof plain.o);
  assert_int_equal(seen.cnt, plain.cnt);
  for (unsigned i = 0; i < n; i++) {
    rec_same(&alone[i], &shared[i], threads > 1);
    rec_free(&alone[i]);
    rec_free(&shared[i]);
  }
  vm_mux_destroy(mux);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Every kind together, on one thread: each record line for line. */
static void test_each_sees_what_it_sees_alone(void **state) {
  (void)state;
  const unsigned all[] = {0, 1, 2, 3, 4};
  check_together(0, all, 5);
  const unsigned reversed[] = {4, 3, 2, 1, 0};
  check_together(0, reversed, 5);
  /* the profiler beside the sanitizer only */
  const unsigned pair[] = {1, 0};
  check_together(0, pair, 2);
}

/* On three worker threads: the same lines (in another order) and the same
 * counter totals. */
static void test_each_sees_alone_on_threads(void **state) {
  (void)state;
  const unsigned all[] = {0, 1, 2, 3, 4};
  check_together(3, all, 5);
}

/* A serial child makes the whole dispatch serial. */
static void test_serial_is_any_childs(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(mux_src, NULL, 0, &m);
  rec a, b;
  rec_cfg sc = kinds[1];
  sc.serial = 1;
  rec_init(&a, &kinds[0], p);
  rec_init(&b, &sc, p);
  vm_mux *mux = vm_mux_create(3);
  const vm_observer *kids[2] = {&a.o, &b.o};
  const vm_observer *mo = vm_mux_bind(mux, kids, 2);
  assert_non_null(mo);
  assert_true(mo->serial);
  mux_bufs seen;
  run_with(p, mo, 3, &seen);
  /* every workgroup ran on thread 0: the other threads' counts stay 0 */
  uint64_t other = 0, mine = 0;
  for (size_t pc = 0; pc < a.ncode1; pc++) {
    mine += a.is[0][pc];
    for (unsigned t = 1; t < MAXT; t++) other += a.is[t][pc];
  }
  assert_true(mine > 0);
  assert_int_equal(other, 0);
  kids[1] = &a.o; /* rebound without the serial child */
  assert_false(vm_mux_bind(mux, kids, 1)->serial);
  vm_mux_destroy(mux);
  rec_free(&a);
  rec_free(&b);
  ir_program_free(p);
  wgsl_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_each_sees_what_it_sees_alone),
      cmocka_unit_test(test_each_sees_alone_on_threads),
      cmocka_unit_test(test_serial_is_any_childs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
