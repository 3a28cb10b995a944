/*
 * test_compile.c — resolver and pipeline-creation diagnostics: each bad
 * shader gives the expected message at the expected line and column, and
 * each good one resolves with the values the spec gives (layout, overrides,
 * workgroup sizes, workgroup storage).
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
#include "wgsl/sema.h"
#include "wgsl/wgsl.h"

/* Compiles src and expects an error whose message contains `msg` at
 * line:col (col 0 = don't care). */
static void expect_error(const char *src, const char *msg, unsigned line, unsigned col) {
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "t.wgsl");
  assert_non_null(m);
  const diag_list *d = wgsl_module_diags(m);
  int found = 0;
  for (size_t i = 0; i < d->count; i++) {
    if (d->items[i].severity != DIAG_ERROR || !strstr(d->items[i].message, msg)) continue;
    uint32_t l, c;
    diag_line_col(src, strlen(src), d->items[i].span.start, &l, &c);
    if (l == line && (col == 0 || c == col)) found = 1;
  }
  if (!found) {
    char *t = diag_format(d, src, strlen(src), "t.wgsl");
    fprintf(stderr, "expected '%s' at %u:%u, got:\n%s", msg, line, col, t ? t : "");
    free(t);
  }
  assert_true(found);
  assert_false(wgsl_module_ok(m));
  wgsl_module_free(m);
}

static void test_resolver_errors(void **state) {
  (void)state;
  expect_error("fn f() { let x = y; }", "unresolved identifier 'y'", 1, 18);
  expect_error("fn f() {\n  let x: u32 = 1.5;\n}", "cannot initialize 'x'", 2, 16);
  expect_error("fn f() { let x = 1; x = 2; }", "not a memory reference", 1, 21);
  expect_error("@group(0) @binding(0) var<storage, read> d: array<f32>;\n"
               "fn f() { d[0] = 1.0; }",
               "read-only", 2, 10);
  expect_error("var<storage> d: array<f32>;", "needs @group and @binding", 1, 14);
  expect_error("@compute @workgroup_size(0) fn main() {}", "must be greater than 0", 1, 26);
  expect_error("fn a() -> u32 { return b(); }\nfn b() -> u32 { return a(); }", "recursively", 2, 24);
  expect_error("const big = 9223372036854775807 + 1;", "overflows abstract-int", 1, 13);
  expect_error("const z = 1 / 0;", "division by zero", 1, 11);
  expect_error("fn f() { break; }", "'break' outside a loop", 1, 10);
  expect_error("fn f() -> i32 { if (true) { return 1; } }", "must return a value on every path", 1, 4);
  expect_error("var<workgroup> w: array<f32, 4> = array<f32, 4>();", "cannot have an initializer", 1, 35);
  expect_error("fn f() { let v = vec3<f32>(1.0, 2.0); }", "no constructor vec3<f32>", 1, 18);
  expect_error("fn f() { let a = array<u32, 4>(1u, 2u, 3u, 4u); let b = a[4]; }", "out of bounds", 1, 59);
  expect_error("fn f() { let v = vec2f(1.0).xyz; }", "invalid vector swizzle", 1, 29);
  expect_error("fn f() { let b = true + 1; }", "no operator '+'", 1, 18);
  expect_error("struct S { a: array<f32>, b: u32 };", "must be the last member", 1, 12);
  expect_error("@compute @workgroup_size(64) fn main(@builtin(vertex_index) v: u32) {}",
               "not supported in a compute shader", 1, 0);
  expect_error("@compute @workgroup_size(64) fn main(x: u32) {}", "needs @builtin", 1, 38);
  expect_error("fn f() { let x = 1; let x = 2; }", "already declared", 1, 25);
  expect_error("override n: u32 = 1u;\nvar<private> p: array<f32, n>;", "only allowed in workgroup memory", 2, 17);
}

static void test_layout_and_folding(void **state) {
  (void)state;
  const char *src =
      "struct S { a: u32, b: vec3<f32>, c: f32, d: vec2<u32>, e: array<vec3f, 2> };\n"
      "const K = (3 + 4) * 2;\n"
      "const F: f32 = K / 4;\n"
      "const_assert K == 14;\n";
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "t.wgsl");
  assert_true(wgsl_module_ok(m));
  /* the spec's layout: a@0, b@16 (vec3 align 16), c@28, d@32, e@48 stride 16 */
  const ast_decl *s = m->ast->decls[0];
  const type *t = s->rtype;
  assert_int_equal(t->fields[0].offset, 0);
  assert_int_equal(t->fields[1].offset, 16);
  assert_int_equal(t->fields[2].offset, 28);
  assert_int_equal(t->fields[3].offset, 32);
  assert_int_equal(t->fields[4].offset, 48);
  assert_int_equal(t->fields[4].type->stride, 16);
  assert_int_equal(t->size, 80);
  assert_int_equal(t->align, 16);
  /* K is AbstractInt 14; F converts 14/4 = 3 (integer division happens in
   * AbstractInt before the conversion to f32) */
  assert_int_equal(m->ast->decls[1]->cval->i, 14);
  assert_true(m->ast->decls[2]->cval->f == 3.0);
  wgsl_module_free(m);
}

/* Pipeline creation: an error containing `msg`, or success when msg NULL. */
static ir_program *pipeline(const char *src, const ls_constant_entry *cs, size_t n,
                            const ls_limits *lim, const char *msg, wgsl_module **out) {
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "t.wgsl");
  assert_true(wgsl_module_ok(m));
  ls_limits def;
  ls_limits_default(&def);
  diag_list d;
  diag_init(&d);
  ir_program *p = lower_pipeline(m, NULL, cs, n, lim ? lim : &def, &d);
  char *t = diag_format(&d, src, strlen(src), "t.wgsl");
  if (msg) {
    if (p || !t || !strstr(t, msg)) fprintf(stderr, "expected '%s', got:\n%s", msg, t ? t : "");
    assert_null(p);
    assert_non_null(strstr(t, msg));
  } else {
    if (!p) fprintf(stderr, "%s", t);
    assert_non_null(p);
  }
  free(t);
  diag_free(&d);
  *out = m;
  return p;
}

static void test_pipeline_checks(void **state) {
  (void)state;
  wgsl_module *m;
  /* the product, not each dimension, is what bites */
  pipeline("@compute @workgroup_size(256, 256) fn main() {}", NULL, 0, NULL,
           "@workgroup_size(256, 256, 1) is 65536 invocations per workgroup, over the device limit "
           "maxComputeInvocationsPerWorkgroup (256)",
           &m);
  wgsl_module_free(m);
  pipeline("@compute @workgroup_size(1, 1, 65) fn main() {}", NULL, 0, NULL,
           "t.wgsl:1:32 error: workgroup size z = 65 exceeds the device limit maxComputeWorkgroupSizeZ (64)", &m);
  wgsl_module_free(m);
  /* 4097 f32 = 16388 bytes, rounded up to 16400 */
  pipeline("var<workgroup> big: array<f32, 4097>;\n"
           "@compute @workgroup_size(64) fn main() { big[0] = 1.0; }",
           NULL, 0, NULL,
           "uses 16400 bytes of workgroup storage ('big' 16400 bytes), over the device limit "
           "maxComputeWorkgroupStorageSize (16384)",
           &m);
  wgsl_module_free(m);
  /* an unused workgroup variable does not count */
  ir_program *p = pipeline("var<workgroup> big: array<f32, 8192>;\n"
                           "@compute @workgroup_size(64) fn main() {}",
                           NULL, 0, NULL, NULL, &m);
  assert_int_equal(p->wg_mem_size, 0);
  ir_program_free(p);
  wgsl_module_free(m);
  pipeline("override TAM: u32;\n@compute @workgroup_size(TAM) fn main() {}", NULL, 0, NULL,
           "override 'TAM' has no value", &m);
  wgsl_module_free(m);
  ls_constant_entry zero = {"TAM", 0};
  pipeline("override TAM: u32 = 64u;\n@compute @workgroup_size(TAM) fn main() {}", &zero, 1, NULL,
           "workgroup size x must be greater than 0, found 0", &m);
  wgsl_module_free(m);
  ls_constant_entry bogus = {"TAMANO", 3};
  pipeline("override TAM: u32 = 64u;\n@compute @workgroup_size(TAM) fn main() {}", &bogus, 1, NULL,
           "'TAMANO' does not name an override", &m);
  wgsl_module_free(m);
  ls_constant_entry frac = {"TAM", 2.5};
  pipeline("override TAM: u32 = 64u;\n@compute @workgroup_size(TAM) fn main() {}", &frac, 1, NULL,
           "2.5 is not a valid u32 value", &m);
  wgsl_module_free(m);
  /* one module, two pipelines */
  const char *ov = "override TAM: u32 = 64u;\n"
                   "var<workgroup> buf: array<f32, TAM>;\n"
                   "@compute @workgroup_size(TAM) fn main(@builtin(local_invocation_index) i: u32) { buf[i] = 1.0; }";
  p = pipeline(ov, NULL, 0, NULL, NULL, &m);
  assert_int_equal(p->wg_size[0], 64);
  assert_int_equal(p->wg_mem_size, 256);
  ir_program_free(p);
  wgsl_module_free(m);
  ls_constant_entry t256 = {"TAM", 256};
  p = pipeline(ov, &t256, 1, NULL, NULL, &m);
  assert_int_equal(p->wg_size[0], 256);
  assert_int_equal(p->wg_mem_size, 1024);
  ir_program_free(p);
  wgsl_module_free(m);
  /* by @id */
  ls_constant_entry by_id = {"7", 32};
  p = pipeline("@id(7) override TAM: u32 = 64u;\n@compute @workgroup_size(TAM, 2) fn main() {}", &by_id, 1,
               NULL, NULL, &m);
  assert_int_equal(p->wg_size[0], 32);
  assert_int_equal(p->wg_size[1], 2);
  ir_program_free(p);
  wgsl_module_free(m);
  /* a raised limit lets 1024 through */
  ls_limits big;
  ls_limits_default(&big);
  big.max_compute_invocations_per_workgroup = 1024;
  big.max_compute_workgroup_size_x = 1024;
  p = pipeline("@compute @workgroup_size(1024) fn main() {}", NULL, 0, &big, NULL, &m);
  assert_int_equal(p->wg_size[0], 1024);
  ir_program_free(p);
  wgsl_module_free(m);
  /* bindings the entry point uses, with their minimum sizes */
  p = pipeline("struct P { n: u32, pad: vec3u };\n"
               "struct D { count: u32, items: array<vec2f> };\n"
               "@group(0) @binding(0) var<uniform> params: P;\n"
               "@group(1) @binding(3) var<storage, read_write> data: D;\n"
               "@group(0) @binding(1) var<storage> unused: array<u32>;\n"
               "@compute @workgroup_size(1) fn main() { data.items[params.n].x = 1.0; }",
               NULL, 0, NULL, NULL, &m);
  assert_int_equal(p->nbindings, 2);
  assert_int_equal(p->bindings[0].group, 0);
  assert_int_equal(p->bindings[0].kind, IR_BIND_UNIFORM);
  assert_int_equal(p->bindings[0].min_size, 32);
  assert_int_equal(p->bindings[1].binding, 3);
  assert_int_equal(p->bindings[1].kind, IR_BIND_STORAGE);
  assert_int_equal(p->bindings[1].min_size, 16); /* items at 8, one vec2f of 8 */
  ir_program_free(p);
  wgsl_module_free(m);
}

static void test_entry_point_lookup(void **state) {
  (void)state;
  const char *src = "@compute @workgroup_size(1) fn a() {}\n@compute @workgroup_size(1) fn b() {}\nfn c() {}";
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "t.wgsl");
  assert_true(wgsl_module_ok(m));
  ls_limits lim;
  ls_limits_default(&lim);
  diag_list d;
  diag_init(&d);
  assert_null(lower_pipeline(m, "nope", NULL, 0, &lim, &d));
  assert_non_null(strstr(d.items[0].message, "no entry point named 'nope'"));
  diag_free(&d);
  diag_init(&d);
  assert_null(lower_pipeline(m, "c", NULL, 0, &lim, &d));
  assert_non_null(strstr(d.items[0].message, "not an entry point"));
  diag_free(&d);
  diag_init(&d);
  assert_null(lower_pipeline(m, NULL, NULL, 0, &lim, &d));
  assert_non_null(strstr(d.items[0].message, "2 compute entry points"));
  diag_free(&d);
  diag_init(&d);
  ir_program *p = lower_pipeline(m, "b", NULL, 0, &lim, &d);
  assert_non_null(p);
  assert_string_equal(p->entry_point, "b");
  ir_program_free(p);
  diag_free(&d);
  wgsl_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resolver_errors),
      cmocka_unit_test(test_layout_and_folding),
      cmocka_unit_test(test_pipeline_checks),
      cmocka_unit_test(test_entry_point_lookup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
