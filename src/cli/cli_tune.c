/*
 * cli_tune.c — `lockstep tune` and `lockstep plan`: lesson 001's "measure
 * and keep the winner" and lesson 000's dispatch patterns on the command
 * line.
 *
 * tune runs one case once per override value under each vendor profile
 * with the profiler attached (the case runner, runner.c) and ranks the values by
 * the profiler's cost (issue slots: subgroup-instructions issued + memory
 * sectors + bank-conflict replays; docs/profiler.md). When the override
 * changes the workgroup size, each direct dispatch's X count is scaled so
 * the case launches the same number of invocations. Every value is checked
 * (pipeline creation under every profile) before anything is printed, so a
 * bad value or an unknown override is an error with nothing half-done.
 *
 * plan prints ls_plan_dispatch's answer for an element count.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case2.h"
#include "cli_prof.h"

#define CT_BAD CLI_BAD_INPUT

typedef struct ct_row {
  double value;
  int ok;
  uint32_t wg[3];
  cprof_sum sum;
} ct_row;

static int ct_cmp(const void *a, const void *b) {
  const ct_row *x = a, *y = b;
  if (x->ok != y->ok) return y->ok - x->ok;
  /* by predicted time, then by cost (a tie in time, or both saturated) */
  if (x->sum.predicted_ns != y->sum.predicted_ns)
    return (x->sum.predicted_ns > y->sum.predicted_ns) - (x->sum.predicted_ns < y->sum.predicted_ns);
  return (x->sum.cost > y->sum.cost) - (x->sum.cost < y->sum.cost);
}

static int ct_all_calibrated(const ct_row *rows, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (rows[i].ok && !rows[i].sum.calibrated) return 0;
  return 1;
}

/* Does the shader (a version-2 case: some module) declare `override NAME`
 * (or @id(NAME))? A plain text scan is enough to say "unknown override"
 * clearly before running. */
static int ct_declares(const case_file *c, const char *name) {
  if (!c->plan) return case2_declares_override(c->shader_code, name);
  for (size_t i = 0; i < c->plan->nmodules; i++)
    if (case2_declares_override(c->plan->modules[i].code, name)) return 1;
  return 0;
}

int cli_tune_main(int argc, char **argv) {
  const char *file = NULL, *spec = NULL;
  const char *profiles[16];
  size_t nprof = 0;
  uint32_t threads = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *eq = strchr(a, '=');
    if (a[0] != '-') {
      if (file) {
        fprintf(stderr, "lockstep tune: unexpected argument '%s'\n", a);
        return CT_BAD;
      }
      file = a;
      continue;
    }
    size_t nl = eq ? (size_t)(eq - a) : strlen(a);
    const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    if (!val) {
      fprintf(stderr, "lockstep tune: %s needs a value\n", a);
      return CT_BAD;
    }
    if (nl == 10 && !strncmp(a, "--override", nl)) {
      spec = val;
    } else if (nl == 9 && !strncmp(a, "--profile", nl)) {
      if (nprof == 16) {
        fprintf(stderr, "lockstep tune: too many --profile options\n");
        return CT_BAD;
      }
      profiles[nprof++] = val;
    } else if (nl == 9 && !strncmp(a, "--threads", nl)) {
      char *end;
      unsigned long t = strtoul(val, &end, 10);
      if (*end || t < 1 || t > 1024) {
        fprintf(stderr, "lockstep tune: --threads '%s' is not a number from 1 to 1024\n", val);
        return CT_BAD;
      }
      threads = (uint32_t)t;
    } else {
      fprintf(stderr, "lockstep tune: unknown option '%s' (see lockstep --help)\n", a);
      return CT_BAD;
    }
  }
  if (!file || !spec) {
    fprintf(stderr, "usage: lockstep tune CASE.json --override NAME=V1,V2,... [--profile NAME]...\n");
    return CT_BAD;
  }
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec || !eq[1]) {
    fprintf(stderr, "lockstep tune: --override '%s' is not NAME=V1,V2,...\n", spec);
    return CT_BAD;
  }
  char *name = strndup(spec, (size_t)(eq - spec));
  double vals[64];
  size_t nvals = 0;
  for (const char *p = eq + 1; *p;) {
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    if (end == p || errno || !isfinite(v) || (*end && *end != ',')) {
      fprintf(stderr, "lockstep tune: --override %s: '%s' is not a list of numbers\n", name,
              eq + 1);
      free(name);
      return CT_BAD;
    }
    if (nvals == 64) {
      fprintf(stderr, "lockstep tune: at most 64 values\n");
      free(name);
      return CT_BAD;
    }
    vals[nvals++] = v;
    p = *end ? end + 1 : end;
  }
  for (size_t i = 0; i < nprof; i++) {
    ls_profile_desc pd;
    memset(&pd, 0, sizeof pd);
    if (ls_profile_describe(profiles[i], &pd) != LS_OK) {
      fprintf(stderr, "lockstep tune: unknown profile '%s' (see lockstep profiles)\n", profiles[i]);
      free(name);
      return CT_BAD;
    }
  }
  if (!nprof) {
    /* the vendor profiles; "default" duplicates nvidia's figures */
    for (const char *const *n = ls_profile_names(); *n; n++)
      if (strcmp(*n, "default")) profiles[nprof++] = *n;
  }
  case_file c;
  char err[2048];
  int e = case_load(file, &c, err, sizeof err);
  if (e) {
    fprintf(stderr, "%s\n", err);
    case_free(&c);
    free(name);
    return e == CASE_NO_MEMORY ? CLI_FAILED : CT_BAD;
  }
  int rc = 0;
  if (!ct_declares(&c, name)) {
    if (c.plan)
      fprintf(stderr, "lockstep tune: %s: no module of the case declares an override '%s'\n",
              file, name);
    else
      fprintf(stderr, "lockstep tune: %s: the shader %s declares no override '%s'\n", file,
              c.shader_path, name);
    rc = CT_BAD;
  }
  ct_row *rows = calloc(nprof * nvals + 1, sizeof *rows);
  if (!rows) rc = CLI_FAILED;
  /* Run everything first, print after: a rejected value stops the command
   * before any table is printed. */
  for (size_t pi = 0; !rc && pi < nprof; pi++) {
    for (size_t vi = 0; !rc && vi < nvals; vi++) {
      const ls_profiler_options popts = {.struct_size = sizeof popts};
      const runner_cfg cfg = {.profile = profiles[pi],
                              .own_adapter = 1,
                              .threads = threads,
                              .override_name = name,
                              .override_value = vals[vi],
                              .rescale = 1,
                              .prof = &popts,
                              .quiet = 1};
      runner r;
      int e = runner_run(&r, &c, &cfg);
      ct_row *row = &rows[pi * nvals + vi];
      row->value = vals[vi];
      if (e) {
        fprintf(stderr, "lockstep tune: %s = %g under profile %s: rejected (above)\n", name,
                vals[vi], profiles[pi]);
        rc = e;
      } else {
        row->ok = 1;
        memcpy(row->wg, r.wg_size, sizeof row->wg);
        cprof_sum_of(r.prof, &row->sum);
      }
      runner_free(&r);
    }
  }
  if (!rc) {
    printf("%s: %s over %zu value(s), ranked by predicted time per profile\n", c.name, name,
           nvals);
    for (size_t pi = 0; pi < nprof; pi++) {
      ct_row *pr = &rows[pi * nvals];
      qsort(pr, nvals, sizeof *pr, ct_cmp);
      printf("\nprofile %s (W = %u)\n", profiles[pi], pr[0].sum.width);
      printf("  %4s %10s %14s %12s %7s %7s %9s %7s %12s %11s  %s\n", "rank", name, "workgroup",
             "issued", "idle", "SIMT", "sect/req", "mem eff", "cost", "predicted", "bound by");
      for (size_t vi = 0; vi < nvals; vi++) {
        const ct_row *r = &pr[vi];
        char wg[32];
        snprintf(wg, sizeof wg, "%ux%ux%u", r->wg[0], r->wg[1], r->wg[2]);
        char pt[32];
        prof_cli_time(pt, sizeof pt, r->sum.predicted_ns);
        printf("  %4zu %10g %14s %12llu %6.1f%% %6.1f%% %9.2f %6.1f%% %12.0f %11s  %s%s\n",
               vi + 1, r->value, wg, (unsigned long long)r->sum.issued, 100.0 * r->sum.idle,
               100.0 * r->sum.simt, r->sum.sect_per_req, 100.0 * r->sum.mem_eff, r->sum.cost, pt,
               r->sum.bound ? r->sum.bound : "-", vi == 0 ? "  <- keep" : "");
      }
    }
    printf("\n(predicted: the cost model's time on the profile's GPU, summed over the dispatches%s;\n"
           " cost = subgroup-instructions issued + buffer sectors + %sbank-conflict replays;\n"
           " direct dispatches keep the case's invocation count when the workgroup size changes)\n",
           ct_all_calibrated(rows, nprof * nvals) ? "" : "; the model is calibrated for nvidia only",
           cprof_case_has_textures(&c) ? "texture tiles + " : "");
  }
  free(rows);
  case_free(&c);
  free(name);
  return rc;
}

/* ------------------------------------------------------------------ plan */

int cli_plan_main(int argc, char **argv) {
  ls_plan_options po;
  memset(&po, 0, sizeof po);
  po.struct_size = sizeof po;
  const char *profile = NULL, *count = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      if (count) {
        fprintf(stderr, "lockstep plan: unexpected argument '%s'\n", a);
        return CT_BAD;
      }
      count = a;
      continue;
    }
    const char *eq = strchr(a, '=');
    size_t nl = eq ? (size_t)(eq - a) : strlen(a);
    const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    char *end = NULL;
    if (!val) {
      fprintf(stderr, "lockstep plan: %s needs a value\n", a);
      return CT_BAD;
    }
    unsigned long long u = strtoull(val, &end, 10);
    int num = *val && *val != '-' && !*end;
    if (nl == 16 && !strncmp(a, "--workgroup-size", nl) && num && u <= UINT32_MAX)
      po.workgroup_size = (uint32_t)u;
    else if (nl == 7 && !strncmp(a, "--width", nl) && num && u <= UINT32_MAX)
      po.width_2d = (uint32_t)u;
    else if (nl == 9 && !strncmp(a, "--profile", nl))
      profile = val;
    else if (nl == 9 && !strncmp(a, "--pattern", nl)) {
      if (!strcmp(val, "1d")) po.pattern = LS_PLAN_1D;
      else if (!strcmp(val, "2d")) po.pattern = LS_PLAN_2D;
      else if (!strcmp(val, "grid-stride")) po.pattern = LS_PLAN_GRID_STRIDE;
      else {
        fprintf(stderr, "lockstep plan: --pattern '%s' is not 1d, 2d or grid-stride\n", val);
        return CT_BAD;
      }
    } else {
      fprintf(stderr, "lockstep plan: bad option '%s'\n", a);
      return CT_BAD;
    }
  }
  char *end = NULL;
  unsigned long long n = count ? strtoull(count, &end, 10) : 0;
  if (!count || *end || !po.workgroup_size) {
    fprintf(stderr, "usage: lockstep plan N --workgroup-size S [--pattern 1d|2d|grid-stride] "
                    "[--profile NAME] [--width W]\n");
    return CT_BAD;
  }
  po.elements = n;
  ls_adapter_options ao;
  memset(&ao, 0, sizeof ao);
  ao.struct_size = sizeof ao;
  ao.profile = profile;
  char err[512];
  ls_adapter *ad = ls_adapter_create(&ao, err, sizeof err);
  if (!ad) {
    fprintf(stderr, "lockstep plan: %s\n", err);
    return CT_BAD;
  }
  /* The device's limits: WebGPU's defaults, raised to what the workgroup
   * size needs when the adapter offers it (min(wanted, available)). */
  ls_limits lim;
  ls_limits_default(&lim);
  uint64_t v;
  if (ls_adapter_limit_up_to(ad, "maxComputeInvocationsPerWorkgroup", po.workgroup_size, &v) &&
      v > lim.max_compute_invocations_per_workgroup)
    lim.max_compute_invocations_per_workgroup = v;
  if (ls_adapter_limit_up_to(ad, "maxComputeWorkgroupSizeX", po.workgroup_size, &v) &&
      v > lim.max_compute_workgroup_size_x)
    lim.max_compute_workgroup_size_x = v;
  ls_adapter_info info;
  ls_adapter_get_info(ad, &info);
  po.limits = &lim;
  /* grid-stride: enough workgroups to fill the emulated GPU, its SMs times
   * the workgroups of this size one SM holds (the cost model's figures) */
  ls_cost_model cm = {.struct_size = sizeof cm};
  if (ls_cost_model_describe(info.profile, &cm) == LS_OK) {
    double per = floor(cm.max_threads / po.workgroup_size);
    if (per > cm.max_groups) per = cm.max_groups;
    po.compute_units = (uint32_t)cm.sms;
    po.groups_per_unit = per >= 1 ? (uint32_t)per : 1;
  } else {
    po.compute_units = info.threads;
  }
  ls_dispatch_plan pl;
  ls_status st = ls_plan_dispatch(&po, &pl, err, sizeof err);
  ls_adapter_release(ad);
  if (st != LS_OK) {
    fprintf(stderr, "lockstep %s\n", err);
    return CT_BAD;
  }
  const char *pat = pl.pattern == LS_PLAN_1D ? "1D" : pl.pattern == LS_PLAN_2D ? "2D" : "grid-stride";
  printf("%llu elements, workgroups of %u: %s dispatch\n", n, po.workgroup_size, pat);
  printf("  dispatchWorkgroups(%u, %u, %u): %llu invocations, %llu past the end",
         pl.workgroups[0], pl.workgroups[1], pl.workgroups[2], (unsigned long long)pl.invocations,
         (unsigned long long)pl.excess);
  if (pl.pattern == LS_PLAN_GRID_STRIDE)
    printf(", up to %llu elements each", (unsigned long long)pl.per_invocation);
  printf("\n  built-ins: %s\n  index:\n", pl.builtins);
  for (const char *s = pl.index; *s;) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    printf("    %.*s\n", (int)len, s);
    s += len + (nl ? 1 : 0);
  }
  if (lim.max_compute_invocations_per_workgroup > 256)
    printf("  requiredLimits: maxComputeInvocationsPerWorkgroup = %llu, maxComputeWorkgroupSizeX "
           "= %llu (min of wanted and the adapter's)\n",
           (unsigned long long)lim.max_compute_invocations_per_workgroup,
           (unsigned long long)lim.max_compute_workgroup_size_x);
  return CLI_OK;
}
