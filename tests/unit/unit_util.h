/*
 * unit_util.h — helpers the C unit tests share: compile a WGSL source and
 * create its pipeline with the default limits (printing the diagnostics
 * when either fails, so a failing test says why), and verify the bytecode.
 * Header-only: each test file is its own executable.
 */
#ifndef LOCKSTEP_UNIT_UTIL_H
#define LOCKSTEP_UNIT_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/lower.h"
#include "vm/vm.h" /* vm_f2u_bits, vm_bits_f: the bits of an f32 */
#include "wgsl/wgsl.h"

static inline void tu_print_diags(const diag_list *d, const char *src) {
  char *t = diag_format(d, src, strlen(src), "test.wgsl");
  fprintf(stderr, "%s", t);
  free(t);
}

/* src compiled; the test fails (with the diagnostics) unless it is valid. */
static inline wgsl_module *tu_compile(const char *src) {
  wgsl_module *m = wgsl_module_compile(src, strlen(src), "test.wgsl");
  assert_non_null(m);
  if (!wgsl_module_ok(m)) tu_print_diags(wgsl_module_diags(m), src);
  assert_true(wgsl_module_ok(m));
  return m;
}

/* src compiled and lowered for its only entry point with override values
 * cs (default limits); *mod gets the module, to free after the program. */
static inline ir_program *tu_build(const char *src, const ls_constant_entry *cs, size_t ncs,
                                   wgsl_module **mod) {
  wgsl_module *m = tu_compile(src);
  ls_limits lim;
  ls_limits_default(&lim);
  diag_list d;
  diag_init(&d);
  ir_program *p = lower_pipeline(m, NULL, cs, ncs, &lim, &d);
  if (!p) tu_print_diags(&d, src);
  diag_free(&d);
  assert_non_null(p);
  /* every program a unit test lowers goes through the verifier */
  char err[256];
  if (!ir_verify(p, err, sizeof err)) fail_msg("the verifier rejects the lowered program: %s", err);
  *mod = m;
  return p;
}

#endif
