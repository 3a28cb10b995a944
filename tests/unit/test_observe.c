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

#include "unit_util.h"

#include "ir/lower.h"
#include "vm/vm.h"
#include "wgsl/wgsl.h"

typedef struct tally {
  int dispatch_begin, dispatch_end, group_begin, group_end;
  uint64_t loads, stores, atomics, lanes_loaded, oob_lanes, priv;
  uint64_t branches, divergent, loops, barriers, releases, ends, alive_lanes, wrote_lanes;
  int detail_group; /* group_begin asks for workgroup x = detail_group in detail; -1 none */
  uint32_t release_pcs[8];
  uint32_t nrelease;
} tally;

static void t_dispatch_begin(void *u, const ir_program *p, const uint32_t g[3], uint32_t w) {
  (void)p, (void)g, (void)w;
  ((tally *)u)->dispatch_begin++;
}
static void t_dispatch_end(void *u) { ((tally *)u)->dispatch_end++; }
static int t_group_begin(void *u, unsigned th, const uint32_t g[3]) {
  tally *t = u;
  (void)th;
  t->group_begin++;
  return t->detail_group >= 0 && g[0] == (uint32_t)t->detail_group;
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
  if (e->space == VM_SPACE_PRIVATE) t->priv++;
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
  t->wrote_lanes += (uint64_t)__builtin_popcountll(wrote);
}

static vm_observer make_observer(tally *t) {
  vm_observer o;
  memset(&o, 0, sizeof o);
  t->detail_group = -1;
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

/* The guard dispatch run plain and then under o (on pool, or the caller's
 * thread): the same outputs and the same instruction count. */
static void guard_both(const ir_program *p, const vm_observer *o, vm_pool *pool,
                       vm_result *obs_res) {
  uint32_t params[1] = {100};
  float plain[128], seen[128];
  for (int i = 0; i < 128; i++) plain[i] = seen[i] = (float)i;
  vm_binding b[2] = {{(uint8_t *)params, 4}, {(uint8_t *)plain, 100 * 4}};
  vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {2, 1, 1}, .width = 32};
  vm_result plain_res;
  assert_int_equal(vm_dispatch(NULL, &desc, &plain_res), VM_OK);
  b[1].data = (uint8_t *)seen;
  desc.observer = o;
  assert_int_equal(vm_dispatch(pool, &desc, obs_res), VM_OK);
  assert_memory_equal(plain, seen, sizeof plain);
  assert_int_equal(plain_res.instructions, obs_res->instructions);
}

static void test_observed_guard(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(guard_src, NULL, 0, &m);
  tally t = {0};
  vm_observer o = make_observer(&t);
  uint64_t issued[65] = {0}, lanes[65] = {0};
  uint64_t *ip = issued, *lp = lanes;
  assert_true(p->ncode <= 64);
  o.issued = &ip;
  o.lanes = &lp;
  o.serial = 1;
  vm_pool *pool = vm_pool_create(2);
  vm_result obs_res;
  guard_both(p, &o, pool, &obs_res);
  vm_pool_destroy(pool);

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
  assert_int_equal(t.wrote_lanes, 100); /* the same 100 stored d */
  assert_int_equal(t.barriers, 0);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* quiet_loads (observe.h): a buffer load whose live lanes all read below
 * the slot's bound is not reported; the VM tests full subgroups (the
 * largest address) and constant addresses (params.n here). The guard
 * dispatch as above: subgroups 0..2 load d[0..31], d[32..63], d[64..95]
 * (bytes up to 128, 256, 384), subgroup 3 has 4 live lanes. The observer
 * also has no branch callback and no per-pc counts, so the observed run
 * takes the fused `if (c) { return; }` too; results must not change. */
static void test_quiet_loads(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(guard_src, NULL, 0, &m);
  const struct {
    uint64_t q[2];
    uint64_t loads; /* load events expected */
  } cases[] = {
      {{0, 0}, 8},     /* nothing quiet: 4 of params.n, 4 of d */
      {{4, 0}, 4},     /* params.n quiet */
      {{3, 0}, 8},     /* params.n reads bytes 0..3: a bound of 3 is below it */
      {{4, 400}, 1},   /* d quiet for the full subgroups; the partial one reported */
      {{4, 256}, 2},   /* subgroups 0 and 1 quiet (up to byte 256) */
      {{4, 255}, 3},   /* subgroup 1 ends at byte 256: reported */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    tally t = {0};
    vm_observer o = make_observer(&t);
    o.branch = NULL;
    o.quiet_loads = cases[c].q;
    vm_result obs_res;
    guard_both(p, &o, NULL, &obs_res);
    assert_int_equal(t.loads, cases[c].loads);
    assert_int_equal(t.stores, 4); /* stores are never quiet */
    assert_int_equal(t.ends, 4);
    assert_int_equal(t.alive_lanes, 100);
    assert_int_equal(t.wrote_lanes, 100);
  }
  ir_program_free(p);
  wgsl_module_free(m);
}

/* The first pc holding op, and the next after it. */
static uint32_t find_op(const ir_program *p, unsigned op, uint32_t from) {
  for (uint32_t pc = from; pc < p->ncode; pc++)
    if (p->code[pc].op == op) return pc;
  fail_msg("no opcode %u from pc %u", op, from);
  return 0;
}

/* The same guard dispatch with a summarising observer (observe.h), once
 * with no workgroup in detail and once with workgroup 1 in detail: the
 * VM's counts replace exactly the callbacks it leaves out, and the per-pc
 * counts equal those of the run above, counted by hand here. */
static void test_summarised_guard(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(guard_src, NULL, 0, &m);
  assert_true(p->ncode <= 64);
  const uint32_t ldn = find_op(p, IR_LDB, 0), ldd = find_op(p, IR_LDB, ldn + 1);
  const uint32_t std = find_op(p, IR_STB, 0), mand = find_op(p, IR_MAND, 0);
  const uint32_t kill = find_op(p, IR_KILL, 0), fmul = find_op(p, IR_FMUL, 0);
  assert_true(p->code[ldn].c == 0 && p->code[ldd].c == 1); /* params, then d */
  uint64_t issued[2][65], lanes[2][65];
  for (int detail = 0; detail < 2; detail++) {
    uint32_t params[1] = {100};
    float d[128];
    for (int i = 0; i < 128; i++) d[i] = (float)i;
    vm_binding b[2] = {{(uint8_t *)params, 4}, {(uint8_t *)d, 100 * 4}};
    tally t = {0};
    vm_observer o = make_observer(&t);
    t.detail_group = detail ? 1 : -1;
    /* 4 alignment buckets: the first word's index modulo 4 */
    uint64_t co[65 * 4] = {0}, un[65] = {0}, dv[65] = {0};
    uint64_t *ip = issued[detail], *lp = lanes[detail], *cp = co, *up = un, *dp = dv;
    memset(issued[detail], 0, sizeof issued[detail]);
    memset(lanes[detail], 0, sizeof lanes[detail]);
    o.issued = &ip;
    o.lanes = &lp;
    o.summarise = 1;
    o.coalesce_log2 = 2;
    o.coalesced = &cp;
    o.uniform = &up;
    o.divergent = &dp;
    vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {2, 1, 1}, .width = 32,
                             .observer = &o};
    vm_result res;
    assert_int_equal(vm_dispatch(NULL, &desc, &res), VM_OK);
    for (int i = 0; i < 128; i++) assert_true(d[i] == (i < 100 ? 2.0f * (float)i : (float)i));

    /* subgroups 0, 1 (group 0) and 2 (group 1) are full; 3 has 4 lanes
     * left after the guard. A workgroup in detail is called back for
     * everything; the others only for what the VM cannot count. */
    const uint64_t summed = detail ? 2 : 3; /* full subgroups outside detail */
    assert_int_equal(un[ldn], detail ? 2 : 4);          /* params.n, one word */
    assert_int_equal(co[ldd * 4 + 0], summed);          /* d from byte 0, 128, 256 */
    assert_int_equal(co[std * 4 + 0], summed);
    uint64_t other = 0;
    for (uint32_t i = 0; i < 65 * 4; i++) other += co[i];
    assert_int_equal(other, 2 * summed);
    assert_int_equal(t.loads, (4 - un[ldn]) + (4 - summed));
    assert_int_equal(t.stores, 4 - summed);
    assert_int_equal(dv[mand], 1); /* counted in detail or not */
    assert_int_equal(t.branches, detail ? 2 : 0);
    /* only subgroup 3 lost lanes; a detail group reports both its ends */
    assert_int_equal(t.ends, detail ? 2 : 1);
    assert_int_equal(t.alive_lanes, detail ? 32 + 4 : 4);
    assert_int_equal(t.wrote_lanes, detail ? 32 + 4 : 4);

    uint64_t sum = 0;
    for (uint32_t pc = 0; pc <= p->ncode; pc++) sum += issued[detail][pc];
    assert_int_equal(sum, res.instructions);
    assert_int_equal(issued[detail][0], 4);
    assert_int_equal(lanes[detail][0], 128);
    assert_int_equal(issued[detail][kill], 1); /* the return, in subgroup 3 */
    assert_int_equal(lanes[detail][kill], 28);
    assert_int_equal(issued[detail][fmul], 4);
    assert_int_equal(lanes[detail][fmul], 100);
  }
  assert_memory_equal(issued[0], issued[1], sizeof issued[0]);
  assert_memory_equal(lanes[0], lanes[1], sizeof lanes[0]);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Which requests the VM counts: a load of 32 words from word 5 goes to
 * bucket 5 % 4 = 1; a strided load and one that runs past the end of the
 * binding (word 40 + 31 = 71 of 71 words) are called back. */
static const char *offset_src =
    "@group(0) @binding(0) var<storage, read> a: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n"
    "@compute @workgroup_size(32)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  o[li] = a[li + 5u] + a[li * 2u] + a[li + 40u];\n"
    "}\n";

static void test_summarised_requests(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(offset_src, NULL, 0, &m);
  assert_true(p->ncode <= 64);
  uint32_t a[71], o32[32];
  for (uint32_t i = 0; i < 71; i++) a[i] = i;
  vm_binding b[2] = {{(uint8_t *)a, sizeof a}, {(uint8_t *)o32, sizeof o32}};
  tally t = {0};
  vm_observer o = make_observer(&t);
  uint64_t co[65 * 4] = {0}, un[65] = {0};
  uint64_t *cp = co, *up = un;
  o.summarise = 1;
  o.coalesce_log2 = 2;
  o.coalesced = &cp;
  o.uniform = &up;
  vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {1, 1, 1}, .width = 32,
                           .observer = &o};
  assert_int_equal(vm_dispatch(NULL, &desc, NULL), VM_OK);
  for (uint32_t i = 0; i < 32; i++)
    assert_int_equal(o32[i], (i + 5) + 2 * i + (i + 40 < 71 ? i + 40 : 0));
  const uint32_t st = find_op(p, IR_STB, 0);
  uint64_t loads = 0, at1 = 0;
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    for (uint32_t k = 0; k < 4; k++) {
      if (p->code[pc].op == IR_LDB) loads += co[pc * 4 + k];
      if (p->code[pc].op == IR_LDB && k == 1) at1 += co[pc * 4 + k];
    }
    assert_int_equal(un[pc], 0);
  }
  assert_int_equal(loads, 1);
  assert_int_equal(at1, 1);
  assert_int_equal(co[st * 4 + 0], 1);
  assert_int_equal(t.loads, 2);
  assert_int_equal(t.oob_lanes, 1); /* lane 31 reads word 71 */
  assert_int_equal(t.stores, 0);
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
  ir_program *p = tu_build(barrier_src, NULL, 0, &m);
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

/* Private memory and a barrier, summarised or not: summarising, neither
 * is called back (the barrier's count is its issued count, 2 subgroups);
 * workgroup memory still is. */
static const char *private_src =
    "var<workgroup> s: array<u32, 64>;\n"
    "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  var p: array<u32, 4>;\n"
    "  p[li & 3u] = li;\n"
    "  s[li] = p[li & 3u] + 1u;\n"
    "  workgroupBarrier();\n"
    "  d[li] = s[63u - li];\n"
    "}\n";

static void test_summarised_private_barrier(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(private_src, NULL, 0, &m);
  assert_true(p->ncode <= 64);
  find_op(p, IR_STP, 0); /* the array lives in private memory */
  const uint32_t bar = find_op(p, IR_BARRIER, 0);
  for (int sum = 0; sum < 2; sum++) {
    uint32_t d[64] = {0};
    vm_binding b[1] = {{(uint8_t *)d, sizeof d}};
    tally t = {0};
    vm_observer o = make_observer(&t);
    uint64_t issued[65] = {0}, lanes[65] = {0}, co[65 * 32] = {0}, un[65] = {0};
    uint64_t *ip = issued, *lp = lanes, *cp = co, *up = un;
    o.issued = &ip;
    o.lanes = &lp;
    o.summarise = sum;
    o.coalesce_log2 = 5;
    o.coalesced = &cp;
    o.uniform = &up;
    vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {1, 1, 1}, .width = 32,
                             .observer = &o};
    assert_int_equal(vm_dispatch(NULL, &desc, NULL), VM_OK);
    for (uint32_t i = 0; i < 64; i++) assert_int_equal(d[i], 63 - i + 1);
    assert_int_equal(issued[bar], 2);
    assert_int_equal(t.barriers, sum ? 0 : 2);
    assert_int_equal(t.releases, 1);
    if (sum) assert_int_equal(t.priv, 0);
    else assert_true(t.priv >= 4); /* a store and a load per subgroup at least */
    /* workgroup memory is always called back: a store and a load per
     * subgroup (4); the stores to d (from bytes 0 and 128, 2) only when
     * not summarised */
    assert_int_equal(t.loads + t.stores - t.priv, sum ? 4 : 6);
    assert_int_equal(co[find_op(p, IR_STB, 0) * 32 + 0], sum ? 2 : 0);
  }
  ir_program_free(p);
  wgsl_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_observed_guard),
      cmocka_unit_test(test_quiet_loads),
      cmocka_unit_test(test_observed_barrier),
      cmocka_unit_test(test_summarised_guard),
      cmocka_unit_test(test_summarised_requests),
      cmocka_unit_test(test_summarised_private_barrier),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
