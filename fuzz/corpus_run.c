/*
 * corpus_run.c — runs shaders that nobody wrote inputs for: every compute
 * entry point of each WGSL file named on the command line gets resources
 * made to fit its layout (fuzz_resources.h) and is dispatched on 2
 * workgroups at W = 8 and 64 with a bounded instruction budget. Built with AddressSanitizer and
 * UndefinedBehaviorSanitizer by fuzz/corpus_run.sh, it looks for memory
 * errors and undefined behaviour in lowering and in the VM on real
 * shaders (Dawn's test corpus): a report or a crash is a bug, and so is
 * an internal error (corpus_run.sh builds with the bytecode verifier on,
 * so a program lowering got wrong is one); results are not checked. Prints one line per file: "ran N", "refused: MESSAGE" or
 * "invalid".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "fuzz_resources.h"
#include "wgsl/sema.h"

static char last_error[512];

static void on_error(void *user, ls_error_type type, const char *message) {
  (void)user;
  snprintf(last_error, sizeof last_error, "%s", message);
  /* an internal error is lockstep's bug (among them the bytecode verifier
   * rejecting what lowering produced): stop here, as a crash */
  if (type == LS_ERROR_INTERNAL) {
    fprintf(stderr, "corpus_run: internal error: %s\n", message);
    abort();
  }
}

static const char *const features[] = {"shader-f16", "subgroups", "texture-formats-tier2",
                                       "bgra8unorm-storage", "float32-filterable"};

int main(int argc, char **argv) {
  for (int a = 1; a < argc; a++) {
    size_t len;
    char *src = fz_read_file(argv[a], &len);
    if (!src) {
      printf("%s: unreadable\n", argv[a]);
      continue;
    }
    int ran = 0, refused = 0;
    for (unsigned w = 8; w <= 64; w *= 8) {
      ls_adapter_options o;
      memset(&o, 0, sizeof o);
      o.struct_size = sizeof o;
      o.subgroup_size = w;
      o.threads = 1;
      o.instruction_budget = 1u << 20; /* corpus loops may never end on zeroed inputs */
      char err[256];
      ls_adapter *ad = ls_adapter_create(&o, err, sizeof err);
      ls_device_desc dd;
      memset(&dd, 0, sizeof dd);
      dd.struct_size = sizeof dd;
      dd.required_features = features;
      dd.required_feature_count = sizeof features / sizeof features[0];
      ls_status st;
      ls_device *d = ad ? ls_adapter_create_device(ad, &dd, &st, err, sizeof err) : NULL;
      if (!d) {
        printf("%s: no device: %s\n", argv[a], err);
        ls_adapter_release(ad);
        break;
      }
      ls_device_set_error_callback(d, on_error, NULL);
      ls_shader_module_desc sd = {.code = src, .label = argv[a]};
      ls_shader_module *m = ls_device_create_shader_module(d, &sd);
      if (!m || !ls_shader_module_is_valid(m)) {
        if (w == 8) printf("%s: invalid\n", argv[a]);
      } else {
        const ast_module *am = m->module->ast;
        for (int i = 0; am && i < am->ndecls; i++) {
          const ast_decl *fn = am->decls[i];
          if (fn->kind != DECL_FN || fn->stage != 1) continue;
          last_error[0] = 0;
          if (fz_run_entry(d, m, fn->name, (const uint32_t[3]){2, 1, 1}, last_error, NULL)) ran++;
          else if (!refused++)
            printf("%s: refused: %.*s\n", argv[a], (int)strcspn(last_error, "\n"), last_error);
        }
      }
      ls_shader_module_release(m);
      ls_device_release(d);
      ls_adapter_release(ad);
    }
    if (ran) printf("%s: ran %d\n", argv[a], ran);
    free(src);
  }
  return 0;
}
