/*
 * runner.h — the one case runner of the `lockstep` command (runner.c):
 * instantiates a case file on the public API (adapter, device, observers,
 * buffers, textures, samplers, the shader module, pipelines with
 * FORMAT.md's explicit layouts, as the Dawn peer runner does), records its
 * dispatches in one compute pass, submits them and reads back the buffers
 * the case names. `run` (main.c), its profiling options and
 * `--compare-profiles` (cli_prof.c) and `tune` (cli_tune.c) all run cases
 * through it, so they build the same objects and compute the same results.
 */
#ifndef LS_CLI_RUNNER_H
#define LS_CLI_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"
#include "cli_exit.h"
#include "lockstep.h"

typedef struct runner_cfg {
  /* The adapter: each option overrides the case's "adapter" object field
   * by field; with own_adapter (one run per profile: compare, tune) the
   * case's are ignored and subgroup 0 is the profile's width. */
  const char *profile;  /* NULL: the case's */
  uint32_t subgroup;    /* 0: the case's (or the profile's) */
  int own_adapter;
  uint32_t threads;     /* 0: one per core */
  uint64_t budget;      /* per workgroup; 0: the default */
  uint64_t dispatch_budget; /* per dispatch; 0: the default */
  uint32_t time_limit_ms; /* per submit; 0: the default */
  uint64_t memory_limit;  /* per dispatch, bytes; 0: the default */
  /* tune: one more override constant for every pipeline; with rescale each
   * direct dispatch's X count keeps the case's invocation count when the
   * override changes the workgroup size */
  const char *override_name;
  double override_value;
  int rescale;
  /* Observers, both at once if asked: a profiler with these options, the
   * sanitizer with these (buffers get the case's logical sizes). */
  const ls_profiler_options *prof;
  const ls_check_options *check;
  /* What is printed besides errors: a line per dispatch on stdout; the
   * shader's messages on stderr (else only when it is invalid); quiet
   * drops log messages below warnings. */
  int dispatch_lines;
  int messages;
  int quiet;
} runner_cfg;

typedef struct runner_pipe {
  ls_compute_pipeline *pipeline;
  ls_bind_group **groups;
  size_t ngroups;
  uint32_t scale_num, scale_den; /* invocations per workgroup: case's / this run's */
} runner_pipe;

/* One run of a case and everything it made, alive until runner_free. */
typedef struct runner {
  const case_file *c;
  const runner_cfg *cfg;
  ls_adapter *adapter;
  ls_device *device;
  ls_profiler *prof;         /* when cfg->prof */
  ls_shader_module *module;
  ls_buffer **bufs;          /* per case buffer entry, NULL where it is not a buffer */
  ls_texture **texs;
  ls_texture_view **views;
  ls_sampler **samplers;
  runner_pipe *pipes;        /* per case pipeline */
  uint32_t **words;          /* read back: c->nreadback arrays, in the case's order */
  const char *profile_name;  /* the adapter's profile */
  uint32_t wg_size[3];       /* the first pipeline's workgroup size, after overrides */
  char *last_error;          /* the last error the device reported */
  ls_error_type last_error_type;
  size_t dispatch_index;
  struct runner2 *v2;        /* a version-2 case's objects (runner2.c) */
} runner;

/* Runs case c with cfg (both must outlive r). Returns CLI_OK, or an exit
 * status after printing what went wrong on stderr; either way r holds what
 * was made (the device stays for the sanitizer's findings) until
 * runner_free. */
int runner_run(runner *r, const case_file *c, const runner_cfg *cfg);
void runner_free(runner *r);

/* For the version-2 replay (runner2.c), which runner_run calls for a case
 * with a plan: the device's last error message; the exit status of a step
 * the device refused; the exit status of a submit's outcome (after a
 * message). */
const char *runner_err(const runner *r);
int runner_refused(const runner *r);
int runner_submitted(runner *r, ls_status status);
int runner2_run(runner *r);
void runner2_free(runner *r);

#endif
