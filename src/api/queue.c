/*
 * queue.c — queue.submit: the end of the API flow. Validates a submit on the
 * caller's thread, then hands it to the queue timeline (timeline.c), whose
 * thread runs the recorded commands of encoder.c in order: copies directly,
 * dispatches through the VM (vm/) with the memory of the bound buffer ranges
 * (plus their dynamic offsets), the adapter's subgroup width and instruction
 * budget. Indirect counts are read at execution time, as on a GPU; counts
 * over the limit skip the dispatch (WebGPU's rule) with a warning to the log
 * callback. A workgroup running past the budget loses the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"

static uint32_t api_read_u32le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A problem of a submit, malloc'd; when the message cannot be made, this
 * one (never freed), so that running out of memory never passes a submit. */
static char api_submit_oom[] = "submit: out of memory while describing why it is refused";

static char *api_submit_text(const char *fmt, ...) API_PRINTF(1, 2);
static char *api_submit_text(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = api_vformat(fmt, ap);
  va_end(ap);
  return s ? s : api_submit_oom;
}

/* "buffer 'b', which is destroyed" when a submit may not use b (d->mu
 * held): destroyed, mapped or with a map pending; else NULL. */
static char *api_buffer_problem(const ls_buffer *b) {
  const char *why = b ? api_buffer_unavailable_locked(b) : NULL;
  return why ? api_submit_text("buffer '%s', which %s", api_buffer_name(b), why) : NULL;
}

static char *api_texture_problem(const ls_texture *t) {
  return t && t->destroyed
             ? api_submit_text("texture '%s', which is destroyed", api_texture_name(t))
             : NULL;
}

/* What one command buffer's commands may not use at submit (d->mu held;
 * spec/index.bs GPUQueue.submit): what its commands name, and what the
 * bind groups its setBindGroups named hold, dispatched or not. NULL when
 * all is available. */
static char *api_list_problem(const api_cmd_list *l) {
  char *p = NULL;
  for (size_t k = 0; k < l->count; k++) {
    const api_cmd *c = &l->cmds[k];
    if ((p = api_buffer_problem(c->src)) || (p = api_buffer_problem(c->dst)) ||
        (p = api_buffer_problem(c->indirect)) || (p = api_texture_problem(c->texture)) ||
        (p = api_texture_problem(c->dst_texture)))
      return p;
    if (c->query_set && c->query_set->destroyed)
      return api_submit_text("query set '%s', which is destroyed",
                             api_label(c->query_set->label, "(unlabelled)"));
  }
  for (size_t k = 0; k < l->used.cap; k++) {
    const ls_bind_group *bg = l->used.keys[k];
    for (size_t i = 0; bg && i < bg->count; i++)
      if ((p = api_buffer_problem(bg->entries[i].buffer)) ||
          (p = api_texture_problem(bg->entries[i].view ? bg->entries[i].view->texture : NULL)))
        return p;
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
    const uint64_t dyn = e->dynamic_index >= 0 ? c->dynamic[b->group][e->dynamic_index] : 0;
    vb[i].data = e->buffer->data + e->offset + dyn;
    vb[i].size = e->size;
  }
  vm_dispatch_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.prog = prog;
  desc.bindings = vb;
  memcpy(desc.groups, n, sizeof n);
  desc.width = d->width;
  desc.budget = d->budget;
  desc.cancel = &d->cancel;
  desc.deadline = d->deadline;
  desc.dispatch_budget = d->dispatch_budget;
  desc.memory_limit = d->memory_limit;
  api_observers_before(d, c, vb, n, &desc); /* observe.c: none => the plain interpreter */
  vm_result r;
  memset(&r, 0, sizeof r);
  vm_status st = vm_dispatch(d->pool, &desc, &r);
  api_observers_after(d, &st, &r);
  free(vb);
  free(vt);
  if (st == VM_OK) return LS_OK;
  if (st == VM_CANCELLED) return LS_DEVICE_LOST;
  if (st == VM_NO_MEMORY && r.memory_needed > d->memory_limit) {
    api_error(d, LS_ERROR_OUT_OF_MEMORY,
              "dispatch of '%s' with pipeline '%s': out of memory: one workgroup of %u x %u x %u "
              "invocations needs %llu bytes of interpreter memory (registers, private, function "
              "and workgroup memory), over the device's limit of %llu bytes per dispatch "
              "(ls_adapter_options.dispatch_memory_limit)",
              prog->entry_point, api_pipeline_name(p), prog->wg_size[0], prog->wg_size[1],
              prog->wg_size[2], (unsigned long long)r.memory_needed,
              (unsigned long long)d->memory_limit);
    return LS_OUT_OF_MEMORY;
  }
  if (st == VM_NO_MEMORY) {
    api_error(d, LS_ERROR_OUT_OF_MEMORY, "dispatch of '%s' with pipeline '%s': out of memory",
              prog->entry_point, api_pipeline_name(p));
    return LS_OUT_OF_MEMORY;
  }
  uint32_t line = 0, col = 0;
  ir_line_col(prog, r.pc, &line, &col);
  char what[160];
  if (st == VM_TIMEOUT)
    snprintf(what, sizeof what, "ran past the submit's time limit (%u ms, "
             "ls_adapter_options.time_limit_ms)", d->time_limit_ms);
  else if (r.whole_dispatch)
    snprintf(what, sizeof what, "ran past the dispatch's instruction budget (%llu "
             "subgroup-instructions, ls_adapter_options.dispatch_instruction_budget)",
             (unsigned long long)d->dispatch_budget);
  else
    snprintf(what, sizeof what, "ran past the instruction budget (%llu subgroup-instructions "
             "per workgroup, ls_adapter_options.instruction_budget)",
             (unsigned long long)d->budget);
  api_device_lose(d, LS_LOST_UNKNOWN,
                  "the dispatch (%u, %u, %u) of entry point '%s' (pipeline '%s') %s at %s:%u:%u "
                  "in workgroup (%u, %u, %u): a runaway shader?",
                  n[0], n[1], n[2], prog->entry_point, api_pipeline_name(p), what,
                  prog->filename ? prog->filename : "shader.wgsl", line, col, r.group[0],
                  r.group[1], r.group[2]);
  return LS_DEVICE_LOST;
}

static uint64_t api_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Runs the commands of one submit, on the queue thread. */
static ls_status api_queue_execute(ls_device *device, const api_cmd_list *lists, size_t count) {
  ls_status status = LS_OK;
  for (size_t i = 0; i < count && status == LS_OK; i++) {
    const api_cmd_list *l = &lists[i];
    for (size_t k = 0; k < l->count && status == LS_OK; k++) {
      const api_cmd *c = &l->cmds[k];
      switch (c->kind) {
      case API_CMD_COPY:
        if (c->size) memcpy(c->dst->data + c->dst_offset, c->src->data + c->src_offset, c->size);
        break;
      case API_CMD_CLEAR:
        if (c->size) memset(c->dst->data + c->dst_offset, 0, c->size);
        break;
      case API_CMD_COPY_B2T:
      case API_CMD_COPY_T2B: {
        const int to_tex = c->kind == API_CMD_COPY_B2T;
        api_texture_copy(c->texture, c->mip_level, c->origin, &c->extent, c->aspect,
                         to_tex ? c->src->data : c->dst->data, &c->layout, to_tex);
        break;
      }
      case API_CMD_COPY_T2T:
        api_texture_copy_texels(c->texture, c->mip_level, c->origin, c->dst_texture,
                                c->dst_mip_level, c->dst_origin, &c->extent);
        break;
      case API_CMD_TIMESTAMP:
        c->query_set->values[c->first] = api_now_ns();
        break;
      case API_CMD_RESOLVE:
        for (uint64_t q = 0; q < c->size; q++) {
          uint64_t v = c->query_set->values[c->first + q];
          for (int b = 0; b < 8; b++) c->dst->data[c->dst_offset + 8 * q + b] = (uint8_t)(v >> 8 * b);
        }
        break;
      case API_CMD_DISPATCH:
        status = api_run_dispatch(device, c);
        break;
      }
    }
  }
  return status;
}

/* One submit on the timeline: the commands of its command buffers, which
 * it owns. */
typedef struct api_submit_op {
  ls_status *result; /* a waiting ls_queue_submit's, else NULL */
  size_t count;
  api_cmd_list lists[];
} api_submit_op;

static void api_submit_free(api_submit_op *s) {
  for (size_t i = 0; i < s->count; i++) api_cmd_list_release(&s->lists[i]);
  free(s);
}

static void api_submit_run(ls_device *d, void *arg) {
  api_submit_op *s = arg;
  api_errors_uncaptured = !s->result;
  d->deadline = d->time_limit_ms ? api_now_ns() + (uint64_t)d->time_limit_ms * 1000000u : 0;
  ls_status st = api_queue_execute(d, s->lists, s->count);
  api_errors_uncaptured = 0;
  if (s->result) *s->result = st;
  api_submit_free(s);
}

static void api_submit_drop(ls_device *d, void *arg) {
  api_submit_op *s = arg;
  if (s->result) *s->result = LS_DEVICE_LOST;
  api_submit_free(s);
}

/* WebGPU invalidates every command buffer of a submit, valid or not: each
 * one's commands move to lists[i] (which the caller releases or runs)
 * unless an earlier submit took them; the first of those, and the first
 * one named twice, are returned (-1: none). */
static void api_submit_take(ls_command_buffer *const *cbs, size_t count, api_cmd_list *lists,
                            ptrdiff_t *resubmitted, ptrdiff_t *twice) {
  *resubmitted = *twice = -1;
  for (size_t i = 0; i < count; i++) {
    lists[i] = (api_cmd_list){0};
    if (!cbs[i]) continue;
    int seen = 0;
    for (size_t k = 0; k < i && !seen; k++) seen = cbs[k] == cbs[i];
    if (seen) {
      if (*twice < 0) *twice = (ptrdiff_t)i;
    } else if (!atomic_exchange(&cbs[i]->submitted, 1)) {
      lists[i] = cbs[i]->list;
      cbs[i]->list = (api_cmd_list){0};
    } else if (*resubmitted < 0) {
      *resubmitted = (ptrdiff_t)i;
    }
  }
}

/* The whole submit's validity (d->mu held); NULL when valid, else the
 * message (malloc'd, or api_submit_oom). */
static char *api_submit_problem(ls_device *device, ls_command_buffer *const *cbs,
                                const api_cmd_list *lists, size_t count, ptrdiff_t resubmitted,
                                ptrdiff_t twice) {
  for (size_t i = 0; i < count; i++) {
    const ls_command_buffer *cb = cbs[i];
    const char *cn = cb ? api_label(cb->label, "(unlabelled)") : "(null)";
    if (!cb) return api_submit_text("submit: command buffer %zu is NULL", i);
    if ((ptrdiff_t)i == twice)
      return api_submit_text("submit: command buffer %zu ('%s') is submitted twice", i, cn);
    if ((ptrdiff_t)i == resubmitted)
      return api_submit_text("submit: command buffer %zu ('%s') was already submitted (a "
                             "command buffer runs once; record its commands again for another "
                             "submit)", i, cn);
    if (cb->device != device)
      return api_submit_text("submit: command buffer %zu ('%s') belongs to another device", i,
                             cn);
    char *what = api_list_problem(&lists[i]);
    if (what) {
      char *p = what == api_submit_oom
                    ? what
                    : api_submit_text("submit: command buffer %zu ('%s') uses %s", i, cn, what);
      if (what != api_submit_oom) free(what);
      return p;
    }
  }
  return NULL;
}

/* Validates and queues; *seq gets the op's number (0 when nothing was
 * queued). The command buffers are spent whatever the outcome. */
static ls_status api_submit(ls_device *device, ls_command_buffer *const *cbs, size_t count,
                            ls_status *result, uint64_t *seq) {
  *seq = 0;
  if (!device) return LS_VALIDATION;
  if (count && !cbs) {
    if (!api_device_dead(device))
      api_validation(device, "submit: %zu command buffers but no array", count);
    return api_device_dead(device) ? LS_DEVICE_LOST : LS_VALIDATION;
  }
  api_submit_op *s = calloc(1, sizeof *s + count * sizeof *s->lists);
  if (!s) {
    for (size_t i = 0; i < count; i++) /* spent all the same */
      if (cbs[i] && !atomic_exchange(&cbs[i]->submitted, 1)) api_cmd_list_release(&cbs[i]->list);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "submit: out of memory");
    return LS_OUT_OF_MEMORY;
  }
  s->result = result;
  s->count = count;
  ptrdiff_t resubmitted, twice;
  api_submit_take(cbs, count, s->lists, &resubmitted, &twice);
  if (api_device_dead(device)) {
    api_submit_free(s);
    return LS_DEVICE_LOST;
  }
  /* WebGPU checks the whole submit first: if any part is invalid nothing
   * runs. Checking and queueing under one lock keeps a destroy() or
   * mapAsync() of another thread wholly before or after the submit. */
  API_LOCK(device);
  char *problem = api_submit_problem(device, cbs, s->lists, count, resubmitted, twice);
  if (!problem) *seq = api_timeline_push_locked(device, api_submit_run, api_submit_drop, s);
  API_UNLOCK(device);
  if (problem || !*seq) {
    api_submit_free(s);
    if (!problem) return LS_DEVICE_LOST; /* the queue has stopped */
    api_validation(device, "%s", problem);
    if (problem != api_submit_oom) free(problem);
    return LS_VALIDATION;
  }
  return LS_OK;
}
ls_status ls_queue_submit_async(ls_device *device, ls_command_buffer *const *cbs, size_t count) {
  uint64_t seq;
  return api_submit(device, cbs, count, NULL, &seq);
}

ls_status ls_queue_submit(ls_device *device, ls_command_buffer *const *cbs, size_t count) {
  uint64_t seq;
  ls_status result = LS_OK;
  if (device && api_timeline_is_queue_thread(device)) {
    /* from a callback on the queue thread, which cannot wait for itself:
     * queued like ls_queue_submit_async */
    return api_submit(device, cbs, count, NULL, &seq);
  }
  ls_status st = api_submit(device, cbs, count, &result, &seq);
  if (st != LS_OK) return st;
  api_timeline_wait(device, seq);
  return result;
}
