/*
 * main.c — the `lockstep` command line program, a front door of the
 * library on the public API (lockstep.h) alone: `run` loads a case file
 * (case.c), runs it through the case runner (runner.c) with the sanitizer
 * (cli_check.c) and the profiler (cli_prof.c) when asked, both at once if
 * need be, prints and writes what was read back and compares it with a
 * reference (result.c); `check` and `disasm` stop after compiling or
 * lowering; `profiles` lists the emulated adapters; `tune` and `plan` are
 * the profiler's (cli_tune.c).
 *
 * Exit status: the table of cli_exit.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"
#include "cli_check.h"
#include "cli_exit.h"
#include "cli_io.h"
#include "cli_prof.h"
#include "runner.h"

typedef struct cli_kv {
  const char *key;
  const char *value;
} cli_kv;

typedef struct cli_opts {
  const char *file;   /* the first file named */
  const char **files; /* check: every file named, in order */
  size_t nfiles;
  const char *out, *expect, *profile, *entry;
  uint32_t subgroup, threads;
  uint64_t budget, dispatch_budget, print;
  uint32_t time_limit; /* ms; 0: the default */
  uint64_t memory_limit; /* bytes per dispatch; 0: the default */
  int quiet, summary;
  cli_kv *constants;
  size_t nconstants;
  cli_kv *limits;
  size_t nlimits;
  cprof_opts prof; /* run: the profiler's options */
} cli_opts;

/* The options `run` takes (the sanitizer's are taken out before). */
#define CLI_RUN_OPTIONS                                                                    \
  " out expect subgroup-size profile threads budget dispatch-budget time-limit memory-limit "  \
  "quiet summary print prof prof-json "                                                    \
  "annotate report compare-profiles trace-group trace-dispatch profile-file "

/* What the callbacks of a shader-only device (check, disasm) see. */
typedef struct cli_state {
  char *last_error;
  const char *file; /* the shader, for messages */
} cli_state;

static void cli_usage(FILE *f) {
  fprintf(f,
          "usage: lockstep COMMAND [ARGS]\n"
          "\n"
          "  run CASE.json [options]   run a case file (wgsl-compute-case/1 or /2)\n"
          "      --out FILE             write the read-back buffers (wgsl-compute-result/1; - = stdout)\n"
          "      --expect FILE          compare with a reference result using the case's rules\n"
          "      -W, --subgroup-size N  subgroup width: 8, 16, 32 or 64 (default: the profile's)\n"
          "      --profile NAME         emulated adapter (see `lockstep profiles`)\n"
          "      --threads N            worker threads (default: one per core)\n"
          "      --budget N             subgroup-instructions one workgroup may run before the\n"
          "                             device is lost (default 4294967296; 'none' = no limit)\n"
          "      --dispatch-budget N    subgroup-instructions one dispatch may run, all its\n"
          "                             workgroups together (default 1099511627776; 'none' = no limit)\n"
          "      --time-limit MS        wall time one submit may run before the device is lost\n"
          "                             (default 60000; 'none' = no limit)\n"
          "      --memory-limit BYTES   interpreter memory one dispatch may hold over its threads\n"
          "                             (default 4294967296; 'none' = no limit)\n"
          "      --print N              words printed per buffer (default 16)\n"
          "      --quiet                print neither dispatches nor buffers\n"
          "      --summary              print the case's title and the dispatches, not the buffers\n"
          "      --check                run under the sanitizer: out-of-bounds accesses, data races,\n"
          "                             barrier divergence, runaway loops (exit 1 on errors)\n"
          "      --json                 with --check: the findings as JSON on stdout\n"
          "      --allow-same-value     with --check: do not report races that wrote equal values\n"
          "                             (--check and the profiler's options go together: each\n"
          "                             gives its full output)\n"
          "  check SHADER.wgsl...      compile only and print the diagnostics and the lint's findings\n"
          "  disasm SHADER.wgsl [--entry NAME] [--constant NAME=VALUE]... [--limit NAME=VALUE]...\n"
          "                            [--profile NAME] [-W N]\n"
          "                            print the bytecode of one entry point (layout \"auto\")\n"
          "  profiles                  list the emulated adapters and their limits\n"
          "  --help, --version\n");
  cli_prof_usage(f); /* the profiler's options and commands */
  fprintf(f, "\nexit status:\n");
#define CLI_X_(name, status, text) fprintf(f, "  %d  %s\n", status, text);
  CLI_EXIT_LIST(CLI_X_)
#undef CLI_X_
}

/* ---------------------------------------------------------------- options */

static int cli_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-' || *s == '+') return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno) return 0;
  *out = v;
  return 1;
}

static int cli_add_kv(cli_kv **list, size_t *n, const char *arg, const char *opt) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg) {
    fprintf(stderr, "lockstep: %s expects NAME=VALUE, not '%s'\n", opt, arg);
    return 0;
  }
  cli_kv *nl = realloc(*list, (*n + 1) * sizeof *nl);
  if (!nl) {
    fprintf(stderr, "lockstep: out of memory\n");
    return 0;
  }
  *list = nl;
  char *key = strndup(arg, (size_t)(eq - arg));
  if (!key) {
    fprintf(stderr, "lockstep: out of memory\n");
    return 0;
  }
  nl[*n].key = key;
  nl[*n].value = eq + 1;
  (*n)++;
  return 1;
}

static void cli_opts_free(cli_opts *o) {
  free(o->files);
  for (size_t i = 0; i < o->nconstants; i++) free((char *)o->constants[i].key);
  for (size_t i = 0; i < o->nlimits; i++) free((char *)o->limits[i].key);
  free(o->constants);
  free(o->limits);
}

/* The profiler's options that take a value (cli_prof.h); 0 after a
 * message on a bad one. */
static int cli_parse_prof(const char *cmd, const char *name, const char *val, cprof_opts *o) {
  uint64_t u = 0;
  if (!strcmp(name, "--prof-json")) {
    o->json = val;
  } else if (!strcmp(name, "--report")) {
    o->report = val;
  } else if (!strcmp(name, "--profile-file")) {
    o->profile_file = val;
  } else if (!strcmp(name, "--trace-dispatch")) {
    if (!cli_u64(val, &u) || u == 0 || u > UINT32_MAX) {
      fprintf(stderr, "lockstep %s: --trace-dispatch '%s' is not a dispatch number (1, 2, ...)\n",
              cmd, val);
      return 0;
    }
    o->trace_dispatch = (uint32_t)(u - 1);
    o->trace_set = 1;
  } else if (!strcmp(name, "--trace-group")) {
    unsigned x = 0, y = 0, z = 0;
    char extra;
    int n = sscanf(val, "%u,%u,%u%c", &x, &y, &z, &extra);
    if (n < 1 || n > 3 || strspn(val, "0123456789,") != strlen(val)) {
      fprintf(stderr, "lockstep %s: --trace-group '%s' is not X[,Y[,Z]]\n", cmd, val);
      return 0;
    }
    o->trace_group[0] = x;
    o->trace_group[1] = y;
    o->trace_group[2] = z;
    o->trace_set = 1;
  }
  return 1;
}

/* Parses the arguments after the command; `allowed` names the options the
 * command takes. Returns 0 and prints a message on a bad argument. */
static int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_opts *o) {
  memset(o, 0, sizeof *o);
  o->print = 16;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->file && strcmp(cmd, "check")) {
        fprintf(stderr, "lockstep %s: unexpected argument '%s'\n", cmd, a);
        return 0;
      }
      if (!o->file) o->file = a;
      if (!strcmp(cmd, "check")) {
        if (!o->files && !(o->files = calloc((size_t)argc, sizeof *o->files))) {
          fprintf(stderr, "lockstep: out of memory\n");
          return 0;
        }
        o->files[o->nfiles++] = a;
      }
      continue;
    }
    char name[64];
    const char *val = NULL;
    const char *eq = strchr(a, '=');
    size_t nl = eq ? (size_t)(eq - a) : strlen(a);
    if (nl >= sizeof name) nl = sizeof name - 1;
    memcpy(name, a, nl);
    name[nl] = 0;
    if (!strcmp(name, "-W")) strcpy(name, "--subgroup-size");
    char key[80];
    snprintf(key, sizeof key, " %s ", name + 2);
    if (strncmp(name, "--", 2) || !strstr(allowed, key)) {
      fprintf(stderr, "lockstep %s: unknown option '%s' (see lockstep --help)\n", cmd, a);
      return 0;
    }
    /* options without a value */
    int *flag = !strcmp(name, "--quiet")              ? &o->quiet
                : !strcmp(name, "--summary")          ? &o->summary
                : !strcmp(name, "--prof")             ? &o->prof.text
                : !strcmp(name, "--annotate")         ? &o->prof.annotate
                : !strcmp(name, "--compare-profiles") ? &o->prof.compare
                                                      : NULL;
    if (flag) {
      if (eq) {
        fprintf(stderr, "lockstep %s: %s takes no value\n", cmd, name);
        return 0;
      }
      *flag = 1;
      continue;
    }
    if (eq)
      val = eq + 1;
    else if (i + 1 < argc)
      val = argv[++i];
    else {
      fprintf(stderr, "lockstep %s: %s needs a value\n", cmd, name);
      return 0;
    }
    uint64_t u = 0;
    if (!strcmp(name, "--out"))
      o->out = val;
    else if (!strcmp(name, "--expect"))
      o->expect = val;
    else if (!strcmp(name, "--profile"))
      o->profile = val;
    else if (!strcmp(name, "--entry"))
      o->entry = val;
    else if (!strcmp(name, "--constant")) {
      if (!cli_add_kv(&o->constants, &o->nconstants, val, name)) return 0;
    } else if (!strcmp(name, "--limit")) {
      if (!cli_add_kv(&o->limits, &o->nlimits, val, name)) return 0;
    } else if (!strcmp(name, "--subgroup-size")) {
      if (!cli_u64(val, &u) || (u != 8 && u != 16 && u != 32 && u != 64)) {
        fprintf(stderr, "lockstep %s: subgroup size '%s' is not 8, 16, 32 or 64\n", cmd, val);
        return 0;
      }
      o->subgroup = (uint32_t)u;
    } else if (!strcmp(name, "--threads")) {
      if (!cli_u64(val, &u) || u < 1 || u > 1024) {
        fprintf(stderr, "lockstep %s: --threads '%s' is not a number from 1 to 1024\n", cmd, val);
        return 0;
      }
      o->threads = (uint32_t)u;
    } else if (!strcmp(name, "--budget") || !strcmp(name, "--dispatch-budget")) {
      /* 0 is the adapter's default, UINT64_MAX no limit (ls_adapter_options) */
      uint64_t *b = !strcmp(name, "--budget") ? &o->budget : &o->dispatch_budget;
      if (!strcmp(val, "none"))
        *b = UINT64_MAX;
      else if (!cli_u64(val, &u) || u == 0 || u == UINT64_MAX) {
        fprintf(stderr, "lockstep %s: %s '%s' is not a positive number or 'none'\n", cmd, name,
                val);
        return 0;
      } else
        *b = u;
    } else if (!strcmp(name, "--time-limit")) {
      if (!strcmp(val, "none"))
        o->time_limit = UINT32_MAX;
      else if (!cli_u64(val, &u) || u == 0 || u >= UINT32_MAX) {
        fprintf(stderr, "lockstep %s: --time-limit '%s' is not a positive number of "
                        "milliseconds or 'none'\n", cmd, val);
        return 0;
      } else
        o->time_limit = (uint32_t)u;
    } else if (!strcmp(name, "--memory-limit")) {
      if (!strcmp(val, "none"))
        o->memory_limit = UINT64_MAX;
      else if (!cli_u64(val, &u) || u == 0 || u == UINT64_MAX) {
        fprintf(stderr, "lockstep %s: --memory-limit '%s' is not a positive number of bytes or "
                        "'none'\n", cmd, val);
        return 0;
      } else
        o->memory_limit = u;
    } else if (!strcmp(name, "--print")) {
      if (!cli_u64(val, &u)) {
        fprintf(stderr, "lockstep %s: --print '%s' is not a number\n", cmd, val);
        return 0;
      }
      o->print = u;
    } else if (!cli_parse_prof(cmd, name, val, &o->prof)) {
      return 0;
    }
  }
  return 1;
}

/* --------------------------------------------------------------- callbacks */

static void cli_on_error(void *user, ls_error_type type, const char *message) {
  cli_state *st = user;
  free(st->last_error);
  st->last_error = strdup(message);
}

static void cli_on_log(void *user, ls_log_level level, const char *message) {
  cli_state *st = user;
  fflush(stdout);
  if (level == LS_LOG_WARNING)
    fprintf(stderr, "%s: warning: %s\n", st->file, message);
  else
    fprintf(stderr, "%s: %s\n", st->file, message);
}

static const char *cli_err(const cli_state *st) {
  return st->last_error ? st->last_error : "(no message)";
}

/* ----------------------------------------------------------------- devices */

static ls_adapter *cli_adapter(const char *where, const char *profile, uint32_t subgroup,
                               uint32_t threads, uint64_t budget) {
  ls_adapter_options ao;
  memset(&ao, 0, sizeof ao);
  ao.struct_size = sizeof ao;
  ao.profile = profile;
  ao.subgroup_size = subgroup;
  ao.threads = threads;
  ao.instruction_budget = budget;
  char err[256];
  ls_adapter *a = ls_adapter_create(&ao, err, sizeof err);
  if (!a) fprintf(stderr, "%s: %s\n", where, err);
  return a;
}

/* ------------------------------------------------------------------- run */

static void cli_type_text(const case_buffer *b, char *buf, size_t len) {
  if (json_is_string(b->type)) {
    snprintf(buf, len, "%s", json_string_value(b->type));
    return;
  }
  size_t o = (size_t)snprintf(buf, len, "[");
  for (size_t i = 0; i < json_array_size(b->type) && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
                          json_string_value(json_array_get(b->type, i)));
  if (o < len) snprintf(buf + o, len - o, "]");
}

static void cli_print_buffer(const case_buffer *b, const uint32_t *w, uint64_t max) {
  char type[256];
  cli_type_text(b, type, sizeof type);
  printf("buffer %s: %s x %llu (%llu words)\n", b->name, type, (unsigned long long)b->count,
         (unsigned long long)b->words);
  uint64_t n = b->words < max ? b->words : max;
  for (uint64_t i = 0; i < n; i++) {
    char v[48];
    case_word t = b->rec[i % b->rec_len];
    if (t == CASE_PAD)
      snprintf(v, sizeof v, "0x%08x", w[i]);
    else
      result_word_text(w[i], t, v, sizeof v);
    if (i % 8 == 0) printf("%s  [%llu]", i ? "\n" : "", (unsigned long long)i);
    printf(" %s", v);
  }
  if (n) printf("\n");
  if (b->words > n) printf("  ... %llu more words\n", (unsigned long long)(b->words - n));
}

static void cli_print_messages(const ls_shader_module *m) {
  const char *text = ls_shader_module_format_messages(m);
  if (text && *text) fputs(text, stderr);
}

/* --out: the read-back buffers as a result file. */
static int cli_write_result(const cli_opts *o, const runner *r) {
  ls_adapter_info info;
  ls_adapter_get_info(r->adapter, &info);
  const result_impl impl = {ls_version(), info.subgroup_size, info.threads, info.profile};
  /* a version-2 case has several modules (their messages went to stderr) */
  size_t nm = r->module ? ls_shader_module_message_count(r->module) : 0;
  result_message *msgs = calloc(nm + 1, sizeof *msgs);
  if (!msgs) {
    fprintf(stderr, "lockstep: out of memory\n");
    return CLI_FAILED;
  }
  for (size_t i = 0; i < nm; i++) {
    const ls_compilation_message *cm = ls_shader_module_message(r->module, i);
    msgs[i].type = cm->type == LS_MESSAGE_ERROR     ? "error"
                   : cm->type == LS_MESSAGE_WARNING ? "warning"
                                                    : "info";
    msgs[i].line = cm->line;
    msgs[i].column = cm->column;
    msgs[i].message = cm->message;
  }
  char err[2048];
  cli_out out;
  FILE *f = cli_out_open(&out, o->out, err, sizeof err);
  if (f) result_write(f, r->c, r->words, &impl, msgs, nm);
  free(msgs);
  if (!f || cli_out_close(&out, err, sizeof err)) {
    fprintf(stderr, "lockstep run: --out: %s\n", err);
    return CLI_FAILED; /* output not written */
  }
  return CLI_OK;
}

/* One run of the case and what follows it: the buffers printed, --out,
 * the profiler's reports, --expect, the sanitizer's findings. */
static int cli_run_case(const cli_opts *o, const case_file *c, const runner_cfg *cfg,
                        const cprof_setup *ps) {
  const int prof = cfg->prof != NULL;
  if (o->summary) {
    printf("%s: %s\n", c->name, c->title ? c->title : "(no title)");
    fflush(stdout); /* before any error on stderr */
  }
  runner r;
  int rc = runner_run(&r, c, cfg);
  if (rc == CLI_OK && !prof && !o->quiet && !o->summary)
    for (size_t k = 0; k < c->nreadback; k++)
      cli_print_buffer(&c->buffers[c->readback[k]], r.words[k], o->print);
  fflush(stdout);
  if (rc == CLI_OK && o->out) rc = cli_write_result(o, &r);
  if (rc == CLI_OK && prof) rc = cprof_report(&o->prof, ps, &r);
  if (rc == CLI_OK && o->expect) rc = result_expect(c, r.words, o->expect);
  rc = cli_check_report(r.device, rc);
  runner_free(&r);
  return rc;
}

static int cli_run(int argc, char **argv) {
  cli_opts o;
  if (!cli_parse(argc, argv, "run", CLI_RUN_OPTIONS, &o)) {
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  if (!o.file) {
    fprintf(stderr, "usage: lockstep run CASE.json [options] (see lockstep --help)\n");
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  /* The profiler's options make a profiled run: its reports instead of
   * the dispatch lines and buffers. */
  const int prof = cprof_wanted(&o.prof);
  runner_cfg cfg = {.profile = o.profile,
                    .subgroup = o.subgroup,
                    .threads = o.threads,
                    .budget = o.budget,
                    .dispatch_budget = o.dispatch_budget,
                    .time_limit_ms = o.time_limit,
                    .memory_limit = o.memory_limit,
                    .check = cli_check_options(),
                    .dispatch_lines = !o.quiet && !prof,
                    .messages = !prof,
                    .quiet = o.quiet || prof};
  cprof_setup ps;
  memset(&ps, 0, sizeof ps);
  int rc = CLI_OK;
  if (prof && o.prof.compare && cfg.check) {
    fprintf(stderr, "lockstep run: --check does not go with --compare-profiles (check one profile "
                    "with --check --profile NAME)\n");
    rc = CLI_BAD_INPUT;
  }
  char err[2048];
  /* every output path is checked before anything runs (cprof_prepare
   * checks the profiler's) */
  if (rc == CLI_OK && o.out && cli_out_check(o.out, err, sizeof err)) {
    fprintf(stderr, "lockstep run: --out: %s\n", err);
    rc = CLI_FAILED;
  }
  if (rc == CLI_OK && prof) rc = cprof_prepare(&o.prof, o.profile, &ps, &cfg);
  case_file c;
  if (rc == CLI_OK) {
    int e = case_load(o.file, &c, err, sizeof err);
    if (e) {
      fprintf(stderr, "%s\n", err);
      rc = e == CASE_NO_MEMORY ? CLI_FAILED : CLI_BAD_INPUT;
    } else {
      rc = o.prof.compare ? cprof_compare(&c, o.threads, o.budget)
                          : cli_run_case(&o, &c, &cfg, &ps);
    }
    case_free(&c); /* what a failed load made, too */
  }
  cprof_setup_free(&ps);
  cli_opts_free(&o);
  return rc;
}

/* ----------------------------------------------------------- check, disasm */

/* A device for a shader alone: the profile's adapter, default limits raised
 * by --limit, the adapter's features. */
static ls_device *cli_shader_device(const cli_opts *o, cli_state *st, ls_adapter **adapter) {
  *adapter = cli_adapter("lockstep", o->profile, o->subgroup, 1, 0);
  if (!*adapter) return NULL;
  ls_required_limit *rl = calloc(o->nlimits + 1, sizeof *rl);
  if (!rl) {
    fprintf(stderr, "lockstep: out of memory\n");
    return NULL;
  }
  for (size_t i = 0; i < o->nlimits; i++) {
    uint64_t v;
    if (!cli_u64(o->limits[i].value, &v)) {
      fprintf(stderr, "lockstep: --limit %s: '%s' is not a number\n", o->limits[i].key,
              o->limits[i].value);
      free(rl);
      return NULL;
    }
    rl[i].name = o->limits[i].key;
    rl[i].value = v;
  }
  ls_device_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.struct_size = sizeof dd;
  dd.required_limits = rl;
  dd.required_limit_count = o->nlimits;
  /* a shader alone has no case to say what it needs: every feature the
   * adapter offers */
  static const char *const wanted[] = {"shader-f16",          "subgroups",
                                       "subgroup-size-control", "texture-formats-tier2",
                                       "bgra8unorm-storage",  "float32-filterable"};
  const size_t nw = sizeof wanted / sizeof wanted[0];
  const char *feats[sizeof wanted / sizeof wanted[0]];
  size_t nf = 0;
  for (size_t i = 0; i < nw; i++)
    if (ls_adapter_has_feature(*adapter, wanted[i])) feats[nf++] = wanted[i];
  dd.required_features = feats;
  dd.required_feature_count = nf;
  char err[512];
  ls_status s;
  ls_device *dev = ls_adapter_create_device(*adapter, &dd, &s, err, sizeof err);
  free(rl);
  if (!dev) {
    fprintf(stderr, "lockstep: requestDevice failed: %s\n", err);
    return NULL;
  }
  ls_device_set_error_callback(dev, cli_on_error, st);
  ls_device_set_log_callback(dev, cli_on_log, st);
  return dev;
}

static ls_shader_module *cli_shader(ls_device *dev, cli_state *st, const char *path) {
  char err[512];
  size_t len;
  char *code = cli_read_file(path, &len, NULL, err, sizeof err);
  if (!code) {
    fprintf(stderr, "lockstep: %s\n", err);
    return NULL;
  }
  if (cli_text_without_nul(code, len, path, "WGSL text", err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    free(code);
    return NULL;
  }
  const ls_shader_module_desc sd = {.code = code, .label = path};
  ls_shader_module *m = ls_device_create_shader_module(dev, &sd);
  free(code);
  if (!m) {
    fprintf(stderr, "%s: %s\n", path, cli_err(st));
    return NULL;
  }
  cli_print_messages(m);
  return m;
}

/* One shader of `check` on the shared device: its diagnostics, then a
 * line saying it is valid, with its warnings and lint findings. */
static int cli_check_one(ls_device *dev, cli_state *st, const char *path) {
  st->file = path;
  ls_shader_module *m = cli_shader(dev, st, path);
  int rc = CLI_BAD_INPUT;
  if (m && ls_shader_module_is_valid(m)) {
    size_t warnings = 0;
    for (size_t i = 0; i < ls_shader_module_message_count(m); i++)
      warnings += ls_shader_module_message(m, i)->type == LS_MESSAGE_WARNING;
    int lint = cli_check_lint(m, path);
    printf("%s: valid (%zu warning%s", path, warnings, warnings == 1 ? "" : "s");
    if (lint) printf(", %d lint finding%s", lint, lint == 1 ? "" : "s");
    printf(")\n");
    rc = CLI_OK;
  }
  ls_shader_module_release(m);
  return rc;
}

/* check FILE...: every shader in turn on one device (a tree's shaders in
 * one process); the status is 2 when any of them is not valid. */
static int cli_check(int argc, char **argv) {
  cli_opts o;
  if (!cli_parse(argc, argv, "check", " profile subgroup-size limit ", &o) || !o.file) {
    if (!o.file) fprintf(stderr, "usage: lockstep check SHADER.wgsl [SHADER.wgsl ...]\n");
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  cli_state st;
  memset(&st, 0, sizeof st);
  st.file = o.file;
  ls_adapter *a = NULL;
  ls_device *dev = cli_shader_device(&o, &st, &a);
  int rc = dev ? CLI_OK : CLI_BAD_INPUT;
  for (size_t i = 0; dev && i < o.nfiles; i++) {
    if (cli_check_one(dev, &st, o.files[i]) != CLI_OK) rc = CLI_BAD_INPUT;
    fflush(stdout);
  }
  ls_device_release(dev);
  ls_adapter_release(a);
  free(st.last_error);
  cli_opts_free(&o);
  return rc;
}

static int cli_disasm(int argc, char **argv) {
  cli_opts o;
  if (!cli_parse(argc, argv, "disasm", " entry constant limit profile subgroup-size ", &o) ||
      !o.file) {
    if (!o.file) fprintf(stderr, "usage: lockstep disasm SHADER.wgsl [--entry NAME] ...\n");
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  cli_state st;
  memset(&st, 0, sizeof st);
  st.file = o.file;
  int rc = CLI_BAD_INPUT;
  ls_adapter *a = NULL;
  ls_compute_pipeline *p = NULL;
  ls_device *dev = cli_shader_device(&o, &st, &a);
  ls_shader_module *m = dev ? cli_shader(dev, &st, o.file) : NULL;
  ls_constant_entry *ce = calloc(o.nconstants + 1, sizeof *ce);
  if (!ce) goto done;
  for (size_t i = 0; i < o.nconstants; i++) {
    const char *v = o.constants[i].value;
    char *end;
    double d;
    if (!strcmp(v, "true"))
      d = 1;
    else if (!strcmp(v, "false"))
      d = 0;
    else {
      errno = 0;
      d = strtod(v, &end);
      if (!*v || *end || errno) {
        fprintf(stderr, "lockstep disasm: --constant %s: '%s' is not a number\n",
                o.constants[i].key, v);
        goto done;
      }
    }
    ce[i].key = o.constants[i].key;
    ce[i].value = d;
  }
  if (!m || !ls_shader_module_is_valid(m)) goto done;
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  pd.entry_point = o.entry;
  pd.constants = ce;
  pd.constant_count = o.nconstants;
  p = ls_device_create_compute_pipeline(dev, &pd);
  if (!p) {
    fprintf(stderr, "%s\n", cli_err(&st));
    goto done;
  }
  char *text = ls_compute_pipeline_disassemble(p);
  if (!text) {
    fprintf(stderr, "lockstep: out of memory\n");
    rc = CLI_FAILED;
    goto done;
  }
  fputs(text, stdout);
  ls_free(text);
  rc = CLI_OK;
done:
  free(ce);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  ls_device_release(dev);
  ls_adapter_release(a);
  free(st.last_error);
  cli_opts_free(&o);
  return rc;
}

/* ---------------------------------------------------------------- profiles */

static int cli_profiles(void) {
  printf("%-8s %3s %-8s %-6s %-16s %-8s %-12s %-11s %s\n", "profile", "W", "vendor",
         "invoc.", "workgroup size", "wg mem", "storage bind", "buffer", "description");
  for (const char *const *n = ls_profile_names(); *n; n++) {
    ls_adapter_options ao;
    memset(&ao, 0, sizeof ao);
    ao.struct_size = sizeof ao;
    ao.profile = *n;
    ao.threads = 1;
    ls_adapter *a = ls_adapter_create(&ao, NULL, 0);
    if (!a) continue;
    ls_adapter_info info;
    ls_limits l;
    ls_adapter_get_info(a, &info);
    ls_adapter_get_limits(a, &l);
    char wg[32];
    snprintf(wg, sizeof wg, "%llu x %llu x %llu", (unsigned long long)l.max_compute_workgroup_size_x,
             (unsigned long long)l.max_compute_workgroup_size_y,
             (unsigned long long)l.max_compute_workgroup_size_z);
    printf("%-8s %3u %-8s %-6llu %-16s %-8llu %-12llu %-11llu %s\n", info.profile,
           info.subgroup_size, info.vendor,
           (unsigned long long)l.max_compute_invocations_per_workgroup, wg,
           (unsigned long long)l.max_compute_workgroup_storage_size,
           (unsigned long long)l.max_storage_buffer_binding_size,
           (unsigned long long)l.max_buffer_size, info.description);
    ls_adapter_release(a);
  }
  printf("(invoc. = maxComputeInvocationsPerWorkgroup, wg mem = maxComputeWorkgroupStorageSize,\n"
         " storage bind = maxStorageBufferBindingSize, buffer = maxBufferSize; a device gets the\n"
         " WebGPU defaults unless a case asks for more in \"device\": {\"requiredLimits\": ...})\n");
  /* the GPU each profile's cost model stands for (docs/profiler.md, "Cost model") */
  printf("\n%-8s %5s %6s %8s %9s %9s  %s\n", "profile", "SMs", "MHz", "L2 MiB", "L2 GB/s",
         "DRAM GB/s", "cost model");
  for (const char *const *n = ls_profile_names(); *n; n++) {
    ls_cost_model m = {.struct_size = sizeof m};
    if (ls_cost_model_describe(*n, &m) != LS_OK) continue;
    printf("%-8s %5.0f %6.0f %8.1f %9.0f %9.0f  %s: %s\n", *n, m.sms, m.clock_mhz,
           m.l2_bytes / 1048576.0, m.l2_gbs, m.dram_gbs,
           m.calibrated ? "calibrated" : "not calibrated", m.source);
  }
  return CLI_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    cli_usage(stderr);
    return CLI_BAD_INPUT;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    cli_usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(cmd, "--version")) {
    printf("lockstep %s (interpreter: %s)\n", ls_version(), ls_isa());
    return CLI_OK;
  }
  if (!strcmp(cmd, "run")) {
    int n = cli_check_take_args(argc - 2, argv + 2);
    return n < 0 ? CLI_BAD_INPUT : cli_run(n, argv + 2);
  }
  if (!strcmp(cmd, "check")) return cli_check(argc - 2, argv + 2);
  if (!strcmp(cmd, "disasm")) return cli_disasm(argc - 2, argv + 2);
  if (!strcmp(cmd, "profiles")) return cli_profiles();
  if (!strcmp(cmd, "tune")) return cli_tune_main(argc - 2, argv + 2);
  if (!strcmp(cmd, "plan")) return cli_plan_main(argc - 2, argv + 2);
  fprintf(stderr, "lockstep: unknown command '%s' (see lockstep --help)\n", cmd);
  return CLI_BAD_INPUT;
}
