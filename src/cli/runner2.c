/*
 * runner2.c — the replay of a version-2 case (case2.h) for the case
 * runner (runner.h), on the public API alone: every module, buffer,
 * texture, sampler, layout, pipeline and bind group of the plan is created
 * in that order, then the commands run in order. Encoded commands go into
 * one command encoder until a submit (dispatches with nothing between them
 * share a compute pass); writes go to the queue at once, as WebGPU's
 * queue.writeBuffer does; a readback submits what was encoded and reads the
 * range into the runner's words. Messages name the case file and the
 * object or command (`commands[4] (copyBufferToBuffer): ...`), and the run
 * stops with an exit status of cli_exit.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case2.h"
#include "runner.h"

typedef struct runner2 {
  ls_shader_module **modules;
  ls_buffer **bufs;
  ls_texture **texs;
  ls_sampler **samplers;
  ls_bind_group_layout **layouts;
  ls_pipeline_layout **playouts;
  runner_pipe *pipes; /* pipeline and the tune scale; no groups */
  ls_bind_group **groups;
  ls_texture_view **views; /* one per texture entry of every bind group */
  size_t nviews;
  ls_command_encoder *enc;
  ls_compute_pass *pass;
  size_t first_cmd; /* the first command in the open encoder */
} runner2;

static const char *const r2_op_names[] = {
    "writeBuffer",         "writeTexture",        "dispatch",
    "dispatchIndirect",    "copyBufferToBuffer",  "copyBufferToTexture",
    "copyTextureToBuffer", "copyTextureToTexture", "clearBuffer",
    "submit",              "readback"};

/* ---------------------------------------------------------------- objects */

static int r2_modules(runner *r, runner2 *q, const case2_plan *p) {
  for (size_t i = 0; i < p->nmodules; i++) {
    const case2_module *m = &p->modules[i];
    const ls_shader_module_desc sd = {.code = m->code ? m->code : "", .label = m->label};
    if (!(q->modules[i] = ls_device_create_shader_module(r->device, &sd))) {
      fprintf(stderr, "%s: modules.%s: %s\n", r->c->path, m->name, runner_err(r));
      return CLI_FAILED;
    }
    const int valid = ls_shader_module_is_valid(q->modules[i]);
    if (r->cfg->messages || !valid) {
      const char *text = ls_shader_module_format_messages(q->modules[i]);
      if (text && *text) fputs(text, stderr);
    }
    if (!valid) {
      fprintf(stderr, "%s: modules.%s: %s is not valid WGSL\n", r->c->path, m->name, m->label);
      return CLI_BAD_INPUT;
    }
  }
  return CLI_OK;
}

static int r2_resources(runner *r, runner2 *q, const case2_plan *p) {
  const char *path = r->c->path;
  for (size_t i = 0; i < p->nbuffers; i++) {
    const case2_buffer *b = &p->buffers[i];
    const ls_buffer_desc bd = {.struct_size = sizeof bd,
                               .size = b->size,
                               .usage = b->usage,
                               .label = b->label ? b->label : b->name,
                               .mapped_at_creation = b->init != NULL};
    if (!(q->bufs[i] = ls_device_create_buffer(r->device, &bd))) {
      fprintf(stderr, "%s: buffers.%s: %s\n", path, b->name, runner_err(r));
      return runner_refused(r);
    }
    if (b->init) {
      /* contents at creation, whatever the usage (as a capture saw them) */
      char err[256];
      void *dst = ls_buffer_get_mapped_range(q->bufs[i], 0, b->size, err, sizeof err);
      if (!dst) {
        fprintf(stderr, "%s: buffers.%s: %s\n", path, b->name, err);
        return CLI_FAILED;
      }
      memcpy(dst, b->init, (size_t)b->size);
      ls_buffer_unmap(q->bufs[i]);
    }
  }
  for (size_t i = 0; i < p->ntextures; i++) {
    const case2_texture *t = &p->textures[i];
    if (!(q->texs[i] = ls_device_create_texture(r->device, &t->desc))) {
      fprintf(stderr, "%s: textures.%s: %s\n", path, t->name, runner_err(r));
      return runner_refused(r);
    }
    if (!t->init) continue;
    const ls_texel_copy_texture_info dst = {q->texs[i], 0, {0, 0, 0}, LS_ASPECT_ALL};
    const ls_extent3d e = t->desc.size;
    const ls_texel_copy_buffer_layout lay = {
        0, e.width * ls_texture_format_texel_bytes(t->desc.format), e.height};
    if (ls_queue_write_texture(r->device, &dst, t->init, t->init_bytes, &lay, &e) != LS_OK) {
      fprintf(stderr, "%s: textures.%s.init: %s\n", path, t->name, runner_err(r));
      return runner_refused(r);
    }
  }
  for (size_t i = 0; i < p->nsamplers; i++)
    if (!(q->samplers[i] = ls_device_create_sampler(r->device, &p->samplers[i].desc))) {
      fprintf(stderr, "%s: samplers.%s: %s\n", path, p->samplers[i].name, runner_err(r));
      return runner_refused(r);
    }
  if (r->cfg->check && ls_device_enable_checks(r->device, 1, r->cfg->check) != LS_OK) {
    fprintf(stderr, "lockstep: out of memory for the sanitizer\n");
    return CLI_FAILED;
  }
  return CLI_OK;
}

static int r2_layouts(runner *r, runner2 *q, const case2_plan *p) {
  for (size_t i = 0; i < p->nlayouts; i++) {
    const ls_bind_group_layout_desc ld = {.struct_size = sizeof ld,
                                          .entries = p->layouts[i].entries,
                                          .entry_count = p->layouts[i].nentries,
                                          .label = p->layouts[i].name};
    if (!(q->layouts[i] = ls_device_create_bind_group_layout(r->device, &ld))) {
      fprintf(stderr, "%s: bindGroupLayouts.%s: %s\n", r->c->path, p->layouts[i].name,
              runner_err(r));
      return runner_refused(r);
    }
  }
  for (size_t i = 0; i < p->nplayouts; i++) {
    const case2_playout *pl = &p->playouts[i];
    ls_bind_group_layout *bgls[64] = {NULL};
    for (size_t g = 0; g < pl->ngroups; g++)
      bgls[g] = pl->groups[g] == CASE2_NONE ? NULL : q->layouts[pl->groups[g]];
    const ls_pipeline_layout_desc pd = {.struct_size = sizeof pd,
                                        .bind_group_layouts = bgls,
                                        .bind_group_layout_count = pl->ngroups,
                                        .immediate_size = pl->immediate_size,
                                        .label = pl->name};
    if (!(q->playouts[i] = ls_device_create_pipeline_layout(r->device, &pd))) {
      fprintf(stderr, "%s: pipelineLayouts.%s: %s\n", r->c->path, pl->name, runner_err(r));
      return runner_refused(r);
    }
  }
  return CLI_OK;
}

/* Pipeline i, with tune's override when its module declares it. */
static ls_compute_pipeline *r2_pipeline(runner *r, runner2 *q, const case2_plan *p, size_t i,
                                        int with_override) {
  const case2_pipeline *cp = &p->pipelines[i];
  const runner_cfg *cfg = r->cfg;
  ls_constant_entry *k = calloc(cp->nconstants + 2, sizeof *k);
  if (!k) return NULL;
  size_t n = 0;
  const int over = with_override && cfg->override_name &&
                   case2_declares_override(p->modules[cp->module].code, cfg->override_name);
  for (size_t j = 0; j < cp->nconstants; j++)
    if (!over || strcmp(cp->constants[j].key, cfg->override_name)) k[n++] = cp->constants[j];
  if (over) k[n++] = (ls_constant_entry){.key = cfg->override_name, .value = cfg->override_value};
  const ls_compute_pipeline_desc pd = {
      .struct_size = sizeof pd,
      .module = q->modules[cp->module],
      .entry_point = cp->entry,
      .constants = k,
      .constant_count = n,
      .layout = cp->layout == CASE2_NONE ? NULL : q->playouts[cp->layout],
      .label = cp->name};
  ls_compute_pipeline *pipe = ls_device_create_compute_pipeline(r->device, &pd);
  free(k);
  return pipe;
}

static int r2_pipelines(runner *r, runner2 *q, const case2_plan *p) {
  const runner_cfg *cfg = r->cfg;
  int have_wg = 0;
  for (size_t i = 0; i < p->npipelines; i++) {
    runner_pipe *rp = &q->pipes[i];
    rp->scale_num = rp->scale_den = 1;
    if (!(rp->pipeline = r2_pipeline(r, q, p, i, 1))) {
      if (cfg->override_name)
        fprintf(stderr, "%s: pipelines.%s with %s = %g: the pipeline is rejected:\n%s\n",
                r->c->path, p->pipelines[i].name, cfg->override_name, cfg->override_value,
                runner_err(r));
      else
        fprintf(stderr, "%s: pipelines.%s: cannot create the pipeline:\n%s\n", r->c->path,
                p->pipelines[i].name, runner_err(r));
      return runner_refused(r);
    }
    const int over = cfg->override_name &&
                     case2_declares_override(p->modules[p->pipelines[i].module].code,
                                             cfg->override_name);
    if (over && cfg->rescale) {
      /* the case's own workgroup size, to keep its invocation count */
      ls_compute_pipeline *base = r2_pipeline(r, q, p, i, 0);
      if (base) {
        uint32_t a[3], b[3];
        ls_compute_pipeline_get_workgroup_size(base, a);
        ls_compute_pipeline_get_workgroup_size(rp->pipeline, b);
        rp->scale_num = a[0] * a[1] * a[2];
        rp->scale_den = b[0] * b[1] * b[2];
        ls_compute_pipeline_release(base);
      }
    }
    /* tune's table shows the first pipeline the override reaches */
    if (!have_wg || (over && have_wg == 1)) {
      ls_compute_pipeline_get_workgroup_size(rp->pipeline, r->wg_size);
      have_wg = over ? 2 : 1;
    }
  }
  return CLI_OK;
}

static int r2_groups(runner *r, runner2 *q, const case2_plan *p) {
  for (size_t i = 0; i < p->ngroups; i++) {
    const case2_group *g = &p->groups[i];
    ls_bind_group_entry *be = calloc(g->nentries + 1, sizeof *be);
    if (!be) {
      fprintf(stderr, "lockstep: out of memory\n");
      return CLI_FAILED;
    }
    int rc = CLI_OK;
    for (size_t k = 0; rc == CLI_OK && k < g->nentries; k++) {
      const case2_entry *e = &g->entries[k];
      be[k].binding = e->binding;
      if (e->res == CASE2_RES_BUFFER) {
        be[k].buffer = q->bufs[e->obj];
        be[k].offset = e->offset;
        be[k].size = e->size;
      } else if (e->res == CASE2_RES_SAMPLER) {
        be[k].sampler = q->samplers[e->obj];
      } else {
        ls_texture_view *v = ls_texture_create_view(q->texs[e->obj], e->has_view ? &e->view : NULL);
        if (!v) {
          fprintf(stderr, "%s: bindGroups.%s.entries[%zu].view: %s\n", r->c->path, g->name, k,
                  runner_err(r));
          rc = runner_refused(r);
        }
        q->views[q->nviews++] = be[k].texture_view = v;
      }
    }
    ls_bind_group_layout *own = NULL;
    if (rc == CLI_OK && g->from_pipeline &&
        !(own = ls_compute_pipeline_get_bind_group_layout(q->pipes[g->layout].pipeline, g->group))) {
      fprintf(stderr, "%s: bindGroups.%s.layout: %s\n", r->c->path, g->name, runner_err(r));
      rc = runner_refused(r);
    }
    const ls_bind_group_desc gd = {.struct_size = sizeof gd,
                                   .layout = g->from_pipeline ? own : q->layouts[g->layout],
                                   .entries = be,
                                   .entry_count = g->nentries,
                                   .label = g->name};
    if (rc == CLI_OK && !(q->groups[i] = ls_device_create_bind_group(r->device, &gd))) {
      fprintf(stderr, "%s: bindGroups.%s: %s\n", r->c->path, g->name, runner_err(r));
      rc = runner_refused(r);
    }
    ls_bind_group_layout_release(own);
    free(be);
    if (rc) return rc;
  }
  return CLI_OK;
}

/* --------------------------------------------------------------- commands */

static void r2_end_pass(runner2 *q) {
  if (!q->pass) return;
  ls_compute_pass_end(q->pass);
  ls_compute_pass_release(q->pass);
  q->pass = NULL;
}

static int r2_encoder(runner *r, runner2 *q, size_t i) {
  if (q->enc) return CLI_OK;
  q->first_cmd = i;
  if (!(q->enc = ls_device_create_command_encoder(r->device, NULL))) {
    fprintf(stderr, "%s: commands[%zu]: %s\n", r->c->path, i, runner_err(r));
    return CLI_FAILED;
  }
  return CLI_OK;
}

/* Submits what was encoded since the last submit (nothing when nothing
 * was); i: the command that ends the command buffer, for messages. */
static int r2_flush(runner *r, runner2 *q, size_t i) {
  if (!q->enc) return CLI_OK;
  r2_end_pass(q);
  ls_command_buffer *cb = ls_command_encoder_finish(q->enc, NULL);
  ls_command_encoder_release(q->enc);
  q->enc = NULL;
  if (!cb) {
    fprintf(stderr, "%s: commands[%zu..%zu] (the command buffer ending there): %s\n", r->c->path,
            q->first_cmd, i, runner_err(r));
    return runner_refused(r);
  }
  ls_status status = ls_queue_submit(r->device, &cb, 1);
  ls_command_buffer_release(cb);
  return runner_submitted(r, status);
}

static int r2_dispatch(runner *r, runner2 *q, const case2_plan *p, size_t i) {
  const case2_cmd *d = &p->cmds[i];
  int rc = r2_encoder(r, q, i);
  if (rc) return rc;
  if (!q->pass && !(q->pass = ls_command_encoder_begin_compute_pass(q->enc, NULL))) {
    fprintf(stderr, "%s: commands[%zu]: %s\n", r->c->path, i, runner_err(r));
    return CLI_FAILED;
  }
  const runner_pipe *rp = &q->pipes[d->pipeline];
  ls_compute_pass_set_pipeline(q->pass, rp->pipeline);
  for (size_t k = 0; k < d->nsets; k++)
    ls_compute_pass_set_bind_group(q->pass, d->sets[k].group, q->groups[d->sets[k].bind_group],
                                   d->sets[k].offsets, d->sets[k].noffsets);
  if (d->nimmediates)
    ls_compute_pass_set_immediates(q->pass, 0, d->immediates, d->nimmediates * 4u);
  if (d->op == CASE2_DISPATCH_INDIRECT) {
    ls_compute_pass_dispatch_workgroups_indirect(q->pass, q->bufs[d->buffer], d->offset);
  } else {
    uint64_t x = d->workgroups[0];
    if (rp->scale_num != rp->scale_den && x) {
      x = (x * rp->scale_num + rp->scale_den - 1) / rp->scale_den;
      if (!x) x = 1;
    }
    ls_compute_pass_dispatch_workgroups(q->pass, (uint32_t)x, d->workgroups[1], d->workgroups[2]);
  }
  const char *problem = ls_compute_pass_get_error(q->pass);
  if (problem) {
    fprintf(stderr, "%s: commands[%zu] (%s of pipeline %s): %s\n", r->c->path, i,
            r2_op_names[d->op], p->pipelines[d->pipeline].name, problem);
    return CLI_BAD_INPUT;
  }
  return CLI_OK;
}

static int r2_encode(runner *r, runner2 *q, const case2_plan *p, size_t i) {
  const case2_cmd *d = &p->cmds[i];
  int rc = r2_encoder(r, q, i);
  if (rc) return rc;
  r2_end_pass(q);
  switch (d->op) {
  case CASE2_COPY_B2B:
    ls_command_encoder_copy_buffer_to_buffer(q->enc, q->bufs[d->buffer], d->offset,
                                             q->bufs[d->dst], d->dst_offset, d->size);
    break;
  case CASE2_CLEAR:
    ls_command_encoder_clear_buffer(q->enc, q->bufs[d->buffer], d->offset, d->size);
    break;
  case CASE2_COPY_B2T: {
    const ls_texel_copy_texture_info dst = {q->texs[d->dst_t.obj], d->dst_t.mip_level,
                                            d->dst_t.origin, d->dst_t.aspect};
    ls_command_encoder_copy_buffer_to_texture(q->enc, q->bufs[d->src_t.obj], &d->src_t.layout,
                                              &dst, &d->extent);
    break;
  }
  case CASE2_COPY_T2B: {
    const ls_texel_copy_texture_info src = {q->texs[d->src_t.obj], d->src_t.mip_level,
                                            d->src_t.origin, d->src_t.aspect};
    ls_command_encoder_copy_texture_to_buffer(q->enc, &src, q->bufs[d->dst_t.obj],
                                              &d->dst_t.layout, &d->extent);
    break;
  }
  default: {
    const ls_texel_copy_texture_info src = {q->texs[d->src_t.obj], d->src_t.mip_level,
                                            d->src_t.origin, d->src_t.aspect};
    const ls_texel_copy_texture_info dst = {q->texs[d->dst_t.obj], d->dst_t.mip_level,
                                            d->dst_t.origin, d->dst_t.aspect};
    ls_command_encoder_copy_texture_to_texture(q->enc, &src, &dst, &d->extent);
  }
  }
  return CLI_OK;
}

static int r2_readback(runner *r, runner2 *q, const case2_plan *p, size_t i) {
  const case2_cmd *d = &p->cmds[i];
  int rc = r2_flush(r, q, i);
  if (rc) return rc;
  size_t k = d->readback; /* readback[k] == k */
  uint32_t *w = r->words[k] = malloc((size_t)d->size + 4);
  if (!w) {
    fprintf(stderr, "lockstep: out of memory\n");
    return CLI_FAILED;
  }
  /* the parser checked the usage: a copy, or a map of a map-read buffer */
  ls_buffer *b = q->bufs[d->buffer];
  const ls_status s = ls_buffer_get_usage(b) & LS_BUFFER_USAGE_COPY_SRC
                          ? ls_queue_read_buffer(r->device, b, d->offset, w, (size_t)d->size)
                          : ls_buffer_map_read(r->device, b, d->offset, w, (size_t)d->size);
  if (s != LS_OK) {
    fprintf(stderr, "%s: commands[%zu] (readback): %s\n", r->c->path, i, runner_err(r));
    return s == LS_VALIDATION ? CLI_BAD_INPUT : CLI_FAILED;
  }
  return CLI_OK;
}

static int r2_commands(runner *r, runner2 *q, const case2_plan *p) {
  int rc = CLI_OK;
  for (size_t i = 0; rc == CLI_OK && i < p->ncmds; i++) {
    const case2_cmd *d = &p->cmds[i];
    ls_status s = LS_OK;
    switch (d->op) {
    case CASE2_WRITE_BUFFER:
      s = ls_queue_write_buffer(r->device, q->bufs[d->buffer], d->offset, d->data,
                                (size_t)d->size);
      break;
    case CASE2_WRITE_TEXTURE: {
      const ls_texel_copy_texture_info dst = {q->texs[d->dst_t.obj], d->dst_t.mip_level,
                                              d->dst_t.origin, d->dst_t.aspect};
      s = ls_queue_write_texture(r->device, &dst, d->data, (size_t)d->size, &d->dst_t.layout,
                                 &d->extent);
      break;
    }
    case CASE2_DISPATCH:
    case CASE2_DISPATCH_INDIRECT:
      rc = r2_dispatch(r, q, p, i);
      break;
    case CASE2_SUBMIT:
      rc = r2_flush(r, q, i);
      break;
    case CASE2_READBACK:
      rc = r2_readback(r, q, p, i);
      break;
    default:
      rc = r2_encode(r, q, p, i);
    }
    if (s != LS_OK) {
      fprintf(stderr, "%s: commands[%zu] (%s): %s\n", r->c->path, i, r2_op_names[d->op],
              runner_err(r));
      rc = s == LS_OUT_OF_MEMORY ? CLI_FAILED : runner_refused(r);
    }
  }
  if (rc == CLI_OK) rc = r2_flush(r, q, p->ncmds ? p->ncmds - 1 : 0);
  return rc;
}

/* ------------------------------------------------------------------ run */

int runner2_run(runner *r) {
  const case2_plan *p = r->c->plan;
  runner2 *q = r->v2 = calloc(1, sizeof *q);
  size_t nviews = 0;
  for (size_t i = 0; i < p->ngroups; i++) nviews += p->groups[i].nentries;
  if (!q || !(q->modules = calloc(p->nmodules + 1, sizeof *q->modules)) ||
      !(q->bufs = calloc(p->nbuffers + 1, sizeof *q->bufs)) ||
      !(q->texs = calloc(p->ntextures + 1, sizeof *q->texs)) ||
      !(q->samplers = calloc(p->nsamplers + 1, sizeof *q->samplers)) ||
      !(q->layouts = calloc(p->nlayouts + 1, sizeof *q->layouts)) ||
      !(q->playouts = calloc(p->nplayouts + 1, sizeof *q->playouts)) ||
      !(q->pipes = calloc(p->npipelines + 1, sizeof *q->pipes)) ||
      !(q->groups = calloc(p->ngroups + 1, sizeof *q->groups)) ||
      !(q->views = calloc(nviews + 1, sizeof *q->views)) ||
      !(r->words = calloc(r->c->nreadback + 1, sizeof *r->words))) {
    fprintf(stderr, "lockstep: out of memory\n");
    return CLI_FAILED;
  }
  int rc;
  if ((rc = r2_modules(r, q, p)) || (rc = r2_resources(r, q, p)) || (rc = r2_layouts(r, q, p)) ||
      (rc = r2_pipelines(r, q, p)) || (rc = r2_groups(r, q, p)))
    return rc;
  return r2_commands(r, q, p);
}

void runner2_free(runner *r) {
  runner2 *q = r->v2;
  const case2_plan *p = r->c ? r->c->plan : NULL;
  if (!q || !p) return;
  r2_end_pass(q);
  ls_command_encoder_release(q->enc);
  for (size_t i = 0; q->groups && i < p->ngroups; i++) ls_bind_group_release(q->groups[i]);
  for (size_t i = 0; q->views && i < q->nviews; i++) ls_texture_view_release(q->views[i]);
  for (size_t i = 0; q->pipes && i < p->npipelines; i++)
    ls_compute_pipeline_release(q->pipes[i].pipeline);
  for (size_t i = 0; q->playouts && i < p->nplayouts; i++)
    ls_pipeline_layout_release(q->playouts[i]);
  for (size_t i = 0; q->layouts && i < p->nlayouts; i++)
    ls_bind_group_layout_release(q->layouts[i]);
  for (size_t i = 0; q->samplers && i < p->nsamplers; i++) ls_sampler_release(q->samplers[i]);
  for (size_t i = 0; q->texs && i < p->ntextures; i++) ls_texture_release(q->texs[i]);
  for (size_t i = 0; q->bufs && i < p->nbuffers; i++) ls_buffer_release(q->bufs[i]);
  for (size_t i = 0; q->modules && i < p->nmodules; i++) ls_shader_module_release(q->modules[i]);
  free(q->groups);
  free(q->views);
  free(q->pipes);
  free(q->playouts);
  free(q->layouts);
  free(q->samplers);
  free(q->texs);
  free(q->bufs);
  free(q->modules);
  free(q);
  r->v2 = NULL;
}
