/*
 * test_check.c — unit tests of the sanitizer's observer (src/check/) fed
 * with synthetic VM events (vm/observe.h), without running a shader: bounds
 * with the first invocations and counts, logical sizes, races whichever
 * access comes first, barrier divergence (returned lanes, subgroups at
 * different barriers), the cap on stored findings, and texel events: races
 * on a storage texture array (the texel and layer named, the same-value
 * rule on the bytes the format stores), textureBarrier against
 * workgroupBarrier, texel accesses out of bounds; and the short form of
 * the common buffer access (vm_observer.mem_seq) against the full event.
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

static void start_w(fixture *f, uint64_t size, uint64_t logical, uint32_t groups, uint32_t width) {
  f->p = fake_prog();
  f->s = chk_create(2, NULL);
  assert_non_null(f->s);
  f->o = chk_observer(f->s);
  chk_slot slot = {"datos", size, logical};
  uint32_t g[3] = {groups, 1, 1};
  assert_true(chk_dispatch_prepare(f->s, f->p, &slot, g, width, "main"));
}

static void start(fixture *f, uint64_t size, uint64_t logical, uint32_t groups) {
  start_w(f, size, logical, groups, 32);
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

/* Two workgroups, on two threads, touch word 2 of 'datos': a store and a
 * load, a race between workgroups. */
static void cross_group_race(fixture *f) {
  uint32_t g[3] = {2, 1, 1};
  chk_slot slot = {"datos", 4000, UINT64_MAX};
  assert_true(chk_dispatch_prepare(f->s, f->p, &slot, g, 32, "main"));
  f->o->group_begin(f->o->user, 0, (uint32_t[3]){0, 0, 0});
  mem(f, 0, 0, VM_STORE, VM_SPACE_BUFFER, 0, 0, 1u << 2, 0, 4, 1, 4000);
  f->o->group_begin(f->o->user, 1, (uint32_t[3]){1, 0, 0});
  mem(f, 1, 0, VM_LOAD, VM_SPACE_BUFFER, 1, 0, 1u << 0, 8, 0, 0, 4000);
  chk_dispatch_finish(f->s, VM_OK, NULL);
}

/* Issue 11: a binding too large for the between-workgroup shadow was left
 * out without a word. A 4000-byte binding on 2 threads needs 1000 words x
 * 20 bytes x 2 = 40000 bytes; under a budget of 1000 bytes the race is not
 * seen, and a races-unchecked warning names the binding, once over two
 * dispatches (count 2). With the default budget the race is found. */
static void test_issue11_races_unchecked(void **state) {
  const ls_check_options small = {.struct_size = sizeof small, .race_shadow_bytes = 1000};
  fixture f;
  f.p = fake_prog();
  f.s = chk_create(2, &small);
  assert_non_null(f.s);
  f.o = chk_observer(f.s);
  cross_group_race(&f);
  cross_group_race(&f);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->kind, LS_CHECK_RACES_UNCHECKED);
  assert_int_equal(x->severity, LS_CHECK_WARNING);
  assert_string_equal(x->id, "races-unchecked");
  assert_string_equal(x->variable, "datos");
  assert_int_equal(x->group, 0);
  assert_int_equal(x->binding, 1);
  assert_int_equal(x->binding_size, 4000);
  assert_int_equal(x->count, 2);
  assert_non_null(strstr(x->message, "races between workgroups on 'datos' (@group(0) "
                                     "@binding(1)) (4000 bytes) were not checked"));
  assert_non_null(strstr(x->message, "would take 40000 bytes"));
  assert_non_null(strstr(x->message, "budget of 1000 bytes per dispatch "
                                     "(ls_check_options.race_shadow_bytes)"));
  assert_non_null(strstr(x->text, "t.wgsl:1:1 warning: races between workgroups"));
  size_t errors, warnings, notes;
  chk_counts(f.s, &errors, &warnings, &notes);
  assert_int_equal(errors, 0);
  assert_int_equal(warnings, 1);
  finish(&f);

  start(&f, 4000, UINT64_MAX, 2); /* the default budget, 1 GiB */
  chk_dispatch_finish(f.s, VM_OK, NULL);
  cross_group_race(&f);
  assert_int_equal(chk_finding_count(f.s), 1);
  assert_int_equal(chk_finding(f.s, 0)->kind, LS_CHECK_DATA_RACE);
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

/* ------------------------------------------------------------- textures */

static const char SRC_T[] =
    "fn main() {\n  textureStore(img, p, v);\n  textureBarrier();\n  workgroupBarrier();\n}\n";

static src_span span_of(const char *what) {
  const uint32_t at = (uint32_t)(strstr(SRC_T, what) - SRC_T);
  return (src_span){at, at + (uint32_t)strlen(what)};
}

/* A read_write texture_storage_2d_array<rgba16float> of 4 x 2 texels and 2
 * layers (8-byte texels: rows of 32 bytes, layers of 64, 128 in all);
 * pc 0 stores, pc 1 loads (line 2), pc 2 is textureBarrier (line 3), pc 3
 * workgroupBarrier (line 4). */
static void start_tex(fixture *f, uint32_t groups) {
  ir_program *p = calloc(1, sizeof *p);
  p->ncode = 4;
  p->code = calloc(4, sizeof *p->code);
  p->spans = calloc(4, sizeof *p->spans);
  p->code[0].op = IR_TST;
  p->code[1].op = IR_TLD;
  p->code[2].op = p->code[3].op = IR_BARRIER;
  p->spans[0] = p->spans[1] = span_of("textureStore(img, p, v)");
  p->spans[2] = span_of("textureBarrier()");
  p->spans[3] = span_of("workgroupBarrier()");
  p->nbindings = 1;
  p->bindings = calloc(1, sizeof *p->bindings);
  p->bindings[0] = (ir_binding){0, 2, IR_BIND_READ_WRITE_STORAGE_TEXTURE, 0, strdup("img"), {0, 0}};
  p->bindings[0].tex_dim = IR_TEXDIM_2D_ARRAY;
  p->bindings[0].tex_format = LS_FORMAT_RGBA16FLOAT;
  p->wg_size[0] = 64;
  p->wg_size[1] = p->wg_size[2] = 1;
  p->entry_point = strdup("main");
  p->source = SRC_T;
  p->filename = "t.wgsl";
  p->source_len = sizeof SRC_T - 1;
  f->p = p;
  f->s = chk_create(2, NULL);
  assert_non_null(f->s);
  f->o = chk_observer(f->s);
  chk_slot slot;
  memset(&slot, 0, sizeof slot);
  slot.size = 128;
  slot.logical = UINT64_MAX;
  slot.is_texture = 1;
  slot.tex.format = LS_FORMAT_RGBA16FLOAT;
  slot.tex.texel_bytes = 8;
  slot.tex.levels = 1;
  slot.tex.layers = 2;
  slot.tex.level[0].w = 4;
  slot.tex.level[0].h = 2;
  slot.tex.level[0].d = 2;
  slot.tex.level[0].row = 32;
  slot.tex.level[0].slice = 64;
  uint32_t g[3] = {groups, 1, 1};
  assert_true(chk_dispatch_prepare(f->s, f->p, &slot, g, 32, "main"));
}

/* Lane l of the mask accesses texel (x0 + l, y, z) of level 0; a store
 * writes vec4(r, 2, 3, 4) with r given as f32 bits. */
static void texel(fixture *f, unsigned th, uint32_t pc, vm_access acc, uint32_t group,
                  uint32_t sub, uint64_t mask, uint64_t oob, uint32_t x0, uint32_t y, uint32_t z,
                  uint32_t r) {
  static uint32_t c[4][32], v[4 * 32];
  for (int l = 0; l < 32; l++) {
    c[0][l] = x0 + (uint32_t)l;
    c[1][l] = y;
    c[2][l] = z;
    c[3][l] = 0;
    v[l] = r;
    v[32 + l] = 0x40000000u;      /* 2.0 */
    v[64 + l] = 0x40400000u;      /* 3.0 */
    v[96 + l] = 0x40800000u;      /* 4.0 */
  }
  vm_where w = {{group, 0, 0}, sub, 32};
  vm_texture t;
  memset(&t, 0, sizeof t);
  t.format = LS_FORMAT_RGBA16FLOAT;
  t.texel_bytes = 8;
  t.levels = 1;
  t.layers = 2;
  t.level[0].w = 4;
  t.level[0].h = 2;
  t.level[0].d = 2;
  t.level[0].row = 32;
  t.level[0].slice = 64;
  vm_texel_event e = {pc, acc, 0, mask, oob, {c[0], c[1], c[2], c[3]},
                      acc == VM_STORE ? v : NULL, &t, &w};
  f->o->texel(f->o->user, th, &e);
}

static void test_texture_race_groups(void **state) {
  fixture f;
  start_tex(&f, 2);
  /* lane 3 of workgroups 0 and 1 stores texel (3, 1) of layer 1: red 1.0
   * and 2.0, two different texels of bytes */
  for (uint32_t g = 0; g < 2; g++) {
    f.o->group_begin(f.o->user, g, (uint32_t[3]){g, 0, 0});
    texel(&f, g, 0, VM_STORE, g, 0, 1u << 3, 0, 0, 1, 1, g ? 0x40000000u : 0x3f800000u);
  }
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->kind, LS_CHECK_DATA_RACE);
  assert_true(x->texel);
  assert_int_equal(x->texel_coord[0], 3);
  assert_int_equal(x->texel_coord[1], 1);
  assert_int_equal(x->texel_coord[2], 1);
  assert_int_equal(x->texel_coord[3], 0);
  assert_int_equal(x->texture_size[0], 4);
  assert_int_equal(x->texture_size[1], 2);
  assert_int_equal(x->texture_size[2], 2);
  assert_int_equal(x->access_size, 8);
  assert_non_null(strstr(x->message, "of 'img' (@group(0) @binding(2)), texel (3, 1), array layer 1 "
                                     "of level 0, from different workgroups"));
  finish(&f);
}

/* rgba16float stores quantizeToF16 of each component. Red 1.0 against
 * 0x3f800008 = 1 + 8 x 2^-23 = 1 + 2^-20: f16 has 10 fraction bits, its
 * step at 1 is 2^-10, so both are the f16 1.0 and the texel bytes are
 * equal (a same-value race); 1.0 against 1.5 (0x3fc00000) is a race. */
static void test_texture_same_value(void **state) {
  static const uint32_t other[2] = {0x3f800008u, 0x3fc00000u};
  for (int k = 0; k < 2; k++) {
    fixture f;
    start_tex(&f, 1);
    f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
    texel(&f, 0, 0, VM_STORE, 0, 0, 1u << 0, 0, 2, 0, 0, 0x3f800000u);
    texel(&f, 0, 0, VM_STORE, 0, 1, 1u << 2, 0, 0, 0, 0, other[k]);
    chk_dispatch_finish(f.s, VM_OK, NULL);
    assert_int_equal(chk_finding_count(f.s), 1);
    const ls_check_finding *x = chk_finding(f.s, 0);
    assert_int_equal(x->kind, k == 0 ? LS_CHECK_RACE_SAME_VALUE : LS_CHECK_DATA_RACE);
    assert_int_equal(x->texel_coord[0], 2);
    finish(&f);
  }
}

/* Within a workgroup: a store by subgroup 0 and a load of the same texel
 * by subgroup 1, with a barrier released between them: textureBarrier
 * orders them, workgroupBarrier does not (WGSL: it orders the workgroup
 * address space only). */
static void test_texture_barrier(void **state) {
  for (int k = 0; k < 2; k++) {
    fixture f;
    start_tex(&f, 1);
    f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
    texel(&f, 0, 0, VM_STORE, 0, 0, 1u << 1, 0, 0, 0, 0, 0x3f800000u);
    const uint32_t pcs[2] = {k == 0 ? 2u : 3u, k == 0 ? 2u : 3u};
    f.o->barrier_release(f.o->user, 0, (uint32_t[3]){0, 0, 0}, pcs, 2);
    texel(&f, 0, 1, VM_LOAD, 0, 1, 1u << 0, 0, 1, 0, 0, 0);
    chk_dispatch_finish(f.s, VM_OK, NULL);
    assert_int_equal(chk_finding_count(f.s), k == 0 ? 0 : 1);
    if (k) {
      assert_int_equal(chk_finding(f.s, 0)->kind, LS_CHECK_DATA_RACE);
      assert_non_null(strstr(chk_finding(f.s, 0)->message, "no textureBarrier between them"));
    }
    finish(&f);
  }
}

/* Lanes outside the view: a warning with the first invocation's texel
 * (x = -1 as the shader wrote it, u32 0xFFFFFFFF) and the view's size;
 * those lanes take no part in races. */
static void test_texture_oob(void **state) {
  fixture f;
  start_tex(&f, 1);
  f.o->group_begin(f.o->user, 0, (uint32_t[3]){0, 0, 0});
  /* lanes 0..4 at x = -1 .. 3: lane 0 outside */
  texel(&f, 0, 0, VM_STORE, 0, 0, 0x1f, 0x1, 0xFFFFFFFFu, 0, 0, 0x3f800000u);
  chk_dispatch_finish(f.s, VM_OK, NULL);
  assert_int_equal(chk_finding_count(f.s), 1);
  const ls_check_finding *x = chk_finding(f.s, 0);
  assert_int_equal(x->kind, LS_CHECK_TEXEL_OUT_OF_BOUNDS);
  assert_int_equal(x->severity, LS_CHECK_WARNING);
  assert_int_equal(x->count, 1);
  assert_int_equal(x->texel_coord[0], 0xFFFFFFFFu);
  assert_int_equal(x->texture_levels, 1);
  assert_non_null(strstr(x->message, "textureStore to 'img' (@group(0) @binding(2)) outside the "
                                     "texture view: texel (-1, 0), array layer 0 of level 0; the "
                                     "view is 4 x 2 texels, 2 array layers at level 0 (1 mip level)"));
  assert_non_null(strstr(x->text, "t.wgsl:2:3 warning:"));
  finish(&f);
}

/* One buffer access by all W lanes of (group, sub) on the consecutive
 * words from word w0, through vm_observer.mem_seq when seq is set (the
 * VM's short form, which it uses only when every lane is inside the
 * binding) or as the full event. */
static void mem_run(fixture *f, int seq, unsigned th, uint32_t pc, vm_access acc, uint32_t group,
                    uint32_t sub, uint32_t width, uint64_t w0, uint32_t value, uint64_t size) {
  uint64_t a[64];
  uint32_t v[64];
  for (uint32_t l = 0; l < width; l++) {
    a[l] = 4 * (w0 + (uint64_t)l);
    v[l] = value + l;
  }
  vm_where w = {{group, 0, 0}, sub, width};
  if (seq) {
    f->o->mem_seq(f->o->user, th, &w, pc, acc, 0, 4 * w0, acc == VM_STORE ? v : NULL, size);
    return;
  }
  const uint64_t all = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
  vm_mem_event e = {pc, acc, VM_SPACE_BUFFER, 0, 0, all, a, v, size, &w, 1, 0, 4};
  f->o->mem(f->o->user, th, &e);
}

/* The short form finds exactly what the full event finds: the same script
 * (clean accesses, a race inside a workgroup and one across workgroups, a
 * run across two blocks of the race detector, one past the logical size,
 * the same value written twice) gives the same findings, as JSON, on one
 * thread and on two, at 8, 32 and 64 lanes (word offsets scale with the
 * width, so each subgroup keeps its place in the script). */
static void test_mem_seq_same_findings(void **state) {
  static const uint32_t widths[] = {8, 32, 64};
  for (size_t wi = 0; wi < 3; wi++)
  for (unsigned threads = 1; threads <= 2; threads++) {
    const uint32_t W = widths[wi];
    char *json[2];
    for (int seq = 0; seq < 2; seq++) {
      fixture f;
      start_w(&f, 4000 * W / 32 + 64, 3000 * W / 32, 4, W);
      static const struct {
        uint32_t group, sub, pc;
        vm_access acc;
        uint64_t w0;
        uint32_t value;
      } script[] = {
          {0, 0, 0, VM_LOAD, 0, 0},     {0, 0, 0, VM_STORE, 0, 7},    {0, 1, 0, VM_LOAD, 32, 0},
          {0, 1, 0, VM_STORE, 32, 7},   {1, 0, 0, VM_STORE, 16, 9},   {1, 1, 1, VM_LOAD, 40, 0},
          {1, 1, 0, VM_STORE, 100, 3},  {2, 0, 0, VM_STORE, 736, 1},  {2, 1, 1, VM_LOAD, 120, 0},
          {3, 0, 0, VM_STORE, 0, 7},    {3, 1, 0, VM_STORE, 200, 5},  {3, 1, 1, VM_LOAD, 210, 0},
      };
      uint32_t group = UINT32_MAX;
      for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
        unsigned th = script[i].group % threads;
        if (script[i].group != group) {
          group = script[i].group;
          f.o->group_begin(f.o->user, th, (uint32_t[3]){group, 0, 0});
        }
        mem_run(&f, seq, th, script[i].pc, script[i].acc, group, script[i].sub, W,
                script[i].w0 * W / 32, script[i].value, 4000 * W / 32 + 64);
      }
      chk_dispatch_finish(f.s, VM_OK, NULL);
      /* races inside a workgroup and across, beyond the logical size */
      assert_true(chk_finding_count(f.s) >= 3);
      json[seq] = chk_findings_json(f.s);
      assert_non_null(json[seq]);
      finish(&f);
    }
    assert_string_equal(json[0], json[1]);
    assert_non_null(strstr(json[0], "beyond-logical-size"));
    assert_non_null(strstr(json[0], "data-race"));
    free(json[0]);
    free(json[1]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mem_seq_same_findings),
      cmocka_unit_test(test_bounds_first_and_count), cmocka_unit_test(test_logical),
      cmocka_unit_test(test_race_order),             cmocka_unit_test(test_race_two_readers),
      cmocka_unit_test(test_race_barrier_and_groups), cmocka_unit_test(test_barrier_divergence),
      cmocka_unit_test(test_issue11_races_unchecked),
      cmocka_unit_test(test_cap),
      cmocka_unit_test(test_texture_race_groups),    cmocka_unit_test(test_texture_same_value),
      cmocka_unit_test(test_texture_barrier),        cmocka_unit_test(test_texture_oob),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
