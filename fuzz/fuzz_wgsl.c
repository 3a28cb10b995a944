/*
 * fuzz_wgsl.c — libFuzzer target for lockstep's front end: each input is
 * WGSL source; it is compiled (lex, parse, resolve) and, when the module is
 * valid, every compute entry point goes through pipeline creation
 * (lower_pipeline) with default limits and no override values, and what
 * it lowers through the bytecode verifier (ir_verify). Any crash,
 * sanitizer report, rejected program, hang or unbounded allocation is a
 * bug to fix.
 * Built and run by fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ir/lower.h"
#include "wgsl/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wgsl_module *m = wgsl_module_compile((const char *)data, size, "fuzz.wgsl");
  if (!m) return 0;
  if (wgsl_module_ok(m) && m->ast) {
    ls_limits limits;
    ls_limits_default(&limits);
    for (int i = 0; i < m->ast->ndecls; i++) {
      ast_decl *d = m->ast->decls[i];
      if (d->kind != DECL_FN || d->stage != 1) continue;
      diag_list diags;
      diag_init(&diags);
      ir_program *p = lower_pipeline(m, d->name, NULL, 0, &limits, &diags);
      char err[256];
      if (p && !ir_verify(p, err, sizeof err)) {
        /* lowering produced bytecode the verifier rejects: a lowering bug */
        fprintf(stderr, "fuzz_wgsl: entry point '%s': %s\n", d->name, err);
        abort();
      }
      if (p) ir_program_free(p);
      diag_free(&diags);
    }
  }
  wgsl_module_free(m);
  return 0;
}
