/*
 * test_check.c — unit tests of the sanitizer's observer (src/check/) fed
 * with synthetic VM events (vm/observe.h), without running a shader: bounds
 * with the first invocations and counts, logical sizes, races whichever
 * access comes first, barrier divergence (returned lanes, subgroups at
 * different barriers), the cap on stored findings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"

static const char SRC[] = "fn main() {\n  datos[i] = x;\n  workgroupBarrier();\n}\n";

/* A program of 4 "instructions" with spans, one storage binding, one
 * workgroup variable. */
static ir_program *fake_prog(void) {
  ir_program *p = calloc(1, sizeof *p);
  p->ncode = 4;
  p->code = calloc(4, sizeof *p->code);
  p->spans = calloc(4, sizeof *p->spans);
  p->spans[0] = (src_span){14, 26};
  p->spans[1] = (src_span){14, 26};
  p->spans[2] = (src_span){31, 49};
  p->spans[3] = (src_span){31, 49};
  p->code[1].flags = 1;
  p->nbindings = 1;
  p->bindings = calloc(1, sizeof *p->bindings);
  p->bindings[0] = (ir_binding){0, 1, IR_BIND_STORAGE, 4, strdup("datos"), {0, 0}};
  p->nwgvars = 1;
  p->wgvars = calloc(1, sizeof *p->wgvars);
  p->wgvars[0] = (ir_wgvar){strdup("tile"), 0, 256, {0, 0}};
  p->wg_size[0] = 64;
  p->wg_size[1] = p->wg_size[2] = 1;
  p->wg_mem_size = 256;
  p->entry_point = strdup("main");
  p->source = SRC;
  p->filename = "t.wgsl";
  p->source_len = sizeof SRC - 1;
  return p;
}

typedef struct fixture {
  ir_program *p;
  chk_state *s;
  const vm_observer *o;
} fixture;

static void start(fixture *f, uint64_t size, uint64_t logical, uint32_t groups) {
  f->p = fake_prog();
  f->s = chk_create(2, NULL);
  assert_non_null(f->s);
  f->o = chk_observer(f->s);
  chk_slot slot = {"datos", size, logical};
  uint32_t g[3] = {groups, 1, 1};
  assert_true(chk_dispatch_prepare(f->s, f->p, &slot, g, 32, "main"));
}

static void finish(fixture *f) {
  chk_destroy(f->s);
  ir_program_free(f->p);
}

static void mem(fixture *f, unsigned th, uint32_t pc, vm_access acc, vm_space sp, uint32_t group,
                uint32_t sub, uint64_t mask, uint64_t base, uint64_t step, uint32_t value,
                uint64_t size) {
  uint64_t a[32];
  uint32_t v[32];
  for (int l = 0; l < 32; l++) {
    a[l] = base + step * (uint64_t)l;
    v[l] = value;
  }
  vm_where w = {{group, 0, 0}, sub, 32};
  /* the patterns, as the VM computes them over all 32 lanes */
  vm_mem_event e = {pc, acc, sp, 0, 0, mask, a, v, size, &w, step == 4, step == 0};
  f->o->mem(f->o->user, th, &e);
}

static void test_bounds_first_and_count(void **state) {
  fixture f;
  start(&f, 400, UINT64_MAX, 4);
  /* every group's subgroup 0 stores to word 100 + lane: all 32 lanes out */
  for (uint32_t g = 4; g-- > 0;) {
    f.o->group_begin(f.o->user, g % 2, (uint32_t[3]){g, 0, 0});
    mem(&f, g % 2, 0, VM_STORE, VM_SPACE_BUFFER, g, 0, UINT64_C(0xFFFFFFFF), 400, 4, 1, 400);
  }
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->count, 128);
  assert_int_equal(x->ninvocations, LS_CHECK_MAX_INVOCATIONS);
  /* lowest global ids first, whatever order the groups ran in */
  assert_int_equal(x->invocations[0].global_id[0], 0);
  assert_int_equal(x->invocations[3].global_id[0], 3);
  assert_int_equal(x->offset, 400);
  assert_int_equal(x->first.line, 2);
  assert_int_equal(x->first.column, 3);
  assert_non_null(strstr(x->text, "t.wgsl:2:3 error: out-of-bounds write"));
  finish(&f);
}

static void test_logical(void **state) {
  fixture f;
  start(&f, 4000, 100 * 4, 1);
  f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
  mem(&f, 0, 0, VM_STORE, VM_SPACE_BUFFER, 0, 3, UINT64_C(0xFFFFFFFF), 4 * 96, 4, 1, 4000);
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->kind, LS_CHECK_BEYOND_LOGICAL);
  assert_int_equal(x->count, 28);
  assert_int_equal(x->invocations[0].local_index, 3 * 32 + 4);
  assert_int_equal(x->logical_size, 400);
  finish(&f);
}

/* Two invocations of one workgroup write word 0, in either order. */
static void race_once(int reverse, uint32_t v1, uint32_t v2, ls_check_kind want) {
  fixture f;
  start(&f, 400, UINT64_MAX, 1);
  f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
  for (int k = 0; k < 2; k++) {
    int lane = (k ^ reverse) ? 5 : 9;
    mem(&f, 0, 0, VM_STORE, VM_SPACE_WORKGROUP, 0, 0, (uint64_t)1 << lane, 0, 0,
        lane == 5 ? v1 : v2, 256);
  }
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  assert_int_equal(chk_finding(f.s, 0)->kind, want);
  finish(&f);
}

static void test_race_order(void **state) {
  race_once(0, 1, 2, LS_CHECK_DATA_RACE);
  race_once(1, 1, 2, LS_CHECK_DATA_RACE);
  race_once(0, 7, 7, LS_CHECK_RACE_SAME_VALUE);
  race_once(1, 7, 7, LS_CHECK_RACE_SAME_VALUE);
}

/* read by A, read by B, write by A: the second reader is remembered. */
static void test_race_two_readers(void **state) {
  fixture f;
  start(&f, 400, UINT64_MAX, 1);
  f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
  mem(&f, 0, 0, VM_LOAD, VM_SPACE_BUFFER, 0, 0, 1u << 3, 8, 0, 0, 400);
  mem(&f, 0, 0, VM_LOAD, VM_SPACE_BUFFER, 0, 0, 1u << 4, 8, 0, 0, 400);
  mem(&f, 0, 0, VM_STORE, VM_SPACE_BUFFER, 0, 0, 1u << 3, 8, 0, 1, 400);
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  assert_int_equal(chk_finding(f.s, 0)->kind, LS_CHECK_DATA_RACE);
  finish(&f);
}

/* a barrier between the accesses orders them; different workgroups race */
static void test_race_barrier_and_groups(void **state) {
  fixture f;
  start(&f, 400, UINT64_MAX, 2);
  f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
  mem(&f, 0, 0, VM_STORE, VM_SPACE_BUFFER, 0, 0, 1u << 3, 8, 0, 1, 400);
  uint32_t pcs[2] = {2, 2};
  f.o->barrier_release(f.o->user, 0, (uint32_t[3]){0, 0, 0}, pcs, 2);
  mem(&f, 0, 0, VM_LOAD, VM_SPACE_BUFFER, 0, 0, 1u << 4, 8, 0, 0, 400);
  assert_int_equal(chk_finding_count(f.s), 0);
  f.o->group_begin(f.o->user, 1, (uint32_t[3]){1, 0, 0});
  mem(&f, 1, 0, VM_LOAD, VM_SPACE_BUFFER, 1, 0, 1u << 0, 8, 0, 0, 400);
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->kind, LS_CHECK_DATA_RACE);
  assert_non_null(strstr(x->message, "different workgroups"));
  finish(&f);
}

static void test_barrier_divergence(void **state) {
  fixture f;
  start(&f, 400, UINT64_MAX, 1);
  vm_where w = {{0, 0, 0}, 0, 32};
  f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
  /* subgroup 0: lanes 0..23 reach the barrier at pc 2, 24..31 returned */
  f.o->barrier(f.o->user, 0, &w, 2, 0xFFFFFF, 0xFFFFFF);
  /* subgroup 1 waits at another barrier (pc 3) */
  w.subgroup = 1;
  f.o->barrier(f.o->user, 0, &w, 3, UINT64_C(0xFFFFFFFF), UINT64_C(0xFFFFFFFF));
  uint32_t pcs[2] = {2, 3};
  f.o->barrier_release(f.o->user, 0, (uint32_t[3]){0, 0, 0}, pcs, 2);
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->kind, LS_CHECK_BARRIER_DIVERGENCE);
  assert_int_equal(x->count, 8 + 32);
  assert_true(x->has_second);
  assert_non_null(strstr(x->message, "8 returned"));
  assert_non_null(strstr(x->message, "32 wait at the barrier at line 3"));
  finish(&f);
}

static void test_cap(void **state) {
  fixture f;
  f.p = fake_prog();
  ls_check_options o = {sizeof o, LS_CHECK_ALL, 0, 1};
  f.s = chk_create(1, &o);
  f.o = chk_observer(f.s);
  chk_slot slot = {"datos", 4, UINT64_MAX};
  uint32_t g[3] = {1, 1, 1};
  for (int d = 0; d < 3; d++) {
    chk_dispatch_prepare(f.s, f.p, &slot, g, 32, "main");
    mem(&f, 0, 0, VM_STORE, VM_SPACE_BUFFER, 0, 0, 1, 1u << 20, 0, 0, 4);
    chk_dispatch_finish(f.s, VM_OK, NULL);
  }
  assert_int_equal(chk_finding_count(f.s), 1);
  assert_int_equal(chk_dropped(f.s), 2);
  char *j = chk_findings_json(f.s);
  assert_non_null(j);
  assert_non_null(strstr(j, "\"dropped\": 2"));
  free(j);
  finish(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bounds_first_and_count), cmocka_unit_test(test_logical),
      cmocka_unit_test(test_race_order),             cmocka_unit_test(test_race_two_readers),
      cmocka_unit_test(test_race_barrier_and_groups), cmocka_unit_test(test_barrier_divergence),
      cmocka_unit_test(test_cap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
