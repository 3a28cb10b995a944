/*
 * main.c — the `lockstep` command line program, a front door of the
 * library: `run` loads a case file (case.c), builds buffers, the shader
 * module, pipelines with explicit layouts and one compute pass exactly as
 * the Dawn peer runner does, runs it, prints and writes what was read back
 * and compares it with a reference (result.c); `check` and `disasm` stop
 * after compiling or lowering; `profiles` lists the emulated adapters.
 *
 * Exit status: 0 ok, 1 results differ from --expect, 2 malformed input
 * (case, shader, options, a validation error), 3 the run itself failed
 * (device lost to a runaway shader, out of memory, output not written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../api/api.h"
#include "case.h"
#include "cli_prof.h"
#include "cli_check.h"
#include "cli_texture.h"

#define CLI_OK 0
#define CLI_MISMATCH 1
#define CLI_BAD_INPUT 2
#define CLI_FAILED 3

typedef struct cli_kv {
  const char *key;
  const char *value;
} cli_kv;

typedef struct cli_opts {
  const char *file;
  const char *out, *expect, *profile, *entry;
  uint32_t subgroup, threads;
  uint64_t budget, print;
  int quiet, summary;
  cli_kv *constants;
  size_t nconstants;
  cli_kv *limits;
  size_t nlimits;
} cli_opts;

/* What the callbacks of the device see. */
typedef struct cli_state {
  char *last_error;
  const char *file; /* the case file, for messages */
  size_t dispatch_index, dispatch_count;
  int quiet;
} cli_state;

static void cli_usage(FILE *f) {
  fprintf(f,
          "usage: lockstep COMMAND [ARGS]\n"
          "\n"
          "  run CASE.json [options]   run a case file (wgsl-compute-case/1)\n"
          "      --out FILE             write the read-back buffers (wgsl-compute-result/1; - = stdout)\n"
          "      --expect FILE          compare with a reference result using the case's rules\n"
          "      -W, --subgroup-size N  subgroup width: 8, 16, 32 or 64 (default: the profile's)\n"
          "      --profile NAME         emulated adapter (see `lockstep profiles`)\n"
          "      --threads N            worker threads (default: one per core)\n"
          "      --budget N             subgroup-instructions one workgroup may run before the\n"
          "                             device is lost (default 4294967296; 'none' = no limit)\n"
          "      --print N              words printed per buffer (default 16)\n"
          "      --quiet                print neither dispatches nor buffers\n"
          "      --summary              print the case's title and the dispatches, not the buffers\n"
          "      --check                run under the sanitizer: out-of-bounds accesses, data races,\n"
          "                             barrier divergence, runaway loops (exit 1 on errors)\n"
          "      --json                 with --check: the findings as JSON on stdout\n"
          "      --allow-same-value     with --check: do not report races that wrote equal values\n"
          "  check SHADER.wgsl         compile only and print the diagnostics and the lint's findings\n"
          "  disasm SHADER.wgsl [--entry NAME] [--constant NAME=VALUE]... [--limit NAME=VALUE]...\n"
          "                            [--profile NAME] [-W N]\n"
          "                            print the bytecode of one entry point (layout \"auto\")\n"
          "  profiles                  list the emulated adapters and their limits\n"
          "  --help, --version\n"
          "\n"
          "exit status: 0 ok, 1 results differ from --expect, 2 malformed input (case file,\n"
          "shader, option or validation error), 3 the run failed (device lost, out of memory,\n"
          "output not written)\n");
  cli_prof_usage(f); /* the profiler's options and commands */
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
  for (size_t i = 0; i < o->nconstants; i++) free((char *)o->constants[i].key);
  for (size_t i = 0; i < o->nlimits; i++) free((char *)o->limits[i].key);
  free(o->constants);
  free(o->limits);
}

/* Parses the arguments after the command; `allowed` names the options the
 * command takes. Returns 0 and prints a message on a bad argument. */
static int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_opts *o) {
  memset(o, 0, sizeof *o);
  o->print = 16;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || !strcmp(a, "-")) {
      if (o->file) {
        fprintf(stderr, "lockstep %s: unexpected argument '%s'\n", cmd, a);
        return 0;
      }
      o->file = a;
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
    if (!strcmp(name, "--quiet") || !strcmp(name, "--summary")) {
      if (eq) {
        fprintf(stderr, "lockstep %s: %s takes no value\n", cmd, name);
        return 0;
      }
      if (name[2] == 'q') o->quiet = 1;
      else o->summary = 1;
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
    } else if (!strcmp(name, "--budget")) {
      if (!strcmp(val, "none"))
        o->budget = UINT64_MAX;
      else if (!cli_u64(val, &u) || u == 0 || u == UINT64_MAX) {
        fprintf(stderr, "lockstep %s: --budget '%s' is not a positive number or 'none'\n", cmd,
                val);
        return 0;
      } else
        o->budget = u;
    } else if (!strcmp(name, "--print")) {
      if (!cli_u64(val, &u)) {
        fprintf(stderr, "lockstep %s: --print '%s' is not a number\n", cmd, val);
        return 0;
      }
      o->print = u;
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
  fflush(stdout); /* keep the dispatch lines and the warnings in order */
  if (level == LS_LOG_WARNING)
    fprintf(stderr, "%s: warning: %s\n", st->file, message);
  else if (!st->quiet)
    fprintf(stderr, "%s: %s\n", st->file, message);
}

static void cli_on_dispatch(void *user, const api_dispatch_info *in) {
  cli_state *st = user;
  st->dispatch_index++;
  if (st->quiet) return;
  const char *name = in->pipeline_label ? in->pipeline_label : in->entry_point;
  printf("dispatch %zu/%zu %s: %s%u x %u x %u workgroups", st->dispatch_index,
         st->dispatch_count, name, in->indirect ? "indirect " : "", in->groups[0], in->groups[1],
         in->groups[2]);
  if (in->skipped) {
    printf(": skipped (a count exceeds maxComputeWorkgroupsPerDimension)\n");
    return;
  }
  if (!in->groups[0] || !in->groups[1] || !in->groups[2]) {
    printf(": nothing runs\n");
    return;
  }
  uint64_t groups = (uint64_t)in->groups[0] * in->groups[1] * in->groups[2];
  uint64_t per = (uint64_t)in->wg_size[0] * in->wg_size[1] * in->wg_size[2];
  uint64_t sub = (per + in->width - 1) / in->width;
  printf(" of %u x %u x %u = %llu invocations (W = %u: %llu subgroups)\n", in->wg_size[0],
         in->wg_size[1], in->wg_size[2], (unsigned long long)(groups * per), in->width,
         (unsigned long long)(groups * sub));
  fflush(stdout);
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

typedef struct cli_pipe {
  ls_compute_pipeline *pipeline;
  ls_bind_group **groups;
  size_t ngroups;
} cli_pipe;

/* Explicit layouts as FORMAT.md says: one bind group layout per group from 0
 * to the highest group the pipeline's buffers use. */
static int cli_make_pipeline(ls_device *dev, cli_state *st, const case_file *c,
                             const case_pipeline *cp, ls_shader_module *m, ls_buffer **bufs,
                             ls_texture_view **views, ls_sampler **samplers, cli_pipe *out) {
  uint32_t ngroups = 0;
  for (size_t k = 0; k < cp->nbuffers; k++) {
    uint32_t g = c->buffers[cp->buffers[k]].group;
    if (g + 1 > ngroups) ngroups = g + 1;
  }
  ls_limits lim;
  ls_device_get_limits(dev, &lim);
  if (ngroups > lim.max_bind_groups) {
    fprintf(stderr, "%s: pipelines.%s: its buffers use @group(%u), not below maxBindGroups (%llu)\n",
            c->path, cp->name, ngroups - 1, (unsigned long long)lim.max_bind_groups);
    return 0;
  }
  ls_bind_group_layout *bgls[64] = {0};
  ls_bind_group_layout_entry *le = calloc(cp->nbuffers + 1, sizeof *le);
  ls_bind_group_entry *be = calloc(cp->nbuffers + 1, sizeof *be);
  out->groups = calloc(ngroups + 1, sizeof *out->groups);
  out->ngroups = ngroups;
  int ok = le && be && out->groups;
  if (!ok) fprintf(stderr, "lockstep: out of memory\n");
  for (uint32_t g = 0; ok && g < ngroups; g++) {
    size_t n = 0;
    for (size_t k = 0; k < cp->nbuffers; k++) {
      size_t bi = cp->buffers[k];
      const case_buffer *b = &c->buffers[bi];
      if (b->group != g) continue;
      if (b->is_texture || b->is_sampler) {
        cli_texture_layout_entry(b, &le[n]);
        memset(&be[n], 0, sizeof be[n]);
        be[n].binding = b->binding;
        if (b->is_sampler) be[n].sampler = samplers[bi];
        else be[n].texture_view = views[bi];
        n++;
        continue;
      }
      le[n].binding = b->binding;
      le[n].type = b->kind == CASE_KIND_UNIFORM ? LS_BINDING_UNIFORM
                   : b->kind == CASE_KIND_STORAGE ? LS_BINDING_STORAGE
                                                  : LS_BINDING_READ_ONLY_STORAGE;
      le[n].min_binding_size = 0;
      uint64_t bytes = b->words * 4;
      uint64_t off = b->has_bind_offset ? b->bind_offset : 0;
      if (!b->has_bind_size && off > bytes) {
        fprintf(stderr, "%s: buffers[%zu].bindOffset: %llu is past the end of buffer '%s' (%llu "
                        "bytes)\n",
                c->path, bi, (unsigned long long)off, b->name, (unsigned long long)bytes);
        ok = 0;
        break;
      }
      be[n].binding = b->binding;
      be[n].buffer = bufs[bi];
      be[n].offset = off;
      be[n].size = b->has_bind_size ? b->bind_size : bytes - off;
      n++;
    }
    if (!ok) break;
    bgls[g] = ls_device_create_bind_group_layout(dev, &(ls_bind_group_layout_desc){.entries = le, .entry_count = n});
    if (!bgls[g]) {
      fprintf(stderr, "%s: pipelines.%s: group %u: %s\n", c->path, cp->name, g, cli_err(st));
      ok = 0;
      break;
    }
    out->groups[g] = ls_device_create_bind_group(dev, &(ls_bind_group_desc){.layout = bgls[g], .entries = be, .entry_count = n});
    if (!out->groups[g]) {
      fprintf(stderr, "%s: pipelines.%s: group %u: %s\n", c->path, cp->name, g, cli_err(st));
      ok = 0;
    }
  }
  ls_pipeline_layout *pl = NULL;
  if (ok) {
    /* room for any var<immediate>: the case's dispatches set what it reads */
    ls_limits dl;
    ls_device_get_limits(dev, &dl);
    pl = ls_device_create_pipeline_layout(dev, &(ls_pipeline_layout_desc){.bind_group_layouts = bgls, .bind_group_layout_count = ngroups, .immediate_size = (uint32_t)dl.max_immediate_size});
    if (!pl) {
      fprintf(stderr, "%s: pipelines.%s: %s\n", c->path, cp->name, cli_err(st));
      ok = 0;
    }
  }
  if (ok) {
    ls_compute_pipeline_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.module = m;
    pd.entry_point = cp->entry;
    pd.constants = cp->constants;
    pd.constant_count = cp->nconstants;
    pd.layout = pl;
    pd.label = cp->name;
    out->pipeline = ls_device_create_compute_pipeline(dev, &pd);
    if (!out->pipeline) {
      fprintf(stderr, "%s: pipelines.%s: cannot create the pipeline:\n%s\n", c->path, cp->name,
              cli_err(st));
      ok = 0;
    }
  }
  ls_pipeline_layout_release(pl);
  for (uint32_t g = 0; g < ngroups && g < 64; g++) ls_bind_group_layout_release(bgls[g]);
  free(le);
  free(be);
  return ok;
}

static void cli_print_messages(const ls_shader_module *m) {
  const char *text = ls_shader_module_format_messages(m);
  if (text && *text) fputs(text, stderr);
}

static int cli_run(int argc, char **argv) {
  if (cli_prof_wanted(argc, argv)) return cli_prof_run(argc, argv); /* the profiler: cli_prof.c */
  cli_opts o;
  if (!cli_parse(argc, argv, "run",
                 " out expect subgroup-size profile threads budget quiet summary print ", &o)) {
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  if (!o.file) {
    fprintf(stderr, "usage: lockstep run CASE.json [options] (see lockstep --help)\n");
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  int rc = CLI_BAD_INPUT;
  cli_state st;
  memset(&st, 0, sizeof st);
  st.file = o.file;
  st.quiet = o.quiet;
  case_file c;
  char err[2048];
  ls_adapter *adapter = NULL;
  ls_device *dev = NULL;
  ls_buffer **bufs = NULL;
  ls_texture **texs = NULL;
  ls_texture_view **views = NULL;
  ls_sampler **samplers = NULL;
  ls_shader_module *mod = NULL;
  cli_pipe *pipes = NULL;
  uint32_t **words = NULL;
  ls_command_encoder *enc = NULL;
  ls_compute_pass *pass = NULL;

  if (case_load(o.file, &c, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    goto done;
  }
  if (o.summary) {
    printf("%s: %s\n", c.name, c.title ? c.title : "(no title)");
    fflush(stdout); /* before any error on stderr */
  }
  {
    /* Options override the case's "adapter" object; messages say which. */
    char where[512];
    if ((!o.profile && c.profile) || (!o.subgroup && c.subgroup_size))
      snprintf(where, sizeof where, "%s: adapter", c.path);
    else
      snprintf(where, sizeof where, "lockstep run");
    adapter = cli_adapter(where, o.profile ? o.profile : c.profile,
                          o.subgroup ? o.subgroup : c.subgroup_size, o.threads, o.budget);
  }
  if (!adapter) goto done;
  ls_status status;
  ls_device_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.struct_size = sizeof dd;
  dd.required_limits = c.limits;
  dd.required_limit_count = c.nlimits;
  dd.required_features = (const char *const *)c.features;
  dd.required_feature_count = c.nfeatures;
  dd.label = c.name;
  dev = ls_adapter_create_device(adapter, &dd, &status, err, sizeof err);
  if (!dev) {
    fprintf(stderr, "%s: device: requestDevice failed: %s\n", c.path, err);
    rc = status == LS_OUT_OF_MEMORY ? CLI_FAILED : CLI_BAD_INPUT;
    goto done;
  }
  ls_device_set_error_callback(dev, cli_on_error, &st);
  ls_device_set_log_callback(dev, cli_on_log, &st);
  api_device_set_dispatch_hook(dev, cli_on_dispatch, &st);
  st.dispatch_count = c.ndispatches;

  bufs = calloc(c.nbuffers + 1, sizeof *bufs);
  texs = calloc(c.nbuffers + 1, sizeof *texs);
  views = calloc(c.nbuffers + 1, sizeof *views);
  samplers = calloc(c.nbuffers + 1, sizeof *samplers);
  pipes = calloc(c.npipelines + 1, sizeof *pipes);
  words = calloc(c.nreadback + 1, sizeof *words);
  if (!bufs || !texs || !views || !samplers || !pipes || !words) {
    fprintf(stderr, "lockstep: out of memory\n");
    rc = CLI_FAILED;
    goto done;
  }
  for (size_t i = 0; i < c.nbuffers; i++) {
    const case_buffer *b = &c.buffers[i];
    if (b->is_texture) {
      if (!cli_texture_create(dev, b, &texs[i], &views[i])) {
        fprintf(stderr, "%s: buffers[%zu] (texture '%s'): %s\n", c.path, i, b->name, cli_err(&st));
        goto done;
      }
      continue;
    }
    if (b->is_sampler) {
      if (!(samplers[i] = ls_device_create_sampler(dev, &b->smp_desc))) {
        fprintf(stderr, "%s: buffers[%zu] (sampler '%s'): %s\n", c.path, i, b->name, cli_err(&st));
        goto done;
      }
      continue;
    }
    ls_buffer_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.usage = LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST;
    if (b->kind == CASE_KIND_UNIFORM) bd.usage |= LS_BUFFER_USAGE_UNIFORM;
    if (b->kind == CASE_KIND_STORAGE || b->kind == CASE_KIND_READ_ONLY_STORAGE)
      bd.usage |= LS_BUFFER_USAGE_STORAGE;
    if (b->indirect) bd.usage |= LS_BUFFER_USAGE_INDIRECT;
    /* Rounded up to 16 bytes, as the Dawn runner allocates. */
    uint64_t bytes = b->words * 4;
    bd.size = bytes < 16 ? 16 : (bytes + 15) / 16 * 16;
    bd.label = b->name;
    bufs[i] = ls_device_create_buffer(dev, &bd);
    if (!bufs[i]) {
      fprintf(stderr, "%s: buffers[%zu]: %s\n", c.path, i, cli_err(&st));
      goto done;
    }
    if (ls_queue_write_buffer(dev, bufs[i], 0, b->init, (size_t)bytes) != LS_OK) {
      fprintf(stderr, "%s: buffers[%zu]: %s\n", c.path, i, cli_err(&st));
      goto done;
    }
  }

  if (!cli_check_attach(dev, &c, bufs)) {
    rc = CLI_FAILED;
    goto done;
  }
  ls_shader_module_desc sd = {.code = c.shader_code, .label = c.shader_path};
  mod = ls_device_create_shader_module(dev, &sd);
  if (!mod) {
    fprintf(stderr, "%s: shader: %s\n", c.path, cli_err(&st));
    rc = CLI_FAILED;
    goto done;
  }
  cli_print_messages(mod);
  if (!ls_shader_module_is_valid(mod)) {
    fprintf(stderr, "%s: shader: %s is not valid WGSL\n", c.path, c.shader_path);
    goto done;
  }

  for (size_t i = 0; i < c.npipelines; i++)
    if (!cli_make_pipeline(dev, &st, &c, &c.pipelines[i], mod, bufs, views, samplers,
                           &pipes[i]))
      goto done;

  enc = ls_device_create_command_encoder(dev, NULL);
  pass = enc ? ls_command_encoder_begin_compute_pass(enc, NULL) : NULL;
  if (!pass) {
    fprintf(stderr, "%s: %s\n", c.path, cli_err(&st));
    rc = CLI_FAILED;
    goto done;
  }
  for (size_t i = 0; i < c.ndispatches; i++) {
    const case_dispatch *d = &c.dispatches[i];
    const cli_pipe *p = &pipes[d->pipeline];
    ls_compute_pass_set_pipeline(pass, p->pipeline);
    for (size_t g = 0; g < p->ngroups; g++)
      ls_compute_pass_set_bind_group(pass, (uint32_t)g, p->groups[g], NULL, 0);
    if (d->nimmediates)
      ls_compute_pass_set_immediates(pass, 0, d->immediates, d->nimmediates * 4u);
    if (d->indirect)
      ls_compute_pass_dispatch_workgroups_indirect(pass, bufs[d->buffer], d->offset);
    else
      ls_compute_pass_dispatch_workgroups(pass, d->workgroups[0], d->workgroups[1],
                                          d->workgroups[2]);
    const char *problem = api_compute_pass_error(pass);
    if (problem) {
      fprintf(stderr, "%s: dispatches[%zu] (pipeline %s): %s\n", c.path, i,
              c.pipelines[d->pipeline].name, problem);
      goto done;
    }
  }
  ls_compute_pass_end(pass);
  pass = NULL;
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  enc = NULL;
  if (!cb) {
    fprintf(stderr, "%s: %s\n", c.path, cli_err(&st));
    goto done;
  }
  status = ls_queue_submit(dev, &cb, 1);
  if (status == LS_DEVICE_LOST) {
    fprintf(stderr, "%s: error: device lost: %s\n  (lockstep run --budget N sets the budget; "
                    "--budget none removes it)\n",
            c.path,
            ls_device_get_lost_message(dev) ? ls_device_get_lost_message(dev) : "(no message)");
    rc = CLI_FAILED;
    goto done;
  }
  if (status != LS_OK) {
    fprintf(stderr, "%s: %s\n", c.path, cli_err(&st));
    rc = status == LS_VALIDATION ? CLI_BAD_INPUT : CLI_FAILED;
    goto done;
  }

  for (size_t r = 0; r < c.nreadback; r++) {
    const case_buffer *b = &c.buffers[c.readback[r]];
    words[r] = malloc(b->words * 4);
    if (!words[r] ||
        (b->is_texture ? !cli_texture_read(dev, b, texs[c.readback[r]], words[r])
                       : ls_queue_read_buffer(dev, bufs[c.readback[r]], 0, words[r],
                                              (size_t)b->words * 4) != LS_OK)) {
      fprintf(stderr, "%s: readback of '%s': %s\n", c.path, b->name,
              words[r] ? cli_err(&st) : "out of memory");
      rc = CLI_FAILED;
      goto done;
    }
    if (!o.quiet && !o.summary) cli_print_buffer(b, words[r], o.print);
  }
  fflush(stdout);

  if (o.out) {
    ls_adapter_info info;
    ls_adapter_get_info(adapter, &info);
    result_impl impl = {ls_version(), info.subgroup_size, info.threads, info.profile};
    size_t nm = ls_shader_module_message_count(mod);
    result_message *msgs = calloc(nm + 1, sizeof *msgs);
    if (!msgs) {
      fprintf(stderr, "lockstep: out of memory\n");
      rc = CLI_FAILED;
      goto done;
    }
    for (size_t i = 0; i < nm; i++) {
      const ls_compilation_message *cm = ls_shader_module_message(mod, i);
      msgs[i].type = cm->type == LS_MESSAGE_ERROR     ? "error"
                     : cm->type == LS_MESSAGE_WARNING ? "warning"
                                                      : "info";
      msgs[i].line = cm->line;
      msgs[i].column = cm->column;
      msgs[i].message = cm->message;
    }
    int w = result_write(o.out, &c, words, &impl, msgs, nm, err, sizeof err);
    free(msgs);
    if (w) {
      fprintf(stderr, "lockstep: %s\n", err);
      rc = CLI_FAILED;
      goto done;
    }
  }
  rc = o.expect ? result_expect(&c, words, o.expect) : CLI_OK;

done:
  rc = cli_check_report(dev, rc);
  if (pass) ls_compute_pass_end(pass);
  ls_command_encoder_release(enc);
  for (size_t i = 0; pipes && i < c.npipelines; i++) {
    ls_compute_pipeline_release(pipes[i].pipeline);
    for (size_t g = 0; g < pipes[i].ngroups; g++) ls_bind_group_release(pipes[i].groups[g]);
    free(pipes[i].groups);
  }
  free(pipes);
  ls_shader_module_release(mod);
  for (size_t i = 0; bufs && i < c.nbuffers; i++) ls_buffer_release(bufs[i]);
  free(bufs);
  for (size_t i = 0; views && i < c.nbuffers; i++) ls_texture_view_release(views[i]);
  free(views);
  for (size_t i = 0; samplers && i < c.nbuffers; i++) ls_sampler_release(samplers[i]);
  free(samplers);
  for (size_t i = 0; texs && i < c.nbuffers; i++) ls_texture_release(texs[i]);
  free(texs);
  for (size_t r = 0; words && r < c.nreadback; r++) free(words[r]);
  free(words);
  ls_device_release(dev);
  ls_adapter_release(adapter);
  case_free(&c);
  free(st.last_error);
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
  char *code = case_read_file(path, &len, err, sizeof err);
  if (!code) {
    fprintf(stderr, "lockstep: %s\n", err);
    return NULL;
  }
  if (strlen(code) != len) {
    /* WGSL text is UTF-8 without NULs; say where the first one is */
    size_t at = strlen(code), line = 1, col = 1;
    for (size_t i = 0; i < at; i++) {
      if (code[i] == '\n') line++, col = 1;
      else if (((unsigned char)code[i] & 0xC0) != 0x80) col++;
    }
    fprintf(stderr, "%s:%zu:%zu error: a NUL byte (WGSL text cannot contain one)\n", path, line, col);
    free(code);
    return NULL;
  }
  ls_shader_module_desc sd = {.code = code, .label = path};
  ls_shader_module *m = ls_device_create_shader_module(dev, &sd);
  free(code);
  if (!m) {
    fprintf(stderr, "%s: %s\n", path, cli_err(st));
    return NULL;
  }
  cli_print_messages(m);
  return m;
}

static int cli_check(int argc, char **argv) {
  cli_opts o;
  if (!cli_parse(argc, argv, "check", " profile subgroup-size limit ", &o) || !o.file) {
    if (!o.file) fprintf(stderr, "usage: lockstep check SHADER.wgsl\n");
    cli_opts_free(&o);
    return CLI_BAD_INPUT;
  }
  cli_state st;
  memset(&st, 0, sizeof st);
  st.file = o.file;
  ls_adapter *a = NULL;
  ls_device *dev = cli_shader_device(&o, &st, &a);
  ls_shader_module *m = dev ? cli_shader(dev, &st, o.file) : NULL;
  int rc = CLI_BAD_INPUT;
  if (m && ls_shader_module_is_valid(m)) {
    size_t warnings = 0;
    for (size_t i = 0; i < ls_shader_module_message_count(m); i++)
      warnings += ls_shader_module_message(m, i)->type == LS_MESSAGE_WARNING;
    int lint = cli_check_lint(m, o.file);
    printf("%s: valid (%zu warning%s", o.file, warnings, warnings == 1 ? "" : "s");
    if (lint) printf(", %d lint finding%s", lint, lint == 1 ? "" : "s");
    printf(")\n");
    rc = CLI_OK;
  }
  ls_shader_module_release(m);
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
  char *text = ir_disassemble(api_compute_pipeline_program(p));
  if (!text) {
    fprintf(stderr, "lockstep: out of memory\n");
    rc = CLI_FAILED;
    goto done;
  }
  fputs(text, stdout);
  free(text);
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
    printf("lockstep %s\n", ls_version());
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
