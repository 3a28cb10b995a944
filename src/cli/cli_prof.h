/*
 * cli_prof.h — the profiler's side of the `lockstep` command: `run` with
 * profiling options (cli_prof.c), `tune` and `plan` (cli_tune.c). main.c
 * hands over to these; they share the case runner declared here.
 */
#ifndef LS_CLI_PROF_H
#define LS_CLI_PROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "case.h"
#include "lockstep.h"

/* Does this `run` command line ask for the profiler? */
int cli_prof_wanted(int argc, char **argv);
/* `lockstep run CASE.json` with profiling options; returns the exit status. */
int cli_prof_run(int argc, char **argv);
int cli_tune_main(int argc, char **argv);
int cli_plan_main(int argc, char **argv);
/* The usage lines of the profiler's options and commands. */
void cli_prof_usage(FILE *f);

/* One profiled run of a case. */
typedef struct cprof_cfg {
  const char *profile;      /* built-in profile name; NULL = the case's */
  uint32_t subgroup;        /* 0 = the profile's */
  uint32_t threads;
  uint64_t budget;
  const char *override_name; /* tune: one more constant for every pipeline */
  double override_value;
  int rescale;              /* tune: keep each direct dispatch's invocation count */
  ls_profiler_options popts;
  int quiet;
} cprof_cfg;

typedef struct cprof_run {
  ls_adapter *adapter;
  ls_device *device;
  ls_profiler *prof;
  uint32_t **words; /* read-back buffers, c->nreadback */
  const char *profile_name;
  uint32_t wg_size[3]; /* the first pipeline's, after overrides */
} cprof_run;

/* Runs case c once with the profiler attached. Returns 0, or an exit
 * status (2 bad input, 3 failed) after printing a message. */
int cprof_run_case(const case_file *c, const cprof_cfg *cfg, cprof_run *out);
void cprof_run_free(const case_file *c, cprof_run *r);

/* A run's figures summed over its dispatches, for tables. */
typedef struct cprof_sum {
  uint32_t width, sector_bytes;
  uint64_t issued, divergent, sectors, buf_requests, wg_requests, bank_degree_sum;
  uint64_t texel_requests, tiles; /* textureLoad / textureStore */
  double idle, simt, mem_eff, sect_per_req, bank_degree, loop_spread, cost;
  double tiles_per_req;
} cprof_sum;
/* Whether the case binds a texture (the tables then show tiles). */
int cprof_case_has_textures(const case_file *c);
void cprof_sum_of(const ls_profiler *p, cprof_sum *t);

/* Writes text to path through a temporary file renamed into place, so a
 * failed write leaves nothing behind; returns 0 or -1 with a message. */
int cprof_write_file(const char *path, const char *text, char *err, size_t errlen);
/* Checks early that path can be written (its folder exists and takes a
 * new file); 0 or -1 with a message. */
int cprof_check_writable(const char *path, char *err, size_t errlen);

#endif
