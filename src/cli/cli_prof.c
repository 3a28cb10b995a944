/*
 * cli_prof.c — `lockstep run CASE.json --prof ...`: runs a case with the
 * SIMT profiler attached (src/prof) and prints or writes its reports: the
 * text report (--prof), JSON (--prof-json FILE), the annotated source
 * (--annotate), the HTML page (--report FILE), and --compare-profiles, the
 * same case under every vendor profile in one table.
 *
 * Where it stands: main.c's `run` hands the command line over here when it
 * names a profiling option; the case runner below builds the same buffers,
 * layouts and pass as main.c's plain run (FORMAT.md's explicit layouts), so
 * the profiled run computes the same results. cli_tune.c reuses it.
 *
 * Exit status as main.c: 0 ok, 1 --expect differs, 2 bad input (including a
 * report path that cannot be written: checked before the run, and written
 * through a temporary file so nothing is half-written), 3 the run failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../api/api.h"
#include "cli_prof.h"
#include "cli_texture.h"

#define CP_OK 0
#define CP_MISMATCH 1
#define CP_BAD 2
#define CP_FAILED 3

/* ------------------------------------------------------------- files */

static char *cprof_dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

int cprof_check_writable(const char *path, char *err, size_t errlen) {
  char *dir = cprof_dir_of(path);
  if (!dir) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  size_t n = strlen(dir) + 32;
  char *tmp = malloc(n);
  int fd = -1;
  if (tmp) {
    snprintf(tmp, n, "%s/.lockstep-XXXXXX", dir);
    fd = mkstemp(tmp);
  }
  if (fd < 0) {
    snprintf(err, errlen, "cannot write '%s': %s", path, strerror(tmp ? errno : ENOMEM));
    free(tmp);
    free(dir);
    return -1;
  }
  close(fd);
  unlink(tmp);
  free(tmp);
  free(dir);
  return 0;
}

int cprof_write_file(const char *path, const char *text, char *err, size_t errlen) {
  if (!strcmp(path, "-")) {
    fputs(text, stdout);
    fflush(stdout);
    return 0;
  }
  char *dir = cprof_dir_of(path);
  size_t n = dir ? strlen(dir) + 32 : 0;
  char *tmp = dir ? malloc(n) : NULL;
  if (!tmp) {
    free(dir);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(tmp, n, "%s/.lockstep-XXXXXX", dir);
  free(dir);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  FILE *f = fdopen(fd, "w");
  size_t len = strlen(text);
  int ok = f && fwrite(text, 1, len, f) == len;
  if (f) ok = (fclose(f) == 0) && ok;
  else close(fd);
  /* mkstemp makes the file private; a report is an ordinary file */
  if (ok) ok = chmod(tmp, 0644) == 0 || 1;
  if (!ok || rename(tmp, path) != 0) {
    snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}

/* ------------------------------------------------------------ runner */

typedef struct cprof_pipe {
  ls_compute_pipeline *pipeline;
  ls_bind_group **groups;
  size_t ngroups;
  uint32_t scale_num, scale_den; /* invocations per workgroup: case's / this run's */
} cprof_pipe;

static char *cprof_last_error;

static void cprof_on_error(void *user, ls_error_type type, const char *message) {
  free(cprof_last_error);
  cprof_last_error = strdup(message);
}

static void cprof_on_log(void *user, ls_log_level level, const char *message) {
  const case_file *c = user;
  if (level == LS_LOG_WARNING) fprintf(stderr, "%s: warning: %s\n", c->path, message);
}

static const char *cprof_err(void) { return cprof_last_error ? cprof_last_error : "(no message)"; }

static ls_compute_pipeline *cprof_pipeline(ls_device *dev, ls_shader_module *m,
                                           const case_pipeline *cp, ls_pipeline_layout *pl,
                                           const cprof_cfg *cfg, int with_override) {
  ls_constant_entry *k = calloc(cp->nconstants + 2, sizeof *k);
  if (!k) return NULL;
  size_t n = 0;
  for (size_t i = 0; i < cp->nconstants; i++)
    if (!with_override || !cfg->override_name || strcmp(cp->constants[i].key, cfg->override_name))
      k[n++] = cp->constants[i];
  if (with_override && cfg->override_name) {
    k[n].key = cfg->override_name;
    k[n++].value = cfg->override_value;
  }
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  pd.entry_point = cp->entry;
  pd.constants = k;
  pd.constant_count = n;
  pd.layout = pl;
  pd.label = cp->name;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(dev, &pd);
  free(k);
  return p;
}

static int cprof_make_pipe(ls_device *dev, const case_file *c, const case_pipeline *cp,
                           ls_shader_module *m, ls_buffer **bufs, ls_texture_view **views,
                           ls_sampler **smps, const cprof_cfg *cfg, cprof_pipe *out) {
  uint32_t ngroups = 0;
  for (size_t k = 0; k < cp->nbuffers; k++) {
    uint32_t g = c->buffers[cp->buffers[k]].group;
    if (g + 1 > ngroups) ngroups = g + 1;
  }
  if (ngroups > 64) {
    fprintf(stderr, "%s: pipelines.%s: too many bind groups\n", c->path, cp->name);
    return CP_BAD;
  }
  ls_bind_group_layout *bgls[64] = {0};
  ls_bind_group_layout_entry *le = calloc(cp->nbuffers + 1, sizeof *le);
  ls_bind_group_entry *be = calloc(cp->nbuffers + 1, sizeof *be);
  out->groups = calloc(ngroups + 1, sizeof *out->groups);
  out->ngroups = ngroups;
  int rc = le && be && out->groups ? CP_OK : CP_FAILED;
  for (uint32_t g = 0; rc == CP_OK && g < ngroups; g++) {
    size_t n = 0;
    for (size_t k = 0; k < cp->nbuffers; k++) {
      const case_buffer *b = &c->buffers[cp->buffers[k]];
      if (b->group != g) continue;
      if (b->is_texture || b->is_sampler) {
        cli_texture_layout_entry(b, &le[n]);
        memset(&be[n], 0, sizeof be[n]);
        be[n].binding = b->binding;
        if (b->is_sampler) be[n].sampler = smps[cp->buffers[k]];
        else be[n].texture_view = views[cp->buffers[k]];
        n++;
        continue;
      }
      le[n].binding = b->binding;
      le[n].type = b->kind == CASE_KIND_UNIFORM   ? LS_BINDING_UNIFORM
                   : b->kind == CASE_KIND_STORAGE ? LS_BINDING_STORAGE
                                                  : LS_BINDING_READ_ONLY_STORAGE;
      uint64_t bytes = b->words * 4;
      uint64_t off = b->has_bind_offset ? b->bind_offset : 0;
      be[n].binding = b->binding;
      be[n].buffer = bufs[cp->buffers[k]];
      be[n].offset = off;
      be[n].size = b->has_bind_size ? b->bind_size : (off <= bytes ? bytes - off : 0);
      n++;
    }
    bgls[g] = ls_device_create_bind_group_layout(dev, &(ls_bind_group_layout_desc){.entries = le, .entry_count = n});
    out->groups[g] = bgls[g] ? ls_device_create_bind_group(dev, &(ls_bind_group_desc){.layout = bgls[g], .entries = be, .entry_count = n}) : NULL;
    if (!out->groups[g]) {
      fprintf(stderr, "%s: pipelines.%s: group %u: %s\n", c->path, cp->name, g, cprof_err());
      rc = CP_BAD;
    }
  }
  ls_pipeline_layout *pl = NULL;
  /* room for any var<immediate>: the case's dispatches set what it reads */
  ls_limits lim;
  ls_device_get_limits(dev, &lim);
  if (rc == CP_OK && !(pl = ls_device_create_pipeline_layout(dev, &(ls_pipeline_layout_desc){.bind_group_layouts = bgls, .bind_group_layout_count = ngroups, .immediate_size = (uint32_t)lim.max_immediate_size}))) {
    fprintf(stderr, "%s: pipelines.%s: %s\n", c->path, cp->name, cprof_err());
    rc = CP_BAD;
  }
  if (rc == CP_OK) {
    out->pipeline = cprof_pipeline(dev, m, cp, pl, cfg, 1);
    if (!out->pipeline) {
      if (cfg->override_name)
        fprintf(stderr, "%s: pipelines.%s with %s = %g: the pipeline is rejected:\n%s\n", c->path,
                cp->name, cfg->override_name, cfg->override_value, cprof_err());
      else
        fprintf(stderr, "%s: pipelines.%s: cannot create the pipeline:\n%s\n", c->path,
                cp->name, cprof_err());
      rc = CP_BAD;
    }
  }
  out->scale_num = out->scale_den = 1;
  if (rc == CP_OK && cfg->rescale && cfg->override_name) {
    /* the case's own workgroup size, to keep its invocation count */
    ls_compute_pipeline *base = cprof_pipeline(dev, m, cp, pl, cfg, 0);
    if (base) {
      uint32_t a[3], b[3];
      ls_compute_pipeline_get_workgroup_size(base, a);
      ls_compute_pipeline_get_workgroup_size(out->pipeline, b);
      out->scale_num = a[0] * a[1] * a[2];
      out->scale_den = b[0] * b[1] * b[2];
      ls_compute_pipeline_release(base);
    }
  }
  ls_pipeline_layout_release(pl);
  for (uint32_t g = 0; g < ngroups; g++) ls_bind_group_layout_release(bgls[g]);
  free(le);
  free(be);
  return rc;
}

void cprof_run_free(const case_file *c, cprof_run *r) {
  for (size_t i = 0; r->words && i < c->nreadback; i++) free(r->words[i]);
  free(r->words);
  ls_profiler_destroy(r->prof);
  ls_device_release(r->device);
  ls_adapter_release(r->adapter);
  memset(r, 0, sizeof *r);
}

int cprof_run_case(const case_file *c, const cprof_cfg *cfg, cprof_run *out) {
  memset(out, 0, sizeof *out);
  int rc = CP_BAD;
  char err[1024];
  ls_adapter_options ao;
  memset(&ao, 0, sizeof ao);
  ao.struct_size = sizeof ao;
  ao.profile = cfg->profile ? cfg->profile : c->profile;
  ao.subgroup_size = cfg->subgroup ? cfg->subgroup : (cfg->profile ? 0 : c->subgroup_size);
  ao.threads = cfg->threads;
  ao.instruction_budget = cfg->budget;
  out->adapter = ls_adapter_create(&ao, err, sizeof err);
  if (!out->adapter) {
    fprintf(stderr, "lockstep run: %s\n", err);
    return CP_BAD;
  }
  ls_adapter_info info;
  ls_adapter_get_info(out->adapter, &info);
  out->profile_name = info.profile;
  ls_status status;
  ls_device_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.struct_size = sizeof dd;
  dd.required_limits = c->limits;
  dd.required_limit_count = c->nlimits;
  dd.required_features = (const char *const *)c->features;
  dd.required_feature_count = c->nfeatures;
  dd.label = c->name;
  out->device = ls_adapter_create_device(out->adapter, &dd, &status, err, sizeof err);
  if (!out->device) {
    fprintf(stderr, "%s: device (profile %s): requestDevice failed: %s\n", c->path, info.profile,
            err);
    return status == LS_OUT_OF_MEMORY ? CP_FAILED : CP_BAD;
  }
  ls_device_set_error_callback(out->device, cprof_on_error, NULL);
  ls_device_set_log_callback(out->device, cprof_on_log, (void *)c);
  out->prof = ls_profiler_attach(out->device, &cfg->popts, err, sizeof err);
  if (!out->prof) {
    fprintf(stderr, "lockstep run: %s\n", err);
    return CP_BAD;
  }
  ls_buffer **bufs = calloc(c->nbuffers + 1, sizeof *bufs);
  ls_texture **texs = calloc(c->nbuffers + 1, sizeof *texs);
  ls_texture_view **views = calloc(c->nbuffers + 1, sizeof *views);
  ls_sampler **smps = calloc(c->nbuffers + 1, sizeof *smps);
  cprof_pipe *pipes = calloc(c->npipelines + 1, sizeof *pipes);
  out->words = calloc(c->nreadback + 1, sizeof *out->words);
  ls_shader_module *mod = NULL;
  ls_command_encoder *enc = NULL;
  ls_compute_pass *pass = NULL;
  if (!bufs || !texs || !views || !smps || !pipes || !out->words) {
    fprintf(stderr, "lockstep: out of memory\n");
    rc = CP_FAILED;
    goto done;
  }
  for (size_t i = 0; i < c->nbuffers; i++) {
    const case_buffer *b = &c->buffers[i];
    if (b->is_texture) {
      if (!cli_texture_create(out->device, b, &texs[i], &views[i])) {
        fprintf(stderr, "%s: buffers[%zu] (texture '%s'): %s\n", c->path, i, b->name,
                cprof_err());
        goto done;
      }
      continue;
    }
    if (b->is_sampler) {
      if (!(smps[i] = ls_device_create_sampler(out->device, &b->smp_desc))) {
        fprintf(stderr, "%s: buffers[%zu] (sampler '%s'): %s\n", c->path, i, b->name,
                cprof_err());
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
    uint64_t bytes = b->words * 4;
    bd.size = bytes < 16 ? 16 : (bytes + 15) / 16 * 16;
    bd.label = b->name;
    bufs[i] = ls_device_create_buffer(out->device, &bd);
    if (!bufs[i] || ls_queue_write_buffer(out->device, bufs[i], 0, b->init, (size_t)bytes)) {
      fprintf(stderr, "%s: buffers[%zu]: %s\n", c->path, i, cprof_err());
      goto done;
    }
  }
  ls_shader_module_desc sd = {.code = c->shader_code, .label = c->shader_path};
  mod = ls_device_create_shader_module(out->device, &sd);
  if (!mod || !ls_shader_module_is_valid(mod)) {
    const char *t = mod ? ls_shader_module_format_messages(mod) : NULL;
    if (t && *t) fputs(t, stderr);
    fprintf(stderr, "%s: shader: %s is not valid WGSL\n", c->path, c->shader_path);
    goto done;
  }
  for (size_t i = 0; i < c->npipelines; i++) {
    int r = cprof_make_pipe(out->device, c, &c->pipelines[i], mod, bufs, views, smps, cfg, &pipes[i]);
    if (r) {
      rc = r;
      goto done;
    }
  }
  if (c->npipelines) ls_compute_pipeline_get_workgroup_size(pipes[0].pipeline, out->wg_size);
  enc = ls_device_create_command_encoder(out->device, NULL);
  pass = enc ? ls_command_encoder_begin_compute_pass(enc, NULL) : NULL;
  if (!pass) {
    fprintf(stderr, "%s: %s\n", c->path, cprof_err());
    rc = CP_FAILED;
    goto done;
  }
  for (size_t i = 0; i < c->ndispatches; i++) {
    const case_dispatch *d = &c->dispatches[i];
    const cprof_pipe *p = &pipes[d->pipeline];
    ls_compute_pass_set_pipeline(pass, p->pipeline);
    for (size_t g = 0; g < p->ngroups; g++)
      ls_compute_pass_set_bind_group(pass, (uint32_t)g, p->groups[g], NULL, 0);
    if (d->nimmediates)
      ls_compute_pass_set_immediates(pass, 0, d->immediates, d->nimmediates * 4u);
    if (d->indirect) {
      ls_compute_pass_dispatch_workgroups_indirect(pass, bufs[d->buffer], d->offset);
    } else {
      uint64_t x = d->workgroups[0];
      if (p->scale_num != p->scale_den && x)
        x = (x * p->scale_num + p->scale_den - 1) / p->scale_den;
      ls_compute_pass_dispatch_workgroups(pass, (uint32_t)(x ? x : 1), d->workgroups[1],
                                          d->workgroups[2]);
    }
    const char *problem = api_compute_pass_error(pass);
    if (problem) {
      fprintf(stderr, "%s: dispatches[%zu] (pipeline %s): %s\n", c->path, i,
              c->pipelines[d->pipeline].name, problem);
      goto done;
    }
  }
  ls_compute_pass_end(pass);
  pass = NULL;
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  enc = NULL;
  if (!cb) {
    fprintf(stderr, "%s: %s\n", c->path, cprof_err());
    goto done;
  }
  status = ls_queue_submit(out->device, &cb, 1);
  if (status != LS_OK) {
    const char *lost = ls_device_get_lost_message(out->device);
    fprintf(stderr, "%s: %s\n", c->path,
            status == LS_DEVICE_LOST && lost ? lost : cprof_err());
    rc = status == LS_VALIDATION ? CP_BAD : CP_FAILED;
    goto done;
  }
  for (size_t r = 0; r < c->nreadback; r++) {
    const case_buffer *b = &c->buffers[c->readback[r]];
    out->words[r] = malloc(b->words * 4 + 4);
    if (!out->words[r] ||
        (b->is_texture ? !cli_texture_read(out->device, b, texs[c->readback[r]], out->words[r])
                       : ls_queue_read_buffer(out->device, bufs[c->readback[r]], 0,
                                              out->words[r], (size_t)b->words * 4) != LS_OK)) {
      fprintf(stderr, "%s: readback of '%s' failed\n", c->path, b->name);
      rc = CP_FAILED;
      goto done;
    }
  }
  rc = CP_OK;
done:
  if (pass) ls_compute_pass_end(pass);
  ls_command_encoder_release(enc);
  for (size_t i = 0; pipes && i < c->npipelines; i++) {
    ls_compute_pipeline_release(pipes[i].pipeline);
    for (size_t g = 0; g < pipes[i].ngroups; g++) ls_bind_group_release(pipes[i].groups[g]);
    free(pipes[i].groups);
  }
  free(pipes);
  ls_shader_module_release(mod);
  for (size_t i = 0; bufs && i < c->nbuffers; i++) ls_buffer_release(bufs[i]);
  for (size_t i = 0; views && i < c->nbuffers; i++) ls_texture_view_release(views[i]);
  for (size_t i = 0; texs && i < c->nbuffers; i++) ls_texture_release(texs[i]);
  free(bufs);
  free(views);
  for (size_t i = 0; smps && i < c->nbuffers; i++) ls_sampler_release(smps[i]);
  free(smps);
  free(texs);
  return rc;
}

/* ------------------------------------------------------------ options */

typedef struct cprof_opts {
  const char *file, *profile, *profile_file, *expect, *json, *report;
  uint32_t subgroup, threads;
  uint64_t budget;
  int text, annotate, compare, quiet, summary;
  int trace_set;
  uint32_t trace_group[3], trace_dispatch;
} cprof_opts;

/* Options that take no value. */
static const char *const cprof_flags[] = {"--prof", "--annotate", "--compare-profiles",
                                          "--quiet", "--summary", NULL};
/* Options that send `run` here. */
static const char *const cprof_mine[] = {"--prof",          "--prof-json", "--annotate",
                                         "--report",        "--compare-profiles",
                                         "--trace-group",   "--trace-dispatch",
                                         "--profile-file",  NULL};

static int cprof_name_is(const char *arg, const char *name) {
  size_t n = strlen(name);
  return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

int cli_prof_wanted(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    for (const char *const *m = cprof_mine; *m; m++)
      if (cprof_name_is(argv[i], *m)) return 1;
  return 0;
}

static int cprof_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-') return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) return 0;
  *out = v;
  return 1;
}

static int cprof_parse(int argc, char **argv, cprof_opts *o) {
  memset(o, 0, sizeof *o);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      if (o->file) {
        fprintf(stderr, "lockstep run: unexpected argument '%s'\n", a);
        return 0;
      }
      o->file = a;
      continue;
    }
    char name[64];
    const char *eq = strchr(a, '=');
    size_t nl = eq ? (size_t)(eq - a) : strlen(a);
    if (nl >= sizeof name) nl = sizeof name - 1;
    memcpy(name, a, nl);
    name[nl] = 0;
    if (!strcmp(name, "-W")) strcpy(name, "--subgroup-size");
    int flag = 0;
    for (const char *const *f = cprof_flags; *f; f++) flag |= !strcmp(name, *f);
    if (flag) {
      if (eq) {
        fprintf(stderr, "lockstep run: %s takes no value\n", name);
        return 0;
      }
      if (!strcmp(name, "--prof")) o->text = 1;
      else if (!strcmp(name, "--annotate")) o->annotate = 1;
      else if (!strcmp(name, "--compare-profiles")) o->compare = 1;
      else if (!strcmp(name, "--quiet")) o->quiet = 1;
      else o->summary = 1;
      continue;
    }
    const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    if (!val) {
      fprintf(stderr, "lockstep run: %s needs a value\n", name);
      return 0;
    }
    uint64_t u = 0;
    if (!strcmp(name, "--profile")) o->profile = val;
    else if (!strcmp(name, "--profile-file")) o->profile_file = val;
    else if (!strcmp(name, "--expect")) o->expect = val;
    else if (!strcmp(name, "--prof-json")) o->json = val;
    else if (!strcmp(name, "--report")) o->report = val;
    else if (!strcmp(name, "--subgroup-size")) {
      if (!cprof_u64(val, &u) || (u != 8 && u != 16 && u != 32 && u != 64)) {
        fprintf(stderr, "lockstep run: subgroup size '%s' is not 8, 16, 32 or 64\n", val);
        return 0;
      }
      o->subgroup = (uint32_t)u;
    } else if (!strcmp(name, "--threads")) {
      if (!cprof_u64(val, &u) || u < 1 || u > 1024) {
        fprintf(stderr, "lockstep run: --threads '%s' is not a number from 1 to 1024\n", val);
        return 0;
      }
      o->threads = (uint32_t)u;
    } else if (!strcmp(name, "--budget")) {
      if (!strcmp(val, "none")) o->budget = UINT64_MAX;
      else if (!cprof_u64(val, &u) || u == 0) {
        fprintf(stderr, "lockstep run: --budget '%s' is not a positive number or 'none'\n", val);
        return 0;
      } else o->budget = u;
    } else if (!strcmp(name, "--trace-dispatch")) {
      if (!cprof_u64(val, &u) || u == 0 || u > UINT32_MAX) {
        fprintf(stderr, "lockstep run: --trace-dispatch '%s' is not a dispatch number (1, 2, ...)\n",
                val);
        return 0;
      }
      o->trace_dispatch = (uint32_t)(u - 1);
    } else if (!strcmp(name, "--trace-group")) {
      unsigned x = 0, y = 0, z = 0;
      char extra;
      int n = sscanf(val, "%u,%u,%u%c", &x, &y, &z, &extra);
      if (n < 1 || n > 3 || strspn(val, "0123456789,") != strlen(val)) {
        fprintf(stderr, "lockstep run: --trace-group '%s' is not X[,Y[,Z]]\n", val);
        return 0;
      }
      o->trace_group[0] = x;
      o->trace_group[1] = y;
      o->trace_group[2] = z;
      o->trace_set = 1;
    } else {
      fprintf(stderr, "lockstep run: unknown option '%s' (see lockstep --help)\n", a);
      return 0;
    }
  }
  if (!o->file) {
    fprintf(stderr, "usage: lockstep run CASE.json --prof [options] (see lockstep --help)\n");
    return 0;
  }
  return 1;
}

/* --profile-file: a JSON object with a built-in "base" and the figures it
 * changes; impossible figures are refused (ls_profile_check). */
static int cprof_load_profile(const char *path, ls_profile_desc *pd, const char **base) {
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
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
    size_t k = 0;
    while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k].key, key)) k++;
    if (k == sizeof keys / sizeof keys[0]) {
      fprintf(stderr, "%s: unknown field '%s' (base, name, subgroupSize, subgroupMinSize, "
                      "subgroupMaxSize, sectorBytes, lineBytes, banks, bankBytes, textureTileBytes)\n",
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

void cprof_sum_of(const ls_profiler *p, cprof_sum *t) {
  memset(t, 0, sizeof *t);
  uint64_t alloc = 0, idle = 0, live = 0, ub = 0;
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
  for (size_t i = 0; i < c->nbuffers; i++)
    if (c->buffers[i].is_texture || c->buffers[i].is_sampler) return 1;
  return 0;
}

static int cprof_compare(const case_file *c, const cprof_opts *o) {
  printf("%s: the same case under every vendor profile\n", c->name);
  const int tex = cprof_case_has_textures(c);
  printf("%-8s %3s %7s %7s %9s %11s %9s %7s %9s %12s %12s", "profile", "W", "idle", "SIMT",
         "divergent", "loop spread", "sect/req", "mem eff", "bank deg.", "issued", "cost");
  printf(tex ? " %9s\n" : "\n", "tiles/req");
  int rc = CP_OK;
  for (const char *const *n = ls_profile_names(); *n; n++) {
    cprof_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.profile = *n;
    cfg.threads = o->threads;
    cfg.budget = o->budget;
    cfg.popts.struct_size = sizeof cfg.popts;
    cprof_run r;
    fflush(stdout);
    int e = cprof_run_case(c, &cfg, &r);
    if (e) {
      printf("%-8s  (did not run: see the message above)\n", *n);
      if (rc == CP_OK) rc = e;
      cprof_run_free(c, &r);
      continue;
    }
    cprof_sum t;
    cprof_sum_of(r.prof, &t);
    printf("%-8s %3u %6.1f%% %6.1f%% %9llu %11.2f %9.2f %6.1f%% %9.2f %12llu %12.0f", *n,
           t.width, 100.0 * t.idle, 100.0 * t.simt, (unsigned long long)t.divergent,
           t.loop_spread, t.sect_per_req, 100.0 * t.mem_eff, t.bank_degree,
           (unsigned long long)t.issued, t.cost);
    if (tex) printf(" %9.2f", t.tiles_per_req);
    printf("\n");
    cprof_run_free(c, &r);
  }
  printf("(idle: lanes allocated but holding no invocation; SIMT: live lanes / (issued x W);\n"
         " loop spread: longest minus average lane trips, worst subgroup; sect/req: sectors per\n"
         " buffer request; bank deg.: average worst-bank degree of workgroup accesses; cost:\n"
         " issue slots = issued + sectors + %sbank replays%s; see docs/profiler.md)\n",
         tex ? "texture tiles + " : "", tex ? "; tiles/req: texture tiles per texel request" : "");
  return rc;
}

/* ---------------------------------------------------------------- run */

int cli_prof_run(int argc, char **argv) {
  cprof_opts o;
  if (!cprof_parse(argc, argv, &o)) return CP_BAD;
  char err[2048];
  /* every output path is checked before anything runs */
  const char *outs[2] = {o.json, o.report};
  for (int i = 0; i < 2; i++)
    if (outs[i] && strcmp(outs[i], "-") && cprof_check_writable(outs[i], err, sizeof err)) {
      fprintf(stderr, "lockstep run: %s\n", err);
      return CP_BAD;
    }
  ls_profile_desc custom;
  memset(&custom, 0, sizeof custom);
  custom.struct_size = sizeof custom;
  const char *base = NULL;
  if (o.profile_file) {
    if (o.profile) {
      fprintf(stderr, "lockstep run: --profile and --profile-file exclude each other\n");
      return CP_BAD;
    }
    if (!cprof_load_profile(o.profile_file, &custom, &base)) {
      free((char *)custom.name);
      free((char *)base);
      return CP_BAD;
    }
  }
  case_file c;
  if (case_load(o.file, &c, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    free((char *)custom.name);
    free((char *)base);
    return CP_BAD;
  }
  int rc;
  if (o.compare) {
    rc = cprof_compare(&c, &o);
    case_free(&c);
    free((char *)custom.name);
    free((char *)base);
    return rc;
  }
  cprof_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.profile = o.profile_file ? base : o.profile;
  cfg.subgroup = o.profile_file ? custom.subgroup_size : o.subgroup;
  cfg.threads = o.threads;
  cfg.budget = o.budget;
  cfg.popts.struct_size = sizeof cfg.popts;
  if (o.profile_file) {
    cfg.popts.memory.sector_bytes = custom.sector_bytes;
    cfg.popts.memory.line_bytes = custom.line_bytes;
    cfg.popts.memory.banks = custom.banks;
    cfg.popts.memory.bank_bytes = custom.bank_bytes;
    cfg.popts.memory.tile_bytes = custom.tile_bytes;
  }
  cfg.popts.trace = o.report != NULL;
  cfg.popts.trace_dispatch = o.trace_dispatch;
  memcpy(cfg.popts.trace_group, o.trace_group, sizeof o.trace_group);
  if (o.summary) printf("%s: %s\n", c.name, c.title ? c.title : "(no title)");
  cprof_run r;
  rc = cprof_run_case(&c, &cfg, &r);
  const char *pname = o.profile_file ? custom.name : r.profile_name;
  if (rc == CP_OK && !o.text && !o.json && !o.annotate && !o.report) o.text = 1;
  if (rc == CP_OK && o.text) {
    char *t = ls_profiler_report_text(r.prof, pname);
    if (t) fputs(t, stdout);
    ls_free(t);
  }
  if (rc == CP_OK && o.annotate) {
    for (size_t i = 0; i < ls_profiler_dispatch_count(r.prof); i++) {
      char *t = ls_profiler_annotate(r.prof, i);
      if (t) printf("%s\n", t);
      ls_free(t);
    }
  }
  if (rc == CP_OK && o.json) {
    char *t = ls_profiler_report_json(r.prof, pname);
    if (!t || cprof_write_file(o.json, t, err, sizeof err)) {
      fprintf(stderr, "lockstep run: %s\n", t ? err : "out of memory");
      rc = t ? CP_BAD : CP_FAILED;
    }
    ls_free(t);
  }
  if (rc == CP_OK && o.report) {
    const ls_prof_dispatch *td = ls_profiler_dispatch(r.prof, o.trace_dispatch);
    if (!td) {
      fprintf(stderr, "lockstep run: --trace-dispatch %u: the case ran %zu dispatch(es)\n",
              o.trace_dispatch + 1, ls_profiler_dispatch_count(r.prof));
      rc = CP_BAD;
    } else if (!td->trace) {
      fprintf(stderr,
              "lockstep run: --trace-group %u,%u,%u is not a workgroup of dispatch %u (%u x %u x "
              "%u workgroups)\n",
              o.trace_group[0], o.trace_group[1], o.trace_group[2], o.trace_dispatch + 1,
              td->groups[0], td->groups[1], td->groups[2]);
      rc = CP_BAD;
    } else {
      char *t = ls_profiler_report_html(r.prof, pname, c.title ? c.title : c.name);
      if (!t || cprof_write_file(o.report, t, err, sizeof err)) {
        fprintf(stderr, "lockstep run: %s\n", t ? err : "out of memory");
        rc = t ? CP_BAD : CP_FAILED;
      }
      ls_free(t);
    }
  }
  if (rc == CP_OK && o.expect) rc = result_expect(&c, r.words, o.expect);
  cprof_run_free(&c, &r);
  case_free(&c);
  free((char *)custom.name);
  free((char *)base);
  free(cprof_last_error);
  cprof_last_error = NULL;
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
          "      --profile-file FILE    a custom profile: {\"base\": \"nvidia\", \"subgroupSize\": 16, ...}\n"
          "  tune CASE.json --override NAME=V1,V2,... [--profile NAME]...\n"
          "                            run with each value under each vendor profile, ranked by cost\n"
          "  plan N --workgroup-size S [--pattern 1d|2d|grid-stride] [--profile NAME] [--width W]\n"
          "                            dispatch size and WGSL index for N elements\n");
}
