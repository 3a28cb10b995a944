/*
 * cli_check.c — the sanitizer and the lint on the command line:
 * `lockstep run CASE --check [--json] [--allow-same-value]` and the static
 * findings of `lockstep check SHADER.wgsl`. main.c calls in at four places:
 * it hands over the run's arguments (the check options are taken out),
 * asks for the sanitizer's options (the case runner, runner.c, turns it on
 * with them and gives buffers their logical sizes), hands over the device
 * at the end of the run (findings printed, exit status) and the compiled
 * module of `check`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "cli_check.h"
#include "cli_exit.h"

static struct {
  int on, json, allow_same;
  uint64_t max_findings;
} cli_chk;

int cli_check_take_args(int argc, char **argv) {
  int k = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--check")) {
      cli_chk.on = 1;
      continue;
    }
    if (!strcmp(a, "--allow-same-value")) {
      cli_chk.allow_same = 1;
      continue;
    }
    if (!strncmp(a, "--max-findings", 14) && (a[14] == 0 || a[14] == '=')) {
      const char *v = a[14] ? a + 15 : (i + 1 < argc ? argv[++i] : NULL);
      char *end = NULL;
      unsigned long long n = v ? strtoull(v, &end, 10) : 0;
      if (!v || !*v || *end || n == 0 || n > 1000000) {
        fprintf(stderr, "lockstep run: --max-findings expects a number from 1 to 1000000\n");
        return -1;
      }
      cli_chk.max_findings = n;
      continue;
    }
    if (!strcmp(a, "--json")) {
      /* JSON alone on stdout: the run's own printing is silenced */
      cli_chk.json = 1;
      argv[k++] = "--quiet";
      continue;
    }
    argv[k++] = argv[i];
  }
  if ((cli_chk.json || cli_chk.allow_same || cli_chk.max_findings) && !cli_chk.on) {
    fprintf(stderr, "lockstep run: --json, --allow-same-value and --max-findings go with --check\n");
    return -1;
  }
  return k;
}

const ls_check_options *cli_check_options(void) {
  static ls_check_options o;
  if (!cli_chk.on) return NULL;
  o = (ls_check_options){.struct_size = sizeof o,
                         .checks = LS_CHECK_ALL,
                         .ignore_same_value = cli_chk.allow_same,
                         .max_findings = (uint32_t)cli_chk.max_findings};
  return &o;
}

int cli_check_report(ls_device *dev, int rc) {
  if (!cli_chk.on || !dev) return rc;
  size_t n = ls_device_check_finding_count(dev);
  size_t errors = 0, warnings = 0;
  for (size_t i = 0; i < n; i++) {
    const ls_check_finding *f = ls_device_check_finding(dev, i);
    errors += f->severity == LS_CHECK_ERROR;
    warnings += f->severity == LS_CHECK_WARNING;
  }
  uint64_t dropped = ls_device_check_dropped(dev);
  fflush(stdout);
  if (cli_chk.json) {
    char *j = ls_device_check_findings_json(dev);
    if (j) fputs(j, stdout);
    ls_free(j);
  } else {
    for (size_t i = 0; i < n; i++) {
      const ls_check_finding *f = ls_device_check_finding(dev, i);
      fputs(f->text ? f->text : f->message, stderr);
    }
    fprintf(stderr, "check: %zu error%s, %zu warning%s", errors, errors == 1 ? "" : "s", warnings,
            warnings == 1 ? "" : "s");
    if (dropped) fprintf(stderr, " (%llu more not kept)", (unsigned long long)dropped);
    fprintf(stderr, "\n");
  }
  if (rc == CLI_OK && (errors || (dropped && !n))) return CLI_MISMATCH;
  return rc;
}

int cli_check_lint(const ls_shader_module *m, const char *path) {
  char *text = NULL;
  int n = ls_shader_module_lint(m, path, &text);
  if (text) fputs(text, stdout);
  ls_free(text);
  return n;
}
