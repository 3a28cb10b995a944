/*
 * pipeline.c — createComputePipeline: lowers one entry point of a valid
 * shader module (ir/lower.c) with the override values and the device limits
 * into the bytecode the VM runs, then ties it to a pipeline layout: the
 * given one, checked against every binding the entry point uses, or one
 * derived from those bindings (layout "auto", whose bind group layouts only
 * this pipeline accepts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/lower.h"
#include "api.h"

void api_compute_pipeline_ref(ls_compute_pipeline *p) {
  if (p) API_REF(p);
}

void api_compute_pipeline_unref(ls_compute_pipeline *p) {
  if (!p || !API_UNREF_LAST(p)) return;
  ls_device *d = p->device;
  ir_program_free(p->program);
  api_pipeline_layout_unref(p->layout);
  api_shader_module_unref(p->module);
  free(p->label);
  API_FREE_HANDLE(p);
  api_device_unref(d);
}

const ir_program *api_compute_pipeline_program(const ls_compute_pipeline *p) {
  return p ? p->program : NULL;
}

const char *api_pipeline_name(const ls_compute_pipeline *p) {
  if (!p) return "(null)";
  if (p->label && *p->label) return p->label;
  return p->program && p->program->entry_point ? p->program->entry_point : "(unlabelled)";
}

static const char *api_var_decl(ir_binding_kind k) {
  switch (k) {
  case IR_BIND_UNIFORM:
    return "var<uniform>";
  case IR_BIND_STORAGE:
    return "var<storage, read_write>";
  case IR_BIND_READ_ONLY_STORAGE:
    return "var<storage, read>";
  case IR_BIND_SAMPLED_TEXTURE:
    return "a sampled texture";
  case IR_BIND_WRITE_ONLY_STORAGE_TEXTURE:
    return "a write-only storage texture";
  case IR_BIND_READ_ONLY_STORAGE_TEXTURE:
    return "a read-only storage texture";
  case IR_BIND_READ_WRITE_STORAGE_TEXTURE:
    return "a read-write storage texture";
  case IR_BIND_SAMPLER:
    return "a sampler";
  case IR_BIND_COMPARISON_SAMPLER:
    return "a sampler_comparison";
  case IR_BIND_IMMEDIATE:
    return "var<immediate>";
  }
  return "var<?>";
}

/* The layout entry type a binding of the program needs. */
static ls_binding_type api_type_of(const ir_binding *b) {
  if (b->tex_external) return LS_BINDING_EXTERNAL_TEXTURE;
  switch (b->kind) {
  case IR_BIND_UNIFORM: return LS_BINDING_UNIFORM;
  case IR_BIND_STORAGE: return LS_BINDING_STORAGE;
  case IR_BIND_READ_ONLY_STORAGE: return LS_BINDING_READ_ONLY_STORAGE;
  case IR_BIND_SAMPLED_TEXTURE: return LS_BINDING_SAMPLED_TEXTURE;
  case IR_BIND_WRITE_ONLY_STORAGE_TEXTURE: return LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE;
  case IR_BIND_READ_ONLY_STORAGE_TEXTURE: return LS_BINDING_READ_ONLY_STORAGE_TEXTURE;
  case IR_BIND_READ_WRITE_STORAGE_TEXTURE: return LS_BINDING_READ_WRITE_STORAGE_TEXTURE;
  case IR_BIND_SAMPLER: return LS_BINDING_FILTERING_SAMPLER; /* layout "auto"'s default */
  case IR_BIND_COMPARISON_SAMPLER: return LS_BINDING_COMPARISON_SAMPLER;
  case IR_BIND_IMMEDIATE: break; /* in no bind group */
  }
  return LS_BINDING_STORAGE;
}

/* Whether a texture-sampler pair of the program reads slot i with a
 * sampler (sampler_comparison included). */
static int api_sampled_with_sampler(const ir_program *prog, uint32_t i) {
  for (uint32_t k = 0; k < prog->nsamples; k++)
    if (prog->samples[k].texture == i) return 1;
  return 0;
}

/* The layout entry layout "auto" makes for binding slot i (WebGPU's
 * default pipeline layout: an f32 texture is "float" when a call also
 * uses a sampler with it, else "unfilterable-float"; a sampler is
 * "filtering"). */
static void api_entry_of(const ir_program *prog, uint32_t i, ls_bind_group_layout_entry *e) {
  const ir_binding *b = &prog->bindings[i];
  memset(e, 0, sizeof *e);
  e->binding = b->binding;
  e->type = api_type_of(b);
  if (IR_BIND_IS_SAMPLER(b->kind) || b->tex_external) return;
  if (!IR_BIND_IS_TEXTURE(b->kind)) {
    e->min_binding_size = b->min_size;
    return;
  }
  e->view_dimension = (ls_view_dimension)b->tex_dim;
  e->multisampled = b->tex_ms;
  if (b->kind == IR_BIND_SAMPLED_TEXTURE)
    e->sample_type = b->tex_sample == IR_TEXS_I32     ? LS_SAMPLE_SINT
                     : b->tex_sample == IR_TEXS_U32   ? LS_SAMPLE_UINT
                     : b->tex_sample == IR_TEXS_DEPTH ? LS_SAMPLE_DEPTH
                     : api_sampled_with_sampler(prog, i) ? LS_SAMPLE_FLOAT
                                                         : LS_SAMPLE_UNFILTERABLE_FLOAT;
  else
    e->format = (ls_texture_format)b->tex_format;
}

/* The texture part of "validating shader binding": the view dimension,
 * the sample type for the sampled type, the storage format. Returns NULL
 * when they agree, else what differs. */
static const char *api_texture_mismatch(const ir_binding *b, const ls_bind_group_layout_entry *e) {
  if (e->view_dimension != (ls_view_dimension)b->tex_dim) return "viewDimension";
  if ((e->multisampled != 0) != (b->tex_ms != 0)) return "multisampled";
  if (b->kind == IR_BIND_SAMPLED_TEXTURE) {
    /* "depth" also takes 2D, 2D-array and cube texture<f32> variables */
    const int depth_ok = b->tex_dim != IR_TEXDIM_1D && b->tex_dim != IR_TEXDIM_3D;
    int ok = b->tex_sample == IR_TEXS_I32     ? e->sample_type == LS_SAMPLE_SINT
             : b->tex_sample == IR_TEXS_U32   ? e->sample_type == LS_SAMPLE_UINT
             : b->tex_sample == IR_TEXS_DEPTH ? e->sample_type == LS_SAMPLE_DEPTH
                                              : (e->sample_type == LS_SAMPLE_FLOAT ||
                                                 e->sample_type == LS_SAMPLE_UNFILTERABLE_FLOAT ||
                                                 (depth_ok && e->sample_type == LS_SAMPLE_DEPTH));
    return ok ? NULL : "sampleType";
  }
  return e->format == (ls_texture_format)b->tex_format ? NULL : "format";
}

/* "file:line:col" of a span of the program's WGSL, for messages. */
static void api_where(const ir_program *prog, src_span span, char *buf, size_t len) {
  uint32_t line = 0, col = 0;
  if (prog->source) diag_line_col(prog->source, prog->source_len, span.start, &line, &col);
  snprintf(buf, len, "%s:%u:%u", prog->filename ? prog->filename : "shader.wgsl", line, col);
}

/* Every binding the entry point uses must be in the layout with the same
 * type, and a nonzero minBindingSize must cover the shader's minimum. */
static int api_check_layout(ls_device *d, const char *name, const ir_program *prog,
                            const ls_pipeline_layout *layout) {
  for (uint32_t i = 0; i < prog->nbindings; i++) {
    const ir_binding *b = &prog->bindings[i];
    char where[256];
    api_where(prog, b->span, where, sizeof where);
    if (b->kind == IR_BIND_IMMEDIATE) {
      /* "validating GPUProgrammableStage": the layout's immediateSize holds
       * the variable */
      if (layout->immediate_size < b->min_size) {
        api_validation(d,
                       "createComputePipeline '%s': %s: var<immediate> '%s' is %llu bytes, more "
                       "than the layout's immediateSize (%u)",
                       name, where, b->name, (unsigned long long)b->min_size,
                       layout->immediate_size);
        return 0;
      }
      continue;
    }
    const ls_bind_group_layout *bgl =
        b->group < layout->count ? layout->groups[b->group] : NULL;
    const ls_bind_group_layout_entry *e = api_bind_group_layout_find(bgl, b->binding);
    if (!e) {
      api_validation(d,
                     "createComputePipeline '%s': %s: '%s' (@group(%u) @binding(%u)) is not "
                     "in the pipeline layout",
                     name, where, b->name, b->group, b->binding);
      return 0;
    }
    if (!(e->visibility & LS_SHADER_STAGE_COMPUTE)) {
      api_validation(d,
                     "createComputePipeline '%s': %s: '%s' (@group(%u) @binding(%u)) is not "
                     "visible to the COMPUTE stage in the pipeline layout (visibility 0x%x)",
                     name, where, b->name, b->group, b->binding, e->visibility);
      return 0;
    }
    /* a sampler variable takes a filtering or a non-filtering layout entry,
     * a write-only storage texture a write-only or a read-write one
     * ("validating shader binding": read-write takes read_write or write) */
    const int type_ok =
        e->type == api_type_of(b) ||
        (b->kind == IR_BIND_SAMPLER && e->type == LS_BINDING_NON_FILTERING_SAMPLER) ||
        (b->kind == IR_BIND_WRITE_ONLY_STORAGE_TEXTURE &&
         e->type == LS_BINDING_READ_WRITE_STORAGE_TEXTURE);
    if (!type_ok) {
      api_validation(d,
                     "createComputePipeline '%s': %s: '%s' (@group(%u) @binding(%u)) is %s but "
                     "the layout's entry is '%s'",
                     name, where, b->name, b->group, b->binding,
                     b->tex_external ? "a texture_external" : api_var_decl(b->kind),
                     api_binding_type_name(e->type));
      return 0;
    }
    const char *diff =
        IR_BIND_IS_TEXTURE(b->kind) && !b->tex_external ? api_texture_mismatch(b, e) : NULL;
    if (diff) {
      api_validation(d,
                     "createComputePipeline '%s': %s: the layout's %s for '%s' (@group(%u) "
                     "@binding(%u)) does not match the shader's texture type",
                     name, where, diff, b->name, b->group, b->binding);
      return 0;
    }
    if (!IR_BIND_IS_TEXTURE(b->kind) && e->min_binding_size && e->min_binding_size < b->min_size) {
      api_validation(d,
                     "createComputePipeline '%s': %s: the layout's minBindingSize (%llu) for "
                     "'%s' (@group(%u) @binding(%u)) is less than the %llu bytes the shader "
                     "needs",
                     name, where, (unsigned long long)e->min_binding_size, b->name, b->group,
                     b->binding, (unsigned long long)b->min_size);
      return 0;
    }
  }
  return 1;
}

/* The texture-sampler pairs of "validating GPUProgrammableStage": a
 * "filtering" sampler reads "float" textures only. Layout "auto" can
 * break this rule (it makes every sampler filtering), so both kinds of
 * layout are checked. */
static int api_check_pairs(ls_device *d, const char *name, const ir_program *prog,
                           const ls_pipeline_layout *layout) {
  for (uint32_t k = 0; k < prog->nsamples; k++) {
    const ir_sample *sm = &prog->samples[k];
    const ir_binding *tb = &prog->bindings[sm->texture], *sb = &prog->bindings[sm->sampler];
    if (sb->kind != IR_BIND_SAMPLER) continue;
    const ls_bind_group_layout_entry *te = api_bind_group_layout_find(
        tb->group < layout->count ? layout->groups[tb->group] : NULL, tb->binding);
    const ls_bind_group_layout_entry *se = api_bind_group_layout_find(
        sb->group < layout->count ? layout->groups[sb->group] : NULL, sb->binding);
    if (!te || !se || se->type != LS_BINDING_FILTERING_SAMPLER ||
        te->sample_type == LS_SAMPLE_FLOAT)
      continue;
    char where[256];
    api_where(prog, sm->span, where, sizeof where);
    api_validation(d,
                   "createComputePipeline '%s': %s: '%s' is a filtering sampler but texture '%s' "
                   "has sampleType \"%s\"; only \"float\" textures can be filtered (use a "
                   "\"non-filtering\" sampler binding, or a filterable texture)",
                   name, where, sb->name, tb->name, api_sample_type_name(te->sample_type));
    return 0;
  }
  return 1;
}

/* The default pipeline layout: one layout per group up to the highest the
 * entry point uses, with what it uses there. */
static ls_pipeline_layout *api_auto_layout(ls_device *d, const char *name,
                                           const ir_program *prog, uint64_t id) {
  uint32_t ngroups = 0, immediate = 0;
  for (uint32_t i = 0; i < prog->nbindings; i++) {
    const ir_binding *b = &prog->bindings[i];
    if (b->kind == IR_BIND_IMMEDIATE) { /* roundUp(4, SizeOf(T)) */
      immediate = (uint32_t)(b->min_size + 3) / 4 * 4;
      continue;
    }
    if (b->group >= d->limits.max_bind_groups) {
      char where[256];
      api_where(prog, b->span, where, sizeof where);
      api_validation(d,
                     "createComputePipeline '%s': %s: '%s' uses @group(%u), not below "
                     "maxBindGroups (%llu)",
                     name, where, b->name, b->group,
                     (unsigned long long)d->limits.max_bind_groups);
      return NULL;
    }
    if (b->group + 1 > ngroups) ngroups = b->group + 1;
  }
  if (immediate > d->limits.max_immediate_size) {
    api_validation(d,
                   "createComputePipeline '%s': layout \"auto\": the var<immediate> needs "
                   "immediateSize %u, more than maxImmediateSize (%llu)",
                   name, immediate, (unsigned long long)d->limits.max_immediate_size);
    return NULL;
  }
  ls_pipeline_layout *pl = calloc(1, sizeof *pl);
  ls_bind_group_layout_entry *tmp =
      prog->nbindings ? calloc(prog->nbindings, sizeof *tmp) : NULL;
  if (!pl || (prog->nbindings && !tmp)) goto oom;
  pl->device = d;
  api_device_ref(d);
  pl->refs = 1;
  pl->count = ngroups;
  pl->immediate_size = immediate;
  if (ngroups && !(pl->groups = calloc(ngroups, sizeof *pl->groups))) goto oom;
  for (uint32_t g = 0; g < ngroups; g++) {
    size_t n = 0;
    for (uint32_t i = 0; i < prog->nbindings; i++) {
      const ir_binding *b = &prog->bindings[i];
      if (b->group != g) continue;
      size_t k = 0;
      while (k < n && tmp[k].binding != b->binding) k++;
      if (k == n) {
        api_entry_of(prog, i, &tmp[n]);
        const api_texfmt *f = api_format_info(tmp[n].format);
        const uint32_t acc = api_storage_access(tmp[n].type);
        if (acc && f && !(api_format_storage(d, f) & acc)) {
          /* createBindGroupLayout's rule, which layout "auto" goes through */
          char where[256];
          api_where(prog, b->span, where, sizeof where);
          api_validation(d,
                         "createComputePipeline '%s': %s: '%s' is a %s storage texture of "
                         "format %s, which does not allow that access %s",
                         name, where, b->name, api_storage_access_name(acc),
                         ls_texture_format_name(tmp[n].format), api_format_storage_why(f, acc));
          free(tmp);
          api_pipeline_layout_unref(pl);
          return NULL;
        }
        n++;
      } else if (tmp[k].type != api_type_of(b)) {
        char where[256];
        api_where(prog, b->span, where, sizeof where);
        api_validation(d,
                       "createComputePipeline '%s': %s: @group(%u) @binding(%u) is used as "
                       "both '%s' and '%s'",
                       name, where, g, b->binding, api_binding_type_name(tmp[k].type),
                       api_binding_type_name(api_type_of(b)));
        free(tmp);
        api_pipeline_layout_unref(pl);
        return NULL;
      } else if (b->min_size > tmp[k].min_binding_size) {
        tmp[k].min_binding_size = b->min_size;
      }
    }
    if (n && !(pl->groups[g] = api_bind_group_layout_new(d, tmp, n, id))) goto oom;
  }
  free(tmp);
  char why[160];
  if (api_check_slot_limits(d, pl->groups, pl->count, why, sizeof why)) {
    api_validation(d, "createComputePipeline '%s': layout \"auto\": %s", name, why);
    api_pipeline_layout_unref(pl);
    return NULL;
  }
  return pl;
oom:
  free(tmp);
  api_pipeline_layout_unref(pl);
  api_error(d, LS_ERROR_OUT_OF_MEMORY, "createComputePipeline '%s': out of memory", name);
  return NULL;
}

static void api_strip_newline(char *s) {
  size_t n = strlen(s);
  while (n && s[n - 1] == '\n') s[--n] = 0;
}

ls_compute_pipeline *ls_device_create_compute_pipeline(ls_device *device,
                                                       const ls_compute_pipeline_desc *user_desc) {
  if (api_device_dead(device)) return NULL;
  ls_compute_pipeline_desc dd;
  if (!user_desc || !API_DESC(dd, user_desc)) {
    api_validation(device, "createComputePipeline: %s", user_desc ? API_DESC_NEWER : "no descriptor");
    return NULL;
  }
  const ls_compute_pipeline_desc *desc = &dd;
  const char *name = api_label(desc->label, desc->entry_point ? desc->entry_point : "(unlabelled)");
  ls_shader_module *m = desc->module;
  if (!m) {
    api_validation(device, "createComputePipeline '%s': no shader module", name);
    return NULL;
  }
  if (m->device != device || (desc->layout && desc->layout->device != device)) {
    api_validation(device, "createComputePipeline '%s': the module or layout belongs to another "
                           "device", name);
    return NULL;
  }
  if (!m->valid) {
    api_validation(device, "createComputePipeline '%s': shader module '%s' is invalid", name,
                   api_label(m->label, "(unlabelled)"));
    return NULL;
  }
  if (desc->constant_count && !desc->constants) {
    api_validation(device, "createComputePipeline '%s': %zu constants but no array", name,
                   desc->constant_count);
    return NULL;
  }
  diag_list dl;
  diag_init(&dl);
  pthread_mutex_lock(&m->lower_mu);
  ir_program *prog = lower_pipeline(m->module, desc->entry_point, desc->constants,
                                    desc->constant_count, &device->limits, &dl);
  pthread_mutex_unlock(&m->lower_mu);
  size_t srclen = 0;
  const char *src = wgsl_module_source(m->module, &srclen);
  const char *file = wgsl_module_filename(m->module);
  if (!prog) {
    if (dl.errors) {
      char *text = diag_format(&dl, src, srclen, file);
      if (text) {
        api_strip_newline(text);
        api_validation(device, "%s", text);
      } else {
        api_error(device, LS_ERROR_OUT_OF_MEMORY, "createComputePipeline '%s': out of memory",
                  name);
      }
      free(text);
    } else {
      api_error(device, LS_ERROR_OUT_OF_MEMORY, "createComputePipeline '%s': out of memory",
                name);
    }
    diag_free(&dl);
    return NULL;
  }
  if (dl.count) {
    /* Warnings of pipeline creation (nothing failed): tell, go on. */
    char *text = diag_format(&dl, src, srclen, file);
    if (text) {
      api_strip_newline(text);
      api_log(device, LS_LOG_WARNING, "%s", text);
    }
    free(text);
  }
  diag_free(&dl);
  char bad[256];
  if (ir_verify_wanted() && !ir_verify(prog, bad, sizeof bad)) {
    /* a lowering bug: the program never reaches the VM */
    api_error(device, LS_ERROR_INTERNAL,
              "createComputePipeline '%s': lowering produced invalid bytecode: %s", name, bad);
    ir_program_free(prog);
    return NULL;
  }
  if (prog->subgroup_size && prog->subgroup_size != device->width) {
    /* the adapter's subgroupMinSize and subgroupMaxSize are both W: a
     * device runs every pipeline at that one width */
    diag_init(&dl);
    diag_error(&dl, prog->subgroup_size_span,
               "@subgroup_size(%u) is outside the adapter's subgroup sizes: subgroupMinSize = "
               "subgroupMaxSize = %u (choose the adapter's width with its subgroup_size option, "
               "-W on the command line: 8, 16, 32 or 64)",
               prog->subgroup_size, device->width);
    char *text = diag_format(&dl, src, srclen, file);
    if (text) api_strip_newline(text);
    api_validation(device, "%s", text ? text : "@subgroup_size outside the adapter's range");
    free(text);
    diag_free(&dl);
    ir_program_free(prog);
    return NULL;
  }

  ls_compute_pipeline *p = calloc(1, sizeof *p);
  if (!p || (desc->label && !api_label_init(&p->label, desc->label))) {
    free(p);
    ir_program_free(prog);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createComputePipeline '%s': out of memory", name);
    return NULL;
  }
  p->device = device;
  api_device_ref(device);
  p->refs = 1;
  p->id = device->next_id++;
  p->module = m;
  api_shader_module_ref(m);
  p->program = prog;
  if (desc->layout) {
    if (!api_check_layout(device, name, prog, desc->layout) ||
        !api_check_pairs(device, name, prog, desc->layout)) {
      api_compute_pipeline_unref(p);
      return NULL;
    }
    p->layout = desc->layout;
    api_pipeline_layout_ref(desc->layout);
  } else {
    p->auto_layout = 1;
    p->layout = api_auto_layout(device, name, prog, p->id);
    /* the default layout fits the shader by construction, but for the
     * texture-sampler pairs */
    if (!p->layout || !api_check_pairs(device, name, prog, p->layout)) {
      api_compute_pipeline_unref(p);
      return NULL;
    }
  }
  return p;
}

void ls_compute_pipeline_release(ls_compute_pipeline *pipeline) {
  api_compute_pipeline_unref(pipeline);
}

void ls_compute_pipeline_set_label(ls_compute_pipeline *pipeline, const char *label) {
  if (pipeline) api_set_label(pipeline->device, &pipeline->label, label);
}

ls_compute_pipeline *ls_device_try_create_compute_pipeline(ls_device *device,
                                                           const ls_compute_pipeline_desc *desc,
                                                           char **message) {
  char *caught = NULL;
  char **outer = api_capture_errors;
  api_capture_errors = &caught;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(device, desc);
  api_capture_errors = outer;
  if (p) {
    free(caught);
    caught = NULL;
  } else if (!caught && !api_device_dead(device)) {
    caught = api_strdup("createComputePipeline: out of memory");
  }
  if (message) *message = caught;
  else free(caught);
  return p;
}

ls_bind_group_layout *ls_compute_pipeline_get_bind_group_layout(ls_compute_pipeline *p,
                                                                uint32_t group) {
  if (!p || api_device_dead(p->device)) return NULL;
  ls_device *d = p->device;
  if (group >= d->limits.max_bind_groups) {
    api_validation(d, "getBindGroupLayout(%u) of pipeline '%s': not below maxBindGroups (%llu)",
                   group, api_pipeline_name(p), (unsigned long long)d->limits.max_bind_groups);
    return NULL;
  }
  if (group < p->layout->count && p->layout->groups[group]) {
    api_bind_group_layout_ref(p->layout->groups[group]);
    return p->layout->groups[group];
  }
  ls_bind_group_layout *l = api_bind_group_layout_new(d, NULL, 0, p->auto_layout ? p->id : 0);
  if (!l) api_error(d, LS_ERROR_OUT_OF_MEMORY, "getBindGroupLayout: out of memory");
  return l;
}

void ls_compute_pipeline_get_workgroup_size(const ls_compute_pipeline *p, uint32_t size[3]) {
  if (!size) return;
  for (int i = 0; i < 3; i++) size[i] = p && p->program ? p->program->wg_size[i] : 0;
}

const char *api_dispatch_index_overflow(const ir_program *prog, const uint32_t n[3]) {
  /* at most 65535^3 workgroups of at most 2^32 invocations: no u64 overflow
   * before the comparison (the workgroup size is within the limits) */
  const uint64_t groups = (uint64_t)n[0] * n[1] * n[2];
  const uint64_t size = (uint64_t)prog->wg_size[0] * prog->wg_size[1] * prog->wg_size[2];
  if (prog->builtin_reg[IR_BI_WORKGROUP_INDEX] != IR_NO_REG && groups > UINT32_MAX)
    return "workgroup_index";
  if (prog->builtin_reg[IR_BI_GLOBAL_INVOCATION_INDEX] != IR_NO_REG && groups > UINT32_MAX / size)
    return "global_invocation_index";
  return NULL;
}
