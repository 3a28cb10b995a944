/*
 * fuzz_run.c — libFuzzer target for compiling and running shaders: each
 * input is WGSL source. When it compiles, every compute entry point gets a
 * resource for each binding its layout reports (fuzz_resources.h) and is
 * dispatched through the public API on a small adapter: one worker thread,
 * a budget of 2^16 subgroup-instructions per workgroup and 2^18 per
 * dispatch, a 2-second time limit per submit. A hash of the input picks
 * the subgroup width (8, 16, 32, 64), the dispatch size (1 to 3 x 1 to 2
 * workgroups) and the observers (none, the sanitizer, the profiler, both),
 * so each mutation may run another way; the observers' reports are made
 * too. A crash, a sanitizer report, an
 * internal error (fuzz/run.sh builds with the bytecode verifier on, so a
 * program lowering got wrong is one), a hang past the limits or an
 * unbounded allocation is a bug to fix; results are not checked.
 *
 * Built with FUZZ_JIT (fuzz/run.sh, FUZZ_TARGET=jit), the target is
 * differential instead: each input runs on the interpreter and then on the
 * compiled tier (src/vm/jit.c, every compilable program compiled by the C
 * compiler at its first dispatch), and the two must agree on every entry
 * point: whether it ran, the error it gave (budget stops included, which
 * name the instruction), whether the device was lost, and every buffer's
 * bytes. When the hash picks the profiler, both runs are profiled (the
 * compiled one with observed compiled code, its traced workgroup on the
 * interpreter) and their JSON reports must be the same bytes too; when it
 * picks the sanitizer, so must its findings' JSON. Only a stop at the time limit, which
 * depends on the machine, excuses a difference; a build that fails is a
 * crash, unless the compiler only ran past its time limit. At exit it
 * prints how many inputs ran compiled code and how many builds were too
 * slow.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_resources.h"
#include "vm/vm_jit.h"
#include "wgsl/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char last_error[512];

static void on_error(void *user, ls_error_type type, const char *message) {
  (void)user;
  snprintf(last_error, sizeof last_error, "%s", message);
  if (type == LS_ERROR_INTERNAL) {
    fprintf(stderr, "fuzz_run: internal error: %s\n", message);
    abort();
  }
}

static uint32_t fnv1a(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

static const char *const features[] = {"shader-f16", "subgroups", "texture-formats-tier2",
                                       "bgra8unorm-storage", "float32-filterable"};

/* What one entry point did, for the differential target. */
typedef struct {
  int ran, lost;
  uint64_t digest;
  char error[512];
} fz_outcome;

#define FZ_MAX_ENTRIES 16

/* Compiles src and runs every compute entry point on a fresh device; with
 * out, each entry's outcome there (at most max), and the profiler's JSON
 * report and the sanitizer's findings as JSON hashed into pdigest[0] and
 * pdigest[1] when the hash picks them (0 when not); returns how many
 * entries ran or were refused. */
static int fz_module(const char *src, uint32_t h, fz_outcome *out, int max, uint64_t *pdigest) {
  ls_adapter_options o = {.struct_size = sizeof o,
                          .subgroup_size = 8u << (h & 3),
                          .threads = 1,
                          .instruction_budget = 1u << 16,
                          .dispatch_instruction_budget = 1u << 18,
                          .time_limit_ms = 2000};
  char err[256];
  ls_adapter *ad = ls_adapter_create(&o, err, sizeof err);
  ls_device_desc dd = {.struct_size = sizeof dd,
                       .required_features = features,
                       .required_feature_count = sizeof features / sizeof features[0]};
  ls_status st;
  ls_device *d = ad ? ls_adapter_create_device(ad, &dd, &st, err, sizeof err) : NULL;
  if (!d) {
    fprintf(stderr, "fuzz_run: no device: %s\n", err);
    abort();
  }
  ls_device_set_error_callback(d, on_error, NULL);
  ls_profiler *prof = NULL;
  const int checks = (h & 0x10) != 0;
  if (checks) (void)ls_device_enable_checks(d, 1, NULL);
  if (h & 0x20) {
    const ls_profiler_options po = {.struct_size = sizeof po, .trace = 1};
    prof = ls_profiler_attach(d, &po, err, sizeof err);
  }
  const uint32_t groups[3] = {1 + (h >> 8) % 3, 1 + (h >> 10) % 2, 1};
  const ls_shader_module_desc sd = {.code = src, .label = "fuzz.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  int n = 0;
  if (m && ls_shader_module_is_valid(m)) {
    const ast_module *am = m->module->ast;
    for (int i = 0; am && i < am->ndecls && (!out || n < max); i++) {
      const ast_decl *fn = am->decls[i];
      if (fn->kind != DECL_FN || fn->stage != 1) continue;
      last_error[0] = 0;
      uint64_t digest = 0;
      const int ran = fz_run_entry(d, m, fn->name, groups, last_error, out ? &digest : NULL);
      if (out) {
        out[n] = (fz_outcome){.ran = ran, .lost = ls_device_is_lost(d), .digest = digest};
        snprintf(out[n].error, sizeof out[n].error, "%s", last_error);
      }
      n++;
      if (ls_device_is_lost(d)) break; /* a runaway: the device takes nothing more */
    }
  }
  if (pdigest) pdigest[0] = pdigest[1] = 0;
  if (prof && out) {
    char *j = ls_profiler_report_json(prof, "fuzz");
    if (pdigest && j) pdigest[0] = fz_hash(UINT64_C(0xcbf29ce484222325), j, strlen(j));
    ls_free(j);
  }
  if (checks && out) {
    char *j = ls_device_check_findings_json(d);
    if (pdigest && j) pdigest[1] = fz_hash(UINT64_C(0xcbf29ce484222325), j, strlen(j));
    ls_free(j);
  }
  /* what the observers make of it: every report */
  if (prof && !out) {
    char *t[3] = {ls_profiler_report_text(prof, "fuzz"), ls_profiler_report_json(prof, "fuzz"),
                  ls_profiler_report_html(prof, "fuzz", "fuzz")};
    for (int i = 0; i < 3; i++) ls_free(t[i]);
    for (size_t i = 0; i < ls_profiler_dispatch_count(prof); i++) ls_free(ls_profiler_annotate(prof, i));
  }
  if (checks && !out) ls_free(ls_device_check_findings_json(d));
  ls_shader_module_release(m);
  ls_profiler_destroy(prof);
  ls_device_release(d);
  ls_adapter_release(ad);
  return n;
}

#ifdef FUZZ_JIT
static unsigned long fz_inputs, fz_compiled, fz_slow;

static void fz_jit_stats(void) {
  fprintf(stderr, "fuzz_run: %lu inputs, %lu of them ran compiled code, %lu builds past the "
          "compiler's time limit\n", fz_inputs, fz_compiled, fz_slow);
}

static int fz_timed_out(const fz_outcome *o) { return strstr(o->error, "time limit") != NULL; }

/* The interpreter's run against the compiled tier's. */
static void fz_differ(const char *src, uint32_t h) {
  static fz_outcome a[FZ_MAX_ENTRIES], b[FZ_MAX_ENTRIES];
  if (!fz_inputs++) atexit(fz_jit_stats);
  uint64_t pa[2], pb[2];
  vm_jit_set_mode("off");
  const int na = fz_module(src, h, a, FZ_MAX_ENTRIES, pa);
  const uint64_t before = vm_jit_runs();
  static char failed[4608]; /* as long as jit.c's error text */
  snprintf(failed, sizeof failed, "%s", vm_jit_last_error());
  vm_jit_set_mode("on");
  const int nb = fz_module(src, h, b, FZ_MAX_ENTRIES, pb);
  const char *err = vm_jit_last_error();
  if (strcmp(failed, err)) { /* a build failed during this input */
    if (!strstr(err, "time limit")) { /* the generator wrote C that did not build */
      fprintf(stderr, "fuzz_run: the compiled tier's build failed: %s\n", err);
      abort();
    }
    fz_slow++; /* slow, not wrong: the interpreter ran it */
  }
  if (vm_jit_runs() == before) return; /* nothing compiled: the same run twice */
  fz_compiled++;
  for (int i = 0; i < na && i < nb; i++) {
    if (fz_timed_out(&a[i]) || fz_timed_out(&b[i])) return;
    if (a[i].ran != b[i].ran || a[i].lost != b[i].lost || a[i].digest != b[i].digest ||
        strcmp(a[i].error, b[i].error)) {
      fprintf(stderr,
              "fuzz_run: the compiled tier differs from the interpreter at entry point %d (W = %u)\n"
              "  interpreter: ran %d, lost %d, buffers %016llx, error \"%s\"\n"
              "  compiled:    ran %d, lost %d, buffers %016llx, error \"%s\"\n",
              i, 8u << (h & 3), a[i].ran, a[i].lost, (unsigned long long)a[i].digest, a[i].error,
              b[i].ran, b[i].lost, (unsigned long long)b[i].digest, b[i].error);
      abort();
    }
  }
  if (na != nb) {
    fprintf(stderr, "fuzz_run: %d entry points ran on the interpreter, %d compiled\n", na, nb);
    abort();
  }
  for (int k = 0; k < 2; k++)
    if (pa[k] != pb[k]) {
      fprintf(stderr, "fuzz_run: the %s of the compiled run differs from the interpreter's "
              "(W = %u): %016llx against %016llx\n", k ? "sanitizer's findings" : "profile",
              8u << (h & 3), (unsigned long long)pb[k], (unsigned long long)pa[k]);
      abort();
    }
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = malloc(size + 1);
  if (!src) return 0;
  memcpy(src, data, size);
  src[size] = 0; /* the module reads up to the first NUL, as a C string */
  const uint32_t h = fnv1a(data, size);
#ifdef FUZZ_JIT
  fz_differ(src, h);
#else
  (void)fz_module(src, h, NULL, 0, NULL);
#endif
  free(src);
  return 0;
}
