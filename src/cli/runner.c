/*
 * runner.c — the case runner of runner.h: a case file in, the read-back
 * buffers out, on the public API (lockstep.h) alone.
 *
 * Flow: adapter (the case's "adapter" object under the options) -> device
 * (the case's required limits and features) -> observers (a profiler, the
 * sanitizer) -> buffers (rounded up to 16 bytes, as the Dawn runner
 * allocates), textures and samplers -> shader module -> one pipeline per
 * case pipeline, with one bind group layout per group from 0 to the
 * highest its buffers use and room for any var<immediate> -> one compute
 * pass with every dispatch -> submit -> read back. Each step that fails
 * prints what failed, naming the case file and the JSON entry, and the run
 * stops with its exit status (cli_exit.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_texture.h"
#include "runner.h"

/* --------------------------------------------------------------- callbacks */

static void runner_on_error(void *user, ls_error_type type, const char *message) {
  runner *r = user;
  r->last_error_type = type;
  free(r->last_error);
  r->last_error = strdup(message);
}

static void runner_on_log(void *user, ls_log_level level, const char *message) {
  runner *r = user;
  fflush(stdout); /* keep the dispatch lines and the warnings in order */
  if (level == LS_LOG_WARNING)
    fprintf(stderr, "%s: warning: %s\n", r->c->path, message);
  else if (!r->cfg->quiet)
    fprintf(stderr, "%s: %s\n", r->c->path, message);
}

static void runner_on_dispatch(void *user, const ls_dispatch_info *in) {
  runner *r = user;
  r->dispatch_index++;
  const char *name = in->pipeline_label ? in->pipeline_label : in->entry_point;
  printf("dispatch %zu/%zu %s: %s%u x %u x %u workgroups", r->dispatch_index,
         r->c->ndispatches, name, in->indirect ? "indirect " : "", in->groups[0],
         in->groups[1], in->groups[2]);
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

const char *runner_err(const runner *r) {
  return r->last_error ? r->last_error : "(no message)";
}

/* The exit status of a step the device refused: its last error was memory
 * running out (the run failed) or the case asking for something invalid. */
int runner_refused(const runner *r) {
  return r->last_error_type == LS_ERROR_OUT_OF_MEMORY ? CLI_FAILED : CLI_BAD_INPUT;
}

/* ------------------------------------------------------------------ device */

static int runner_device(runner *r) {
  const case_file *c = r->c;
  const runner_cfg *cfg = r->cfg;
  const char *profile = cfg->profile;
  uint32_t subgroup = cfg->subgroup;
  char where[512];
  snprintf(where, sizeof where, "lockstep run");
  if (!cfg->own_adapter) {
    /* options override the case's "adapter" object; messages say which */
    if ((!profile && c->profile) || (!subgroup && c->subgroup_size))
      snprintf(where, sizeof where, "%s: adapter", c->path);
    if (!profile) profile = c->profile;
    if (!subgroup) subgroup = c->subgroup_size;
  }
  const ls_adapter_options ao = {.struct_size = sizeof ao,
                                 .profile = profile,
                                 .subgroup_size = subgroup,
                                 .threads = cfg->threads,
                                 .instruction_budget = cfg->budget,
                                 .dispatch_instruction_budget = cfg->dispatch_budget,
                                 .time_limit_ms = cfg->time_limit_ms,
                                 .dispatch_memory_limit = cfg->memory_limit};
  char err[1024];
  r->adapter = ls_adapter_create(&ao, err, sizeof err);
  if (!r->adapter) {
    fprintf(stderr, "%s: %s\n", where, err);
    return CLI_BAD_INPUT;
  }
  ls_adapter_info info;
  ls_adapter_get_info(r->adapter, &info);
  r->profile_name = info.profile;
  const ls_device_desc dd = {.struct_size = sizeof dd,
                             .required_limits = c->limits,
                             .required_limit_count = c->nlimits,
                             .required_features = (const char *const *)c->features,
                             .required_feature_count = c->nfeatures,
                             .label = c->name};
  ls_status status;
  r->device = ls_adapter_create_device(r->adapter, &dd, &status, err, sizeof err);
  if (!r->device) {
    fprintf(stderr, "%s: device (profile %s): requestDevice failed: %s\n", c->path,
            info.profile, err);
    return status == LS_OUT_OF_MEMORY ? CLI_FAILED : CLI_BAD_INPUT;
  }
  ls_device_set_error_callback(r->device, runner_on_error, r);
  ls_device_set_log_callback(r->device, runner_on_log, r);
  if (cfg->dispatch_lines) ls_device_set_dispatch_callback(r->device, runner_on_dispatch, r);
  if (cfg->prof) {
    r->prof = ls_profiler_attach(r->device, cfg->prof, err, sizeof err);
    if (!r->prof) {
      fprintf(stderr, "lockstep run: %s\n", err);
      return CLI_BAD_INPUT;
    }
  }
  return CLI_OK;
}

/* --------------------------------------------------------------- resources */

static int runner_resources(runner *r) {
  const case_file *c = r->c;
  for (size_t i = 0; i < c->nbuffers; i++) {
    const case_buffer *b = &c->buffers[i];
    if (b->is_texture) {
      if (!cli_texture_create(r->device, b, &r->texs[i], &r->views[i])) {
        fprintf(stderr, "%s: buffers[%zu] (texture '%s'): %s\n", c->path, i, b->name,
                runner_err(r));
        return runner_refused(r);
      }
      continue;
    }
    if (b->is_sampler) {
      if (!(r->samplers[i] = ls_device_create_sampler(r->device, &b->smp_desc))) {
        fprintf(stderr, "%s: buffers[%zu] (sampler '%s'): %s\n", c->path, i, b->name,
                runner_err(r));
        return runner_refused(r);
      }
      continue;
    }
    uint32_t usage = LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_COPY_DST;
    if (b->kind == CASE_KIND_UNIFORM) usage |= LS_BUFFER_USAGE_UNIFORM;
    if (b->kind == CASE_KIND_STORAGE || b->kind == CASE_KIND_READ_ONLY_STORAGE)
      usage |= LS_BUFFER_USAGE_STORAGE;
    if (b->indirect) usage |= LS_BUFFER_USAGE_INDIRECT;
    /* rounded up to 16 bytes, as the Dawn runner allocates */
    const uint64_t bytes = b->words * 4;
    const ls_buffer_desc bd = {.size = bytes < 16 ? 16 : (bytes + 15) / 16 * 16,
                               .usage = usage,
                               .label = b->name};
    r->bufs[i] = ls_device_create_buffer(r->device, &bd);
    ls_status ws = r->bufs[i] ? ls_queue_write_buffer(r->device, r->bufs[i], 0, b->init,
                                                      (size_t)bytes)
                              : LS_VALIDATION;
    if (ws != LS_OK) {
      fprintf(stderr, "%s: buffers[%zu] ('%s'): %s\n", c->path, i, b->name, runner_err(r));
      return ws == LS_OUT_OF_MEMORY ? CLI_FAILED : runner_refused(r);
    }
  }
  if (r->cfg->check) {
    if (ls_device_enable_checks(r->device, 1, r->cfg->check) != LS_OK) {
      fprintf(stderr, "lockstep: out of memory for the sanitizer\n");
      return CLI_FAILED;
    }
    for (size_t i = 0; i < c->nbuffers; i++)
      if (c->buffers[i].has_logical_count && r->bufs[i])
        ls_buffer_set_logical_size(r->bufs[i], c->buffers[i].logical_count *
                                                   c->buffers[i].rec_len * 4);
  }
  return CLI_OK;
}

static int runner_module(runner *r) {
  const case_file *c = r->c;
  const ls_shader_module_desc sd = {.code = c->shader_code, .label = c->shader_path};
  r->module = ls_device_create_shader_module(r->device, &sd);
  if (!r->module) {
    fprintf(stderr, "%s: shader: %s\n", c->path, runner_err(r));
    return CLI_FAILED;
  }
  const int valid = ls_shader_module_is_valid(r->module);
  if (r->cfg->messages || !valid) {
    const char *text = ls_shader_module_format_messages(r->module);
    if (text && *text) fputs(text, stderr);
  }
  if (!valid) {
    fprintf(stderr, "%s: shader: %s is not valid WGSL\n", c->path, c->shader_path);
    return CLI_BAD_INPUT;
  }
  return CLI_OK;
}

/* --------------------------------------------------------------- pipelines */

/* The case pipeline's constants, with tune's override when asked. */
static ls_compute_pipeline *runner_pipeline(runner *r, const case_pipeline *cp,
                                            ls_pipeline_layout *pl, int with_override) {
  const runner_cfg *cfg = r->cfg;
  ls_constant_entry *k = calloc(cp->nconstants + 2, sizeof *k);
  if (!k) return NULL;
  size_t n = 0;
  const int over = with_override && cfg->override_name;
  for (size_t i = 0; i < cp->nconstants; i++)
    if (!over || strcmp(cp->constants[i].key, cfg->override_name)) k[n++] = cp->constants[i];
  if (over) k[n++] = (ls_constant_entry){.key = cfg->override_name, .value = cfg->override_value};
  const ls_compute_pipeline_desc pd = {.module = r->module,
                                       .entry_point = cp->entry,
                                       .constants = k,
                                       .constant_count = n,
                                       .layout = pl,
                                       .label = cp->name};
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(r->device, &pd);
  free(k);
  return p;
}

/* One bind group of case pipeline cp: its layout (into *bgl) and group. */
static int runner_group(runner *r, const case_pipeline *cp, uint32_t g,
                        ls_bind_group_layout_entry *le, ls_bind_group_entry *be,
                        ls_bind_group_layout **bgl, ls_bind_group **group) {
  const case_file *c = r->c;
  size_t n = 0;
  for (size_t k = 0; k < cp->nbuffers; k++) {
    const size_t bi = cp->buffers[k];
    const case_buffer *b = &c->buffers[bi];
    if (b->group != g) continue;
    if (b->is_texture || b->is_sampler) {
      cli_texture_layout_entry(b, &le[n]);
      be[n] = (ls_bind_group_entry){.binding = b->binding};
      if (b->is_sampler) be[n].sampler = r->samplers[bi];
      else be[n].texture_view = r->views[bi];
      n++;
      continue;
    }
    le[n] = (ls_bind_group_layout_entry){
        .binding = b->binding,
        .type = b->kind == CASE_KIND_UNIFORM   ? LS_BINDING_UNIFORM
                : b->kind == CASE_KIND_STORAGE ? LS_BINDING_STORAGE
                                               : LS_BINDING_READ_ONLY_STORAGE};
    const uint64_t bytes = b->words * 4;
    const uint64_t off = b->has_bind_offset ? b->bind_offset : 0;
    if (!b->has_bind_size && off > bytes) {
      fprintf(stderr, "%s: buffers[%zu].bindOffset: %llu is past the end of buffer '%s' (%llu "
                      "bytes)\n",
              c->path, bi, (unsigned long long)off, b->name, (unsigned long long)bytes);
      return 0;
    }
    be[n] = (ls_bind_group_entry){.binding = b->binding,
                                  .buffer = r->bufs[bi],
                                  .offset = off,
                                  .size = b->has_bind_size ? b->bind_size : bytes - off};
    n++;
  }
  const ls_bind_group_layout_desc ld = {.entries = le, .entry_count = n};
  *bgl = ls_device_create_bind_group_layout(r->device, &ld);
  const ls_bind_group_desc gd = {.layout = *bgl, .entries = be, .entry_count = n};
  *group = *bgl ? ls_device_create_bind_group(r->device, &gd) : NULL;
  if (!*group) {
    fprintf(stderr, "%s: pipelines.%s: group %u: %s\n", c->path, cp->name, g, runner_err(r));
    return 0;
  }
  return 1;
}

/* Explicit layouts as FORMAT.md says: one bind group layout per group from
 * 0 to the highest group the pipeline's buffers use. */
static int runner_make_pipe(runner *r, const case_pipeline *cp, runner_pipe *out) {
  const case_file *c = r->c;
  const runner_cfg *cfg = r->cfg;
  uint32_t ngroups = 0;
  for (size_t k = 0; k < cp->nbuffers; k++) {
    uint32_t g = c->buffers[cp->buffers[k]].group;
    if (g + 1 > ngroups) ngroups = g + 1;
  }
  ls_limits lim;
  ls_device_get_limits(r->device, &lim);
  out->scale_num = out->scale_den = 1;
  if (ngroups > lim.max_bind_groups || ngroups > 64) {
    fprintf(stderr, "%s: pipelines.%s: its buffers use @group(%u), not below maxBindGroups (%llu)\n",
            c->path, cp->name, ngroups - 1, (unsigned long long)lim.max_bind_groups);
    return CLI_BAD_INPUT;
  }
  ls_bind_group_layout *bgls[64] = {0};
  ls_bind_group_layout_entry *le = calloc(cp->nbuffers + 1, sizeof *le);
  ls_bind_group_entry *be = calloc(cp->nbuffers + 1, sizeof *be);
  out->groups = calloc(ngroups + 1, sizeof *out->groups);
  out->ngroups = ngroups;
  int rc = le && be && out->groups ? CLI_OK : CLI_FAILED;
  if (rc) fprintf(stderr, "lockstep: out of memory\n");
  for (uint32_t g = 0; rc == CLI_OK && g < ngroups; g++)
    if (!runner_group(r, cp, g, le, be, &bgls[g], &out->groups[g])) rc = runner_refused(r);
  ls_pipeline_layout *pl = NULL;
  /* room for any var<immediate>: the case's dispatches set what it reads */
  const ls_pipeline_layout_desc pld = {.bind_group_layouts = bgls,
                                       .bind_group_layout_count = ngroups,
                                       .immediate_size = (uint32_t)lim.max_immediate_size};
  if (rc == CLI_OK && !(pl = ls_device_create_pipeline_layout(r->device, &pld))) {
    fprintf(stderr, "%s: pipelines.%s: %s\n", c->path, cp->name, runner_err(r));
    rc = runner_refused(r);
  }
  if (rc == CLI_OK && !(out->pipeline = runner_pipeline(r, cp, pl, 1))) {
    if (cfg->override_name)
      fprintf(stderr, "%s: pipelines.%s with %s = %g: the pipeline is rejected:\n%s\n", c->path,
              cp->name, cfg->override_name, cfg->override_value, runner_err(r));
    else
      fprintf(stderr, "%s: pipelines.%s: cannot create the pipeline:\n%s\n", c->path, cp->name,
              runner_err(r));
    rc = runner_refused(r);
  }
  if (rc == CLI_OK && cfg->rescale && cfg->override_name) {
    /* the case's own workgroup size, to keep its invocation count */
    ls_compute_pipeline *base = runner_pipeline(r, cp, pl, 0);
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

/* ------------------------------------------------------------------- run */

/* Every dispatch in one compute pass, then submit. */
static int runner_submit(runner *r) {
  const case_file *c = r->c;
  ls_command_encoder *enc = ls_device_create_command_encoder(r->device, NULL);
  ls_compute_pass *pass = enc ? ls_command_encoder_begin_compute_pass(enc, NULL) : NULL;
  if (!pass) {
    fprintf(stderr, "%s: %s\n", c->path, runner_err(r));
    ls_command_encoder_release(enc);
    return CLI_FAILED;
  }
  for (size_t i = 0; i < c->ndispatches; i++) {
    const case_dispatch *d = &c->dispatches[i];
    const runner_pipe *p = &r->pipes[d->pipeline];
    ls_compute_pass_set_pipeline(pass, p->pipeline);
    for (size_t g = 0; g < p->ngroups; g++)
      ls_compute_pass_set_bind_group(pass, (uint32_t)g, p->groups[g], NULL, 0);
    if (d->nimmediates)
      ls_compute_pass_set_immediates(pass, 0, d->immediates, d->nimmediates * 4u);
    if (d->indirect) {
      ls_compute_pass_dispatch_workgroups_indirect(pass, r->bufs[d->buffer], d->offset);
    } else {
      uint64_t x = d->workgroups[0];
      if (p->scale_num != p->scale_den && x) {
        x = (x * p->scale_num + p->scale_den - 1) / p->scale_den;
        if (!x) x = 1;
      }
      ls_compute_pass_dispatch_workgroups(pass, (uint32_t)x, d->workgroups[1], d->workgroups[2]);
    }
    const char *problem = ls_compute_pass_get_error(pass);
    if (problem) {
      fprintf(stderr, "%s: dispatches[%zu] (pipeline %s): %s\n", c->path, i,
              c->pipelines[d->pipeline].name, problem);
      ls_compute_pass_release(pass);
      ls_command_encoder_release(enc);
      return CLI_BAD_INPUT;
    }
  }
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  if (!cb) {
    fprintf(stderr, "%s: %s\n", c->path, runner_err(r));
    return runner_refused(r);
  }
  ls_status status = ls_queue_submit(r->device, &cb, 1);
  ls_command_buffer_release(cb);
  return runner_submitted(r, status);
}

int runner_submitted(runner *r, ls_status status) {
  const case_file *c = r->c;
  if (status == LS_DEVICE_LOST) {
    const char *lost = ls_device_get_lost_message(r->device);
    fprintf(stderr, "%s: error: device lost: %s\n  (lockstep run --budget N, --dispatch-budget N "
                    "and --time-limit MS set the limits; 'none' removes them)\n",
            c->path, lost ? lost : "(no message)");
    return CLI_FAILED;
  }
  if (status != LS_OK) {
    fprintf(stderr, "%s: %s\n", c->path, runner_err(r));
    return status == LS_VALIDATION ? CLI_BAD_INPUT : CLI_FAILED;
  }
  return CLI_OK;
}

static int runner_read_back(runner *r) {
  const case_file *c = r->c;
  for (size_t k = 0; k < c->nreadback; k++) {
    const size_t bi = c->readback[k];
    const case_buffer *b = &c->buffers[bi];
    r->words[k] = malloc(b->words * 4 + 4); /* + 4: never malloc(0) */
    if (!r->words[k] ||
        (b->is_texture ? !cli_texture_read(r->device, b, r->texs[bi], r->words[k])
                       : ls_queue_read_buffer(r->device, r->bufs[bi], 0, r->words[k],
                                              (size_t)b->words * 4) != LS_OK)) {
      fprintf(stderr, "%s: readback of '%s': %s\n", c->path, b->name,
              r->words[k] ? runner_err(r) : "out of memory");
      return CLI_FAILED;
    }
  }
  return CLI_OK;
}

int runner_run(runner *r, const case_file *c, const runner_cfg *cfg) {
  memset(r, 0, sizeof *r);
  r->c = c;
  r->cfg = cfg;
  int rc = runner_device(r);
  if (rc) return rc;
  if (c->plan) return runner2_run(r);
  r->bufs = calloc(c->nbuffers + 1, sizeof *r->bufs);
  r->texs = calloc(c->nbuffers + 1, sizeof *r->texs);
  r->views = calloc(c->nbuffers + 1, sizeof *r->views);
  r->samplers = calloc(c->nbuffers + 1, sizeof *r->samplers);
  r->pipes = calloc(c->npipelines + 1, sizeof *r->pipes);
  r->words = calloc(c->nreadback + 1, sizeof *r->words);
  if (!r->bufs || !r->texs || !r->views || !r->samplers || !r->pipes || !r->words) {
    fprintf(stderr, "lockstep: out of memory\n");
    return CLI_FAILED;
  }
  if ((rc = runner_resources(r)) || (rc = runner_module(r))) return rc;
  for (size_t i = 0; i < c->npipelines; i++)
    if ((rc = runner_make_pipe(r, &c->pipelines[i], &r->pipes[i]))) return rc;
  if (c->npipelines) ls_compute_pipeline_get_workgroup_size(r->pipes[0].pipeline, r->wg_size);
  if ((rc = runner_submit(r))) return rc;
  return runner_read_back(r);
}

void runner_free(runner *r) {
  const case_file *c = r->c;
  runner2_free(r);
  for (size_t i = 0; r->pipes && i < c->npipelines; i++) {
    ls_compute_pipeline_release(r->pipes[i].pipeline);
    for (size_t g = 0; g < r->pipes[i].ngroups; g++) ls_bind_group_release(r->pipes[i].groups[g]);
    free(r->pipes[i].groups);
  }
  free(r->pipes);
  ls_shader_module_release(r->module);
  for (size_t i = 0; c && i < c->nbuffers; i++) {
    if (r->bufs) ls_buffer_release(r->bufs[i]);
    if (r->views) ls_texture_view_release(r->views[i]);
    if (r->samplers) ls_sampler_release(r->samplers[i]);
    if (r->texs) ls_texture_release(r->texs[i]);
  }
  free(r->bufs);
  free(r->views);
  free(r->samplers);
  free(r->texs);
  for (size_t k = 0; r->words && c && k < c->nreadback; k++) free(r->words[k]);
  free(r->words);
  ls_profiler_destroy(r->prof);
  ls_device_release(r->device);
  ls_adapter_release(r->adapter);
  free(r->last_error);
  memset(r, 0, sizeof *r);
}
