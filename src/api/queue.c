/*
 * queue.c — queue.submit: the end of the API flow. Runs the recorded
 * commands of encoder.c in order on the host: copies directly, dispatches
 * through the VM (vm/) with the memory of the bound buffer ranges, the
 * adapter's subgroup width and instruction budget. Indirect counts are read
 * here, at execution time, as on a GPU; counts over the limit skip the
 * dispatch (WebGPU's rule) with a warning to the log callback. A workgroup
 * running past the budget loses the device.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

static uint32_t api_read_u32le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A submit refers to buffers that may have been destroyed since encoding. */
static const ls_buffer *api_cmd_destroyed_buffer(const api_cmd *c) {
  if (c->src && c->src->destroyed) return c->src;
  if (c->dst && c->dst->destroyed) return c->dst;
  if (c->indirect && c->indirect->destroyed) return c->indirect;
  for (size_t g = 0; g < c->ngroups; g++) {
    const ls_bind_group *bg = c->groups[g];
    for (size_t i = 0; bg && i < bg->count; i++)
      if (bg->entries[i].buffer && bg->entries[i].buffer->destroyed) return bg->entries[i].buffer;
  }
  return NULL;
}

static const ls_texture *api_cmd_destroyed_texture(const api_cmd *c) {
  if (c->texture && c->texture->destroyed) return c->texture;
  for (size_t g = 0; g < c->ngroups; g++) {
    const ls_bind_group *bg = c->groups[g];
    for (size_t i = 0; bg && i < bg->count; i++)
      if (bg->entries[i].view && bg->entries[i].view->texture->destroyed)
        return bg->entries[i].view->texture;
  }
  return NULL;
}

static ls_status api_run_dispatch(ls_device *d, const api_cmd *c) {
  const ls_compute_pipeline *p = c->pipeline;
  const ir_program *prog = p->program;
  uint32_t n[3];
  if (c->indirect) {
    const uint8_t *a = c->indirect->data + c->indirect_offset;
    for (int i = 0; i < 3; i++) n[i] = api_read_u32le(a + 4 * i);
  } else {
    memcpy(n, c->count, sizeof n);
  }
  api_dispatch_info info;
  memset(&info, 0, sizeof info);
  info.pipeline_label = p->label;
  info.entry_point = prog->entry_point;
  memcpy(info.groups, n, sizeof n);
  memcpy(info.wg_size, prog->wg_size, sizeof info.wg_size);
  info.width = d->width;
  info.indirect = c->indirect != NULL;

  uint64_t max = d->limits.max_compute_workgroups_per_dimension;
  if (n[0] > max || n[1] > max || n[2] > max) {
    /* Only an indirect dispatch gets here: direct counts were checked when
     * it was encoded. */
    info.skipped = 1;
    if (d->dispatch_hook) d->dispatch_hook(d->dispatch_user, &info);
    api_log(d, LS_LOG_WARNING,
            "dispatchWorkgroupsIndirect with pipeline '%s': the counts (%u, %u, %u) read from "
            "buffer '%s' at offset %llu exceed maxComputeWorkgroupsPerDimension (%llu); the "
            "dispatch is skipped",
            api_pipeline_name(p), n[0], n[1], n[2], api_buffer_name(c->indirect),
            (unsigned long long)c->indirect_offset, (unsigned long long)max);
    return LS_OK;
  }
  const char *bi = api_dispatch_index_overflow(prog, n);
  if (bi) { /* again only indirect: WebGPU skips it */
    info.skipped = 1;
    if (d->dispatch_hook) d->dispatch_hook(d->dispatch_user, &info);
    api_log(d, LS_LOG_WARNING,
            "dispatchWorkgroupsIndirect with pipeline '%s': on the counts (%u, %u, %u) read from "
            "buffer '%s' @builtin(%s) would not fit in a u32; the dispatch is skipped",
            api_pipeline_name(p), n[0], n[1], n[2], api_buffer_name(c->indirect), bi);
    return LS_OK;
  }
  if (d->dispatch_hook) d->dispatch_hook(d->dispatch_user, &info);
  if (n[0] == 0 || n[1] == 0 || n[2] == 0) return LS_OK;

  vm_binding *vb = prog->nbindings ? calloc(prog->nbindings, sizeof *vb) : NULL;
  vm_texture *vt = prog->nbindings ? calloc(prog->nbindings, sizeof *vt) : NULL;
  if (prog->nbindings && (!vb || !vt)) {
    free(vb);
    free(vt);
    api_error(d, LS_ERROR_OUT_OF_MEMORY, "submit: out of memory");
    return LS_OUT_OF_MEMORY;
  }
  for (uint32_t i = 0; i < prog->nbindings; i++) {
    const ir_binding *b = &prog->bindings[i];
    const ls_bind_group *bg = b->group < c->ngroups ? c->groups[b->group] : NULL;
    if (b->kind == IR_BIND_IMMEDIATE) { /* the pass's immediate data at the dispatch */
      vb[i].data = (uint8_t *)c->immediates;
      vb[i].size = b->min_size;
      continue;
    }
    const api_bind_entry *e = api_bind_group_find(bg, b->binding);
    if (!e || IR_BIND_IS_TEXTURE(b->kind) != (e->view != NULL) ||
        IR_BIND_IS_SAMPLER(b->kind) != (e->sampler != NULL)) {
      /* encoding guaranteed it; never run a shader on a missing binding */
      free(vb);
      free(vt);
      api_error(d, LS_ERROR_INTERNAL, "submit: '%s' (@group(%u) @binding(%u)) is not bound as "
                                      "the shader declares it",
                b->name, b->group, b->binding);
      return LS_VALIDATION;
    }
    if (e->view) {
      api_texture_view_to_vm(e->view, &vt[i]);
      vb[i].data = e->view->texture->data;
      vb[i].size = e->view->texture->bytes;
      vb[i].tex = &vt[i];
      continue;
    }
    if (e->sampler) {
      vb[i].smp = &e->sampler->state;
      continue;
    }
    vb[i].data = e->buffer->data + e->offset;
    vb[i].size = e->size;
  }
  vm_dispatch_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.prog = prog;
  desc.bindings = vb;
  memcpy(desc.groups, n, sizeof n);
  desc.width = d->width;
  desc.budget = d->budget;
  api_observers_before(d, c, vb, n, &desc); /* observe.c: none => the plain interpreter */
  vm_result r;
  memset(&r, 0, sizeof r);
  vm_status st = vm_dispatch(d->pool, &desc, &r);
  api_observers_after(d, &st, &r);
  free(vb);
  free(vt);
  if (st == VM_OK) return LS_OK;
  if (st == VM_NO_MEMORY) {
    api_error(d, LS_ERROR_OUT_OF_MEMORY, "dispatch of '%s' with pipeline '%s': out of memory",
              prog->entry_point, api_pipeline_name(p));
    return LS_OUT_OF_MEMORY;
  }
  uint32_t line = 0, col = 0;
  if (prog->source && prog->spans && r.pc < prog->ncode)
    diag_line_col(prog->source, prog->source_len, prog->spans[r.pc].start, &line, &col);
  api_device_lose(d,
                  "the dispatch of entry point '%s' (pipeline '%s') ran past the instruction "
                  "budget (%llu subgroup-instructions per workgroup) at %s:%u:%u in workgroup "
                  "(%u, %u, %u): a runaway shader? (the budget is "
                  "ls_adapter_options.instruction_budget)",
                  prog->entry_point, api_pipeline_name(p), (unsigned long long)d->budget,
                  prog->filename ? prog->filename : "shader.wgsl", line, col, r.group[0],
                  r.group[1], r.group[2]);
  return LS_DEVICE_LOST;
}

static void api_destroy_all(ls_command_buffer *const *cbs, size_t count) {
  for (size_t i = 0; i < count; i++) {
    int seen = 0;
    for (size_t k = 0; k < i && !seen; k++) seen = cbs[k] == cbs[i];
    if (!seen) ls_command_buffer_destroy(cbs[i]);
  }
}

ls_status ls_queue_submit(ls_device *device, ls_command_buffer *const *cbs, size_t count) {
  if (count && !cbs) {
    if (!api_device_dead(device)) api_validation(device, "submit: %zu command buffers but no array", count);
    return api_device_dead(device) ? LS_DEVICE_LOST : LS_VALIDATION;
  }
  if (api_device_dead(device)) {
    api_destroy_all(cbs, count);
    return LS_DEVICE_LOST;
  }
  /* WebGPU checks the whole submit first: if any part is invalid nothing
   * runs. */
  for (size_t i = 0; i < count; i++) {
    const ls_command_buffer *cb = cbs[i];
    const char *problem = NULL;
    const ls_buffer *gone = NULL;
    const ls_texture *tgone = NULL;
    if (!cb)
      problem = "is NULL";
    else if (cb->device != device)
      problem = "belongs to another device";
    for (size_t k = 0; k < i && !problem; k++)
      if (cbs[k] == cb) problem = "is submitted twice";
    for (size_t k = 0; !problem && k < cb->count; k++)
      if ((gone = api_cmd_destroyed_buffer(&cb->cmds[k]))) problem = "uses a destroyed buffer";
      else if ((tgone = api_cmd_destroyed_texture(&cb->cmds[k]))) problem = "uses a destroyed texture";
    if (problem) {
      if (tgone)
        api_validation(device, "submit: command buffer %zu uses texture '%s', which is destroyed",
                       i, api_texture_name(tgone));
      else if (gone)
        api_validation(device, "submit: command buffer %zu uses buffer '%s', which is destroyed",
                       i, api_buffer_name(gone));
      else
        api_validation(device, "submit: command buffer %zu %s", i, problem);
      api_destroy_all(cbs, count);
      return LS_VALIDATION;
    }
  }
  ls_status status = LS_OK;
  for (size_t i = 0; i < count && status == LS_OK; i++) {
    const ls_command_buffer *cb = cbs[i];
    for (size_t k = 0; k < cb->count && status == LS_OK; k++) {
      const api_cmd *c = &cb->cmds[k];
      if (c->kind == API_CMD_COPY) {
        if (c->size) memcpy(c->dst->data + c->dst_offset, c->src->data + c->src_offset, c->size);
      } else if (c->kind == API_CMD_COPY_B2T || c->kind == API_CMD_COPY_T2B) {
        const int to_tex = c->kind == API_CMD_COPY_B2T;
        api_texture_copy(c->texture, c->mip_level, c->origin, &c->extent, c->aspect,
                         to_tex ? c->src->data : c->dst->data, &c->layout, to_tex);
      } else {
        status = api_run_dispatch(device, c);
      }
    }
  }
  api_destroy_all(cbs, count);
  return status;
}
