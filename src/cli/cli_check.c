/*
 * cli_check.c — the sanitizer and the lint on the command line:
 * `lockstep run CASE --check [--json] [--allow-same-value]` and the static
 * findings of `lockstep check SHADER.wgsl`. main.c calls in at four places:
 * it hands over the run's arguments (the check options are taken out), the
 * device once the buffers exist (checks on, logical sizes from the case's
 * "logicalCount"), the end of the run (findings printed, exit status) and the
 * compiled module of `check`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../api/api.h"
#include "../check/check.h"
#include "case.h"
#include "cli_check.h"

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

int cli_check_attach(ls_device *dev, const case_file *c, ls_buffer **bufs) {
  if (!cli_chk.on) return 1;
  ls_check_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.checks = LS_CHECK_ALL;
  o.ignore_same_value = cli_chk.allow_same;
  o.max_findings = (uint32_t)cli_chk.max_findings;
  if (ls_device_enable_checks(dev, 1, &o) != LS_OK) {
    fprintf(stderr, "lockstep: out of memory for the sanitizer\n");
    return 0;
  }
  for (size_t i = 0; i < c->nbuffers; i++)
    if (c->buffers[i].has_logical_count && bufs[i])
      ls_buffer_set_logical_size(bufs[i], c->buffers[i].logical_count * c->buffers[i].rec_len * 4);
  return 1;
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
    free(j);
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
  if (rc == 0 && (errors || (dropped && !n))) return 1;
  return rc;
}

int cli_check_lint(const ls_shader_module *m, const char *path) {
  if (!m || !m->module) return 0;
  chk_lint l;
  memset(&l, 0, sizeof l);
  int n = chk_lint_module(m->module, &l);
  if (n > 0) {
    size_t len = 0;
    const char *src = wgsl_module_source(m->module, &len);
    char *text = chk_lint_format(&l, src, len, path);
    if (text) fputs(text, stdout);
    free(text);
  }
  chk_lint_free(&l);
  return n;
}
