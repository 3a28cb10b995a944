/*
 * cli_prof.c — `lockstep run CASE.json --prof ...`: the SIMT profiler's
 * reports (src/prof) of a case run with the profiler attached: the text
 * report (--prof), JSON (--prof-json FILE), the annotated source
 * (--annotate), the HTML page (--report FILE), and --compare-profiles, the
 * same case under every vendor profile in one table.
 *
 * Where it stands: main.c's `run` parses the options (cprof_opts), calls
 * cprof_prepare before loading the case (output paths, --profile-file),
 * runs the case through the one case runner (runner.c) and calls
 * cprof_report after it. cli_tune.c uses the sums and the file writing.
 *
 * Exit status (cli_exit.h): an output path that cannot be written is found
 * before the run; it, like a write that fails, is output not written.
 * Every report is written by cli_io.h's rules (a regular file through a
 * temporary file renamed into place, so nothing is half-written).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_io.h"
#include "case2.h"
#include "cli_prof.h"

/* ------------------------------------------------------------ options */

int cprof_wanted(const cprof_opts *o) {
  return o->text || o->json || o->annotate || o->report || o->compare || o->profile_file ||
         o->trace_set;
}

/* --profile-file: a JSON object with a built-in "base" and the figures it
 * changes; impossible figures are refused (ls_profile_check). */
/* --profile-file's "cost": the base's cost model with the object's
 * parameters over it, checked (ls_cost_model_check names the one that is
 * impossible). */
static int cprof_load_cost(const char *path, json_t *c, const char *base, ls_cost_model *cm) {
  cm->struct_size = sizeof *cm;
  if (ls_cost_model_describe(base, cm) != LS_OK) ls_cost_model_describe("default", cm);
  if (!json_is_object(c)) {
    fprintf(stderr, "%s: cost: not an object of cost-model parameters\n", path);
    return 0;
  }
  const char *key;
  json_t *v;
  json_object_foreach(c, key, v) {
    double *f = ls_cost_model_param(cm, key);
    if (!strcmp(key, "calibrated")) {
      if (!json_is_boolean(v)) {
        fprintf(stderr, "%s: cost.calibrated: not true or false\n", path);
        return 0;
      }
      cm->calibrated = json_is_true(v);
      continue;
    }
    if (!f) {
      fprintf(stderr, "%s: cost: unknown parameter '%s' (", path, key);
      for (size_t i = 0; ls_cost_model_param_name(i); i++)
        fprintf(stderr, "%s%s", i ? ", " : "", ls_cost_model_param_name(i));
      fprintf(stderr, ", calibrated)\n");
      return 0;
    }
    if (!json_is_number(v)) {
      fprintf(stderr, "%s: cost.%s: not a number\n", path, key);
      return 0;
    }
    *f = json_number_value(v);
  }
  cm->source = "--profile-file";
  char err[256];
  if (ls_cost_model_check(cm, err, sizeof err)) {
    fprintf(stderr, "%s: error: %s\n", path, err);
    return 0;
  }
  return 1;
}

static int cprof_load_profile(const char *path, ls_profile_desc *pd, const char **base,
                              ls_cost_model *cm, int *has_cost) {
  json_error_t je;
  char err[512];
  size_t len;
  char *text = cli_read_file(path, &len, NULL, err, sizeof err);
  if (!text) {
    fprintf(stderr, "lockstep run: --profile-file: %s\n", err);
    return 0;
  }
  if (cli_text_without_nul(text, len, path, "a profile file's JSON text", err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    free(text);
    return 0;
  }
  json_t *j = json_loadb(text, len, 0, &je);
  free(text);
  if (!j) {
    fprintf(stderr, "%s:%d:%d: error: %s\n", path, je.line, je.column, je.text);
    return 0;
  }
  int ok = json_is_object(j);
  json_t *b = json_object_get(j, "base");
  *base = "default";
  if (b && json_is_string(b)) *base = json_string_value(b);
  if (ok && ls_profile_describe(*base, pd) != LS_OK) {
    fprintf(stderr, "%s: base: unknown profile '%s' (see lockstep profiles)\n", path, *base);
    ok = 0;
  }
  static const struct {
    const char *key;
    size_t off;
  } keys[] = {
      {"subgroupSize", offsetof(ls_profile_desc, subgroup_size)},
      {"subgroupMinSize", offsetof(ls_profile_desc, subgroup_min_size)},
      {"subgroupMaxSize", offsetof(ls_profile_desc, subgroup_max_size)},
      {"sectorBytes", offsetof(ls_profile_desc, sector_bytes)},
      {"lineBytes", offsetof(ls_profile_desc, line_bytes)},
      {"banks", offsetof(ls_profile_desc, banks)},
      {"bankBytes", offsetof(ls_profile_desc, bank_bytes)},
      {"textureTileBytes", offsetof(ls_profile_desc, tile_bytes)},
  };
  const char *key;
  json_t *v;
  json_object_foreach(ok ? j : NULL, key, v) {
    if (!strcmp(key, "base") || !strcmp(key, "name")) continue;
    if (!strcmp(key, "cost")) {
      if (!cprof_load_cost(path, v, *base, cm)) {
        ok = 0;
        break;
      }
      *has_cost = 1;
      continue;
    }
    size_t k = 0;
    while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k].key, key)) k++;
    if (k == sizeof keys / sizeof keys[0]) {
      fprintf(stderr, "%s: unknown field '%s' (base, name, subgroupSize, subgroupMinSize, "
                      "subgroupMaxSize, sectorBytes, lineBytes, banks, bankBytes, textureTileBytes, "
                      "cost)\n",
              path, key);
      ok = 0;
      break;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1 << 20) {
      fprintf(stderr, "%s: %s: not a whole number from 0 to 1048576\n", path, key);
      ok = 0;
      break;
    }
    *(uint32_t *)((char *)pd + keys[k].off) = (uint32_t)json_integer_value(v);
  }
  /* the name is always the caller's to free, even when the file is refused
   * (ls_profile_describe left the base's static name in it) */
  if (json_is_string(json_object_get(j, "name")))
    pd->name = strdup(json_string_value(json_object_get(j, "name")));
  else
    pd->name = strdup(path);
  *base = strdup(*base);
  json_decref(j);
  if (ok) {
    char err[256];
    if (ls_profile_check(pd, err, sizeof err)) {
      fprintf(stderr, "%s: error: %s\n", path, err);
      ok = 0;
    } else if (pd->subgroup_size < 8 || pd->subgroup_size > 64) {
      fprintf(stderr,
              "%s: error: profile '%s': subgroup size %u is possible hardware, but lockstep's VM "
              "runs subgroups of 8, 16, 32 or 64 lanes\n",
              path, pd->name, pd->subgroup_size);
      ok = 0;
    }
  }
  return ok;
}

/* ------------------------------------------------------------ compare */

void prof_cli_time(char *out, size_t n, double ns) {
  if (ns >= 1e300) snprintf(out, n, "huge");
  else if (ns >= 1e9) snprintf(out, n, "%.3g s", ns / 1e9);
  else if (ns >= 1e6) snprintf(out, n, "%.3g ms", ns / 1e6);
  else if (ns >= 1e3) snprintf(out, n, "%.3g us", ns / 1e3);
  else snprintf(out, n, "%.3g ns", ns);
}

void cprof_sum_of(const ls_profiler *p, cprof_sum *t) {
  memset(t, 0, sizeof *t);
  uint64_t alloc = 0, idle = 0, live = 0, ub = 0;
  double longest = 0;
  for (size_t i = 0; i < ls_profiler_dispatch_count(p); i++) {
    const ls_prof_dispatch *d = ls_profiler_dispatch(p, i);
    t->width = d->width;
    t->sector_bytes = d->memory.sector_bytes;
    alloc += d->lanes_allocated;
    idle += d->lanes_idle;
    t->issued += d->issued;
    live += d->live_lanes;
    t->divergent += d->divergent_branches;
    t->sectors += d->sectors;
    t->cost += d->cost;
    if (!t->bound || d->predicted.ns > longest) {
      longest = d->predicted.ns;
      t->bound = d->predicted.bound;
    }
    t->predicted_ns += d->predicted.ns;
    t->calibrated = d->predicted.calibrated;
    for (size_t k = 0; k < d->nloop; k++)
      if (d->loop[k].max_spread > t->loop_spread) t->loop_spread = d->loop[k].max_spread;
    for (size_t k = 0; k < d->nmem; k++) {
      const ls_prof_mem *m = &d->mem[k];
      if (m->space == LS_PROF_WORKGROUP) {
        t->bank_degree_sum += m->conflict_sum;
        t->wg_requests += m->requests;
      } else if (m->space == LS_PROF_TEXTURE) {
        t->texel_requests += m->requests;
        t->tiles += m->tiles;
      } else {
        ub += m->unique_bytes;
        t->buf_requests += m->requests;
      }
    }
  }
  t->idle = alloc ? (double)idle / alloc : 0;
  t->simt = t->issued && t->width ? (double)live / ((double)t->issued * t->width) : 0;
  t->mem_eff = t->sectors ? (double)ub / ((double)t->sectors * t->sector_bytes) : 0;
  t->sect_per_req = t->buf_requests ? (double)t->sectors / t->buf_requests : 0;
  t->bank_degree = t->wg_requests ? (double)t->bank_degree_sum / t->wg_requests : 0;
  t->tiles_per_req = t->texel_requests ? (double)t->tiles / t->texel_requests : 0;
}

int cprof_case_has_textures(const case_file *c) {
  if (c->plan) return c->plan->ntextures || c->plan->nsamplers;
  for (size_t i = 0; i < c->nbuffers; i++)
    if (c->buffers[i].is_texture || c->buffers[i].is_sampler) return 1;
  return 0;
}

int cprof_compare(const case_file *c, uint32_t threads, uint64_t budget) {
  printf("%s: the same case under every vendor profile\n", c->name);
  const int tex = cprof_case_has_textures(c);
  printf("%-8s %3s %7s %7s %9s %11s %9s %7s %9s %12s %12s", "profile", "W", "idle", "SIMT",
         "divergent", "loop spread", "sect/req", "mem eff", "bank deg.", "issued", "cost");
  if (tex) printf(" %9s", "tiles/req");
  printf(" %11s  %s\n", "predicted", "bound by");
  int rc = CLI_OK;
  const ls_profiler_options popts = {.struct_size = sizeof popts};
  for (const char *const *n = ls_profile_names(); *n; n++) {
    const runner_cfg cfg = {.profile = *n,
                            .own_adapter = 1,
                            .threads = threads,
                            .budget = budget,
                            .prof = &popts,
                            .quiet = 1};
    runner r;
    fflush(stdout);
    int e = runner_run(&r, c, &cfg);
    if (e) {
      printf("%-8s  (did not run: see the message above)\n", *n);
      if (rc == CLI_OK) rc = e;
      runner_free(&r);
      continue;
    }
    cprof_sum t;
    cprof_sum_of(r.prof, &t);
    printf("%-8s %3u %6.1f%% %6.1f%% %9llu %11.2f %9.2f %6.1f%% %9.2f %12llu %12.0f", *n,
           t.width, 100.0 * t.idle, 100.0 * t.simt, (unsigned long long)t.divergent,
           t.loop_spread, t.sect_per_req, 100.0 * t.mem_eff, t.bank_degree,
           (unsigned long long)t.issued, t.cost);
    if (tex) printf(" %9.2f", t.tiles_per_req);
    char pt[32];
    prof_cli_time(pt, sizeof pt, t.predicted_ns);
    printf(" %11s  %s%s\n", pt, t.bound ? t.bound : "-", t.calibrated ? "" : " (not calibrated)");
    runner_free(&r);
  }
  printf("(idle: lanes allocated but holding no invocation; SIMT: live lanes / (issued x W);\n"
         " loop spread: longest minus average lane trips, worst subgroup; sect/req: sectors per\n"
         " buffer request; bank deg.: average worst-bank degree of workgroup accesses; cost:\n"
         " issue slots = issued + sectors + %sbank replays%s; predicted: the cost model's time\n"
         " on the profile's GPU, summed over the dispatches; see docs/profiler.md)\n",
         tex ? "texture tiles + " : "", tex ? "; tiles/req: texture tiles per texel request" : "");
  return rc;
}

/* ---------------------------------------------------------------- run */

int cprof_prepare(const cprof_opts *o, const char *profile, cprof_setup *s, runner_cfg *cfg) {
  memset(s, 0, sizeof *s);
  s->custom.struct_size = sizeof s->custom;
  char err[2048];
  /* every output path is checked before anything runs */
  const char *outs[2] = {o->json, o->report};
  for (int i = 0; i < 2; i++)
    if (outs[i] && cli_out_check(outs[i], err, sizeof err)) {
      fprintf(stderr, "lockstep run: %s: %s\n", i ? "--report" : "--prof-json", err);
      return CLI_FAILED; /* output not written */
    }
  const char *base = NULL;
  if (o->profile_file) {
    if (profile) {
      fprintf(stderr, "lockstep run: --profile and --profile-file exclude each other\n");
      return CLI_BAD_INPUT;
    }
    int ok = cprof_load_profile(o->profile_file, &s->custom, &base, &s->cost, &s->has_cost);
    s->base = (char *)base;
    if (!ok) return CLI_BAD_INPUT;
    /* the custom profile's base and width choose the adapter */
    cfg->profile = s->base;
    cfg->subgroup = s->custom.subgroup_size;
    s->popts.memory = (ls_memory_model){.sector_bytes = s->custom.sector_bytes,
                                        .line_bytes = s->custom.line_bytes,
                                        .banks = s->custom.banks,
                                        .bank_bytes = s->custom.bank_bytes,
                                        .tile_bytes = s->custom.tile_bytes};
  }
  s->popts.struct_size = sizeof s->popts;
  s->popts.trace = o->report != NULL;
  s->popts.cost = s->has_cost ? &s->cost : NULL;
  s->popts.trace_dispatch = o->trace_dispatch;
  memcpy(s->popts.trace_group, o->trace_group, sizeof s->popts.trace_group);
  cfg->prof = &s->popts;
  return CLI_OK;
}

void cprof_setup_free(cprof_setup *s) {
  free((char *)s->custom.name);
  free(s->base);
  memset(s, 0, sizeof *s);
}

int cprof_report(const cprof_opts *o, const cprof_setup *s, const runner *r) {
  const case_file *c = r->c;
  const char *pname = s->custom.name ? s->custom.name : r->profile_name;
  const int text = o->text || !(o->json || o->annotate || o->report); /* the default */
  char err[2048];
  int rc = CLI_OK;
  if (text) {
    char *t = ls_profiler_report_text(r->prof, pname);
    if (t) fputs(t, stdout);
    ls_free(t);
  }
  if (o->annotate) {
    for (size_t i = 0; i < ls_profiler_dispatch_count(r->prof); i++) {
      char *t = ls_profiler_annotate(r->prof, i);
      if (t) printf("%s\n", t);
      ls_free(t);
    }
  }
  if (o->json) {
    char *t = ls_profiler_report_json(r->prof, pname);
    if (!t || cli_write_text(o->json, t, strlen(t), err, sizeof err)) {
      fprintf(stderr, "lockstep run: %s\n", t ? err : "out of memory");
      rc = CLI_FAILED; /* output not written */
    }
    ls_free(t);
  }
  if (rc == CLI_OK && o->report) {
    const ls_prof_dispatch *td = ls_profiler_dispatch(r->prof, o->trace_dispatch);
    if (!td) {
      fprintf(stderr, "lockstep run: --trace-dispatch %u: the case ran %zu dispatch(es)\n",
              o->trace_dispatch + 1, ls_profiler_dispatch_count(r->prof));
      return CLI_BAD_INPUT;
    }
    if (!td->trace) {
      fprintf(stderr,
              "lockstep run: --trace-group %u,%u,%u is not a workgroup of dispatch %u (%u x %u x "
              "%u workgroups)\n",
              o->trace_group[0], o->trace_group[1], o->trace_group[2], o->trace_dispatch + 1,
              td->groups[0], td->groups[1], td->groups[2]);
      return CLI_BAD_INPUT;
    }
    char *t = ls_profiler_report_html(r->prof, pname, c->title ? c->title : c->name);
    if (!t || cli_write_text(o->report, t, strlen(t), err, sizeof err)) {
      fprintf(stderr, "lockstep run: %s\n", t ? err : "out of memory");
      rc = CLI_FAILED;
    }
    ls_free(t);
  }
  return rc;
}

void cli_prof_usage(FILE *f) {
  fprintf(f,
          "  run CASE.json --prof ...   the SIMT profiler (docs/profiler.md):\n"
          "      --prof                 text report (the default when only a file option is set)\n"
          "      --prof-json FILE       the figures as JSON (- = stdout)\n"
          "      --annotate             the WGSL source with each line's figures\n"
          "      --report FILE.html     one self-contained HTML page\n"
          "      --trace-group X[,Y,Z]  workgroup whose lane activity the page draws (default 0)\n"
          "      --trace-dispatch N     ... in dispatch N (default 1)\n"
          "      --compare-profiles     run under every vendor profile and tabulate\n"
          "      --profile-file FILE    a custom profile: {\"base\": \"nvidia\", \"subgroupSize\": 16,\n"
          "                             \"cost\": {\"sms\": 66, ...}} (cost model: docs/profiler.md)\n"
          "  tune CASE.json --override NAME=V1,V2,... [--profile NAME]...\n"
          "                            run with each value under each vendor profile, ranked by\n"
          "                            predicted time\n"
          "  plan N --workgroup-size S [--pattern 1d|2d|grid-stride] [--profile NAME] [--width W]\n"
          "                            dispatch size and WGSL index for N elements (grid-stride:\n"
          "                            the profile's SMs x the workgroups one SM holds)\n");
}
