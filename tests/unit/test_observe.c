/*
 * test_observe.c — the observed interpreter (vm/observe.h): it must compute
 * exactly what the plain one computes, and report every event with the
 * figures the program implies (counted here by hand for small shaders).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/lower.h"
#include "vm/vm.h"
#include "wgsl/wgsl.h"

typedef struct tally {
  int dispatch_begin, dispatch_end, group_begin, group_end;
  uint64_t loads, stores, atomics, lanes_loaded, oob_lanes;
  uint64_t branches, divergent, loops, barriers, releases, ends, alive_lanes;
  uint32_t release_pcs[8];
  uint32_t nrelease;
} tally;

static void t_dispatch_begin(void *u, const ir_program *p, const uint32_t g[3], uint32_t w) {
  (void)p, (void)g, (void)w;
  ((tally *)u)->dispatch_begin++;
}
static void t_dispatch_end(void *u) { ((tally *)u)->dispatch_end++; }
static int t_group_begin(void *u, unsigned th, const uint32_t g[3]) {
  (void)th, (void)g;
  ((tally *)u)->group_begin++;
  return 0;
}
static void t_group_end(void *u, unsigned th, const uint32_t g[3]) {
  (void)th, (void)g;
  ((tally *)u)->group_end++;
}
static void t_mem(void *u, unsigned th, const vm_mem_event *e) {
  tally *t = u;
  (void)th;
  if (e->access == VM_LOAD) t->loads++;
  if (e->access == VM_STORE) t->stores++;
  if (e->access == VM_ATOMIC) t->atomics++;
  for (unsigned l = 0; l < e->where->width; l++) {
    if (!(e->mask >> l & 1)) continue;
    if (e->access == VM_LOAD) t->lanes_loaded++;
    if (e->addr[l] + 4 > e->size) t->oob_lanes++;
  }
}
static void t_branch(void *u, unsigned th, const vm_where *w, uint32_t pc, uint64_t before,
                     uint64_t after) {
  tally *t = u;
  (void)th, (void)w, (void)pc;
  t->branches++;
  if (after && after != before) t->divergent++;
}
static void t_loop(void *u, unsigned th, const vm_where *w, uint32_t pc, uint64_t exec) {
  (void)th, (void)w, (void)pc, (void)exec;
  ((tally *)u)->loops++;
}
static void t_barrier(void *u, unsigned th, const vm_where *w, uint32_t pc, uint64_t exec,
                      uint64_t alive) {
  (void)th, (void)w, (void)pc, (void)exec, (void)alive;
  ((tally *)u)->barriers++;
}
static void t_release(void *u, unsigned th, const uint32_t g[3], const uint32_t *pcs, uint32_t n) {
  tally *t = u;
  (void)th, (void)g;
  t->releases++;
  t->nrelease = n;
  for (uint32_t i = 0; i < n && i < 8; i++) t->release_pcs[i] = pcs[i];
}
static void t_end(void *u, unsigned th, const vm_where *w, uint64_t alive, uint64_t wrote) {
  tally *t = u;
  (void)th, (void)w;
  t->ends++;
  t->alive_lanes += (uint64_t)__builtin_popcountll(alive);
}

static ir_program *build(const char *src, wgsl_module **mod) {
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "t.wgsl");
  assert_true(wgsl_module_ok(m));
  ls_limits lim;
  ls_limits_default(&lim);
  diag_list d;
  diag_init(&d);
  ir_program *p = lower_pipeline(m, NULL, NULL, 0, &lim, &d);
  diag_free(&d);
  assert_non_null(p);
  *mod = m;
  return p;
}

static vm_observer make_observer(tally *t) {
  vm_observer o;
  memset(&o, 0, sizeof o);
  o.user = t;
  o.dispatch_begin = t_dispatch_begin;
  o.dispatch_end = t_dispatch_end;
  o.group_begin = t_group_begin;
  o.group_end = t_group_end;
  o.mem = t_mem;
  o.branch = t_branch;
  o.loop = t_loop;
  o.barrier = t_barrier;
  o.barrier_release = t_release;
  o.subgroup_end = t_end;
  return o;
}

/* The guarded kernel on 100 elements with 2 workgroups of 64 at W = 32:
 * 4 subgroups; the last has 4 live lanes (96..99) and 28 that return. */
static const char *guard_src =
    "struct P { n: u32 };\n"
    "@group(0) @binding(0) var<uniform> params: P;\n"
    "@group(0) @binding(1) var<storage, read_write> d: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
    "  if (gid.x >= params.n) { return; }\n"
    "  d[gid.x] = d[gid.x] * 2.0;\n"
    "}\n";

static void test_observed_guard(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = build(guard_src, &m);
  uint32_t params[1] = {100};
  float plain[128], seen[128];
  for (int i = 0; i < 128; i++) plain[i] = seen[i] = (float)i;
  vm_binding b[2] = {{(uint8_t *)params, 4}, {(uint8_t *)plain, 100 * 4}};
  vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {2, 1, 1}, .width = 32};
  vm_result plain_res, obs_res;
  assert_int_equal(vm_dispatch(NULL, &desc, &plain_res), VM_OK);

  tally t = {0};
  vm_observer o = make_observer(&t);
  uint64_t issued[65] = {0}, lanes[65] = {0};
  uint64_t *ip = issued, *lp = lanes;
  assert_true(p->ncode <= 64);
  o.issued = &ip;
  o.lanes = &lp;
  o.serial = 1;
  b[1].data = (uint8_t *)seen;
  desc.observer = &o;
  vm_pool *pool = vm_pool_create(2);
  assert_int_equal(vm_dispatch(pool, &desc, &obs_res), VM_OK);
  vm_pool_destroy(pool);

  /* same results, same instruction count */
  assert_memory_equal(plain, seen, sizeof plain);
  assert_int_equal(plain_res.instructions, obs_res.instructions);
  uint64_t sum = 0;
  for (uint32_t pc = 0; pc < p->ncode; pc++) sum += issued[pc];
  assert_int_equal(sum, obs_res.instructions);

  assert_int_equal(t.dispatch_begin, 1);
  assert_int_equal(t.dispatch_end, 1);
  assert_int_equal(t.group_begin, 2);
  assert_int_equal(t.group_end, 2);
  /* every subgroup loads params.n (4 loads); 3 full subgroups + the one with
   * 4 live lanes load and store d: 4 loads and 4 stores more */
  assert_int_equal(t.loads, 8);
  assert_int_equal(t.stores, 4);
  assert_int_equal(t.lanes_loaded, 4 * 32 + 3 * 32 + 4);
  assert_int_equal(t.oob_lanes, 0);
  /* the guard's MAND: divergent in the last subgroup only (some lanes
   * return, some go on) */
  assert_int_equal(t.divergent, 1);
  assert_int_equal(t.ends, 4);
  assert_int_equal(t.alive_lanes, 100); /* 28 returned early */
  assert_int_equal(t.barriers, 0);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* A barrier both subgroups reach: one release, naming the barrier for
 * each. (A barrier after a non-uniform return is rejected by the
 * uniformity analysis before it could run.) */
static const char *barrier_src =
    "var<workgroup> s: array<u32, 64>;\n"
    "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  s[li] = li;\n"
    "  workgroupBarrier();\n"
    "  d[li] = s[63u - li];\n"
    "}\n";

static void test_observed_barrier(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = build(barrier_src, &m);
  uint32_t d[64] = {0};
  vm_binding b[1] = {{(uint8_t *)d, sizeof d}};
  tally t = {0};
  vm_observer o = make_observer(&t);
  vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {1, 1, 1}, .width = 32, .observer = &o};
  assert_int_equal(vm_dispatch(NULL, &desc, NULL), VM_OK);
  for (uint32_t i = 0; i < 64; i++) assert_int_equal(d[i], 63 - i);
  assert_int_equal(t.barriers, 2);
  assert_int_equal(t.releases, 1);
  assert_int_equal(t.nrelease, 2);
  assert_int_equal(p->code[t.release_pcs[0]].op, IR_BARRIER);
  assert_int_equal(t.release_pcs[1], t.release_pcs[0]);
  /* workgroup memory: 2 stores and 2 loads of 32 lanes, none out of bounds */
  assert_int_equal(t.stores, 4); /* 2 to s, 2 to d */
  assert_int_equal(t.oob_lanes, 0);
  ir_program_free(p);
  wgsl_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_observed_guard),
      cmocka_unit_test(test_observed_barrier),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
