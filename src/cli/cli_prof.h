/*
 * cli_prof.h — the profiler's side of the `lockstep` command: the
 * profiling options of `run` and their reports (cli_prof.c), `tune` and
 * `plan` (cli_tune.c). main.c parses `run`'s options into cprof_opts; every
 * run goes through the one case runner (runner.h).
 */
#ifndef LS_CLI_PROF_H
#define LS_CLI_PROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "case.h"
#include "lockstep.h"
#include "runner.h"

/* `run`'s profiling options. */
typedef struct cprof_opts {
  const char *json, *report, *profile_file; /* --prof-json, --report, --profile-file */
  int text, annotate, compare;              /* --prof, --annotate, --compare-profiles */
  int trace_set;                            /* --trace-group or --trace-dispatch given */
  uint32_t trace_group[3], trace_dispatch;  /* trace_dispatch 0-based */
} cprof_opts;

/* Whether the options ask for the profiler at all. */
int cprof_wanted(const cprof_opts *o);

/* What the profiling options make of a run, before the case is loaded:
 * the output paths checked, --profile-file read. */
typedef struct cprof_setup {
  ls_profile_desc custom;  /* --profile-file; name malloc'd */
  ls_cost_model cost;      /* --profile-file's "cost" over its base's */
  int has_cost;
  char *base;              /* its base profile */
  ls_profiler_options popts;
} cprof_setup;

/* Checks the output paths and reads --profile-file (profile: the
 * --profile option, which excludes it); fills s and the adapter fields of
 * cfg it decides (profile, subgroup) and cfg->prof. Returns CLI_OK, or
 * after a message CLI_BAD_INPUT (the profile file) or CLI_FAILED (an output
 * path that cannot be written). */
int cprof_prepare(const cprof_opts *o, const char *profile, cprof_setup *s, runner_cfg *cfg);
void cprof_setup_free(cprof_setup *s);
/* After a successful run: the reports the options ask for. Returns CLI_OK
 * or an exit status after a message. */
int cprof_report(const cprof_opts *o, const cprof_setup *s, const runner *r);
/* --compare-profiles: the case under every built-in profile, one table. */
int cprof_compare(const case_file *c, uint32_t threads, uint64_t budget);

int cli_tune_main(int argc, char **argv);
int cli_plan_main(int argc, char **argv);
/* The usage lines of the profiler's options and commands. */
void cli_prof_usage(FILE *f);

/* A run's figures summed over its dispatches, for tables. */
typedef struct cprof_sum {
  uint32_t width, sector_bytes;
  uint64_t issued, divergent, sectors, buf_requests, wg_requests, bank_degree_sum;
  uint64_t texel_requests, tiles; /* textureLoad / textureStore */
  double idle, simt, mem_eff, sect_per_req, bank_degree, loop_spread, cost;
  double tiles_per_req;
  /* the cost model: the dispatches' predicted times summed, the bound of
   * the longest, whether the profile's model is calibrated */
  double predicted_ns;
  const char *bound;
  int calibrated;
} cprof_sum;
/* Whether the case binds a texture (the tables then show tiles). */
int cprof_case_has_textures(const case_file *c);
void cprof_sum_of(const ls_profiler *p, cprof_sum *t);
/* A time in ns with a short unit ("12.3 us"). */
void prof_cli_time(char *out, size_t n, double ns);

#endif
