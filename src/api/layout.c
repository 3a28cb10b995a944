/*
 * layout.c — bind group layouts, pipeline layouts and bind groups: what a
 * pipeline expects at each @group/@binding and which buffer ranges are bound
 * there. Creation validates WebGPU's rules (binding slot limits, usage,
 * alignment, sizes); the encoder (encoder.c) checks at each dispatch that
 * the bound groups fit the pipeline, and the queue (queue.c) reads the bound
 * ranges to hand memory to the VM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

const char *api_binding_type_name(ls_binding_type t) {
  switch (t) {
  case LS_BINDING_UNIFORM:
    return "uniform";
  case LS_BINDING_STORAGE:
    return "storage";
  case LS_BINDING_READ_ONLY_STORAGE:
    return "read-only-storage";
  case LS_BINDING_SAMPLED_TEXTURE:
    return "texture";
  case LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE:
    return "write-only storageTexture";
  case LS_BINDING_READ_ONLY_STORAGE_TEXTURE:
    return "read-only storageTexture";
  case LS_BINDING_READ_WRITE_STORAGE_TEXTURE:
    return "read-write storageTexture";
  case LS_BINDING_FILTERING_SAMPLER:
    return "filtering sampler";
  case LS_BINDING_NON_FILTERING_SAMPLER:
    return "non-filtering sampler";
  case LS_BINDING_COMPARISON_SAMPLER:
    return "comparison sampler";
  case LS_BINDING_EXTERNAL_TEXTURE:
    return "externalTexture";
  }
  return "(unknown binding type)";
}

static int api_is_texture(ls_binding_type t) {
  return t >= LS_BINDING_SAMPLED_TEXTURE && t <= LS_BINDING_READ_WRITE_STORAGE_TEXTURE;
}
static int api_is_storage_texture(ls_binding_type t) {
  return t >= LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE && t <= LS_BINDING_READ_WRITE_STORAGE_TEXTURE;
}
int api_is_sampler(ls_binding_type t) {
  return t >= LS_BINDING_FILTERING_SAMPLER && t <= LS_BINDING_COMPARISON_SAMPLER;
}

const char *api_sample_type_name(ls_texture_sample_type t) {
  static const char *const n[] = {"float", "unfilterable-float", "depth", "sint", "uint"};
  return (unsigned)t < 5 ? n[t] : "(unknown)";
}

/* ------------------------------------------------------ bind group layout */

void api_bind_group_layout_ref(ls_bind_group_layout *l) {
  if (l) API_REF(l);
}

void api_bind_group_layout_unref(ls_bind_group_layout *l) {
  if (!l || !API_UNREF_LAST(l)) return;
  ls_device *d = l->device;
  free(l->entries);
  free(l->label);
  API_FREE_HANDLE(l);
  api_device_unref(d);
}

void ls_bind_group_layout_set_label(ls_bind_group_layout *layout, const char *label) {
  if (layout) api_set_label(layout->device, &layout->label, label);
}

void ls_pipeline_layout_set_label(ls_pipeline_layout *layout, const char *label) {
  if (layout) api_set_label(layout->device, &layout->label, label);
}

void ls_bind_group_set_label(ls_bind_group *group, const char *label) {
  if (group) api_set_label(group->device, &group->label, label);
}

static int api_cmp_layout_entry(const void *a, const void *b) {
  uint32_t x = ((const ls_bind_group_layout_entry *)a)->binding;
  uint32_t y = ((const ls_bind_group_layout_entry *)b)->binding;
  return x < y ? -1 : x > y;
}

ls_bind_group_layout *api_bind_group_layout_new(ls_device *d,
                                                const ls_bind_group_layout_entry *entries,
                                                size_t count, uint64_t exclusive) {
  ls_bind_group_layout *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  if (count) {
    l->entries = malloc(count * sizeof *l->entries);
    if (!l->entries) {
      free(l);
      return NULL;
    }
    memcpy(l->entries, entries, count * sizeof *l->entries);
    /* the texture members mean nothing for a buffer, and a texture's
     * viewDimension defaults to "2d": equivalence compares resolved
     * entries */
    for (size_t i = 0; i < count; i++) {
      ls_bind_group_layout_entry *e = &l->entries[i];
      e->visibility = !e->visibility                         ? LS_SHADER_STAGE_COMPUTE
                      : e->visibility == LS_SHADER_STAGE_NONE ? 0
                                                              : e->visibility;
      if (!api_is_texture(e->type)) {
        e->sample_type = 0;
        e->view_dimension = 0;
        e->format = 0;
        e->multisampled = 0;
        if (api_is_sampler(e->type) || e->type == LS_BINDING_EXTERNAL_TEXTURE) {
          e->min_binding_size = 0;
          e->has_dynamic_offset = 0;
        }
      } else {
        e->min_binding_size = 0;
        if (!e->view_dimension) e->view_dimension = LS_VIEW_DIMENSION_2D;
        if (api_is_storage_texture(e->type)) e->sample_type = 0, e->multisampled = 0;
        else e->format = 0, e->multisampled = e->multisampled != 0;
      }
    }
    qsort(l->entries, count, sizeof *l->entries, api_cmp_layout_entry);
  }
  l->count = count;
  l->exclusive = exclusive;
  l->refs = 1;
  l->device = d;
  api_device_ref(d);
  return l;
}

const ls_bind_group_layout_entry *api_bind_group_layout_find(const ls_bind_group_layout *l,
                                                             uint32_t binding) {
  if (!l) return NULL;
  size_t lo = 0, hi = l->count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (l->entries[mid].binding == binding) return &l->entries[mid];
    if (l->entries[mid].binding < binding)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

int api_bind_group_layout_equivalent(const ls_bind_group_layout *a,
                                     const ls_bind_group_layout *b) {
  if (a == b) return 1;
  if (!a || !b) return 0;
  if (a->exclusive != b->exclusive || a->count != b->count) return 0;
  for (size_t i = 0; i < a->count; i++) {
    const ls_bind_group_layout_entry *x = &a->entries[i], *y = &b->entries[i];
    if (x->binding != y->binding || x->type != y->type ||
        x->min_binding_size != y->min_binding_size || x->sample_type != y->sample_type ||
        x->view_dimension != y->view_dimension || x->format != y->format ||
        x->multisampled != y->multisampled || x->has_dynamic_offset != y->has_dynamic_offset ||
        x->visibility != y->visibility)
      return 0;
  }
  return 1;
}

/* WebGPU's "exceeds the binding slot limits" over the entries of the
 * groups: the dynamic buffers of the whole layout, then each stage's
 * slots, counting an entry in every stage its visibility names. A core
 * device (lockstep's are) has maxStorageBuffersInVertexStage and
 * ...InFragmentStage equal to maxStorageBuffersPerShaderStage, and the
 * same for storage textures (spec/index.bs, "a new device"). */
int api_check_slot_limits(const ls_device *d, ls_bind_group_layout *const *groups, size_t count,
                          char *why, size_t len) {
  uint64_t dyn_uniform = 0, dyn_storage = 0;
  for (size_t g = 0; g < count; g++)
    for (size_t i = 0; groups[g] && i < groups[g]->count; i++) {
      const ls_bind_group_layout_entry *e = &groups[g]->entries[i];
      if (!e->has_dynamic_offset) continue;
      if (e->type == LS_BINDING_UNIFORM) dyn_uniform++;
      else dyn_storage++;
    }
  if (dyn_uniform > d->limits.max_dynamic_uniform_buffers_per_pipeline_layout) {
    snprintf(why, len, "%llu dynamic uniform buffers exceed "
             "maxDynamicUniformBuffersPerPipelineLayout (%llu)", (unsigned long long)dyn_uniform,
             (unsigned long long)d->limits.max_dynamic_uniform_buffers_per_pipeline_layout);
    return 1;
  }
  if (dyn_storage > d->limits.max_dynamic_storage_buffers_per_pipeline_layout) {
    snprintf(why, len, "%llu dynamic storage buffers exceed "
             "maxDynamicStorageBuffersPerPipelineLayout (%llu)", (unsigned long long)dyn_storage,
             (unsigned long long)d->limits.max_dynamic_storage_buffers_per_pipeline_layout);
    return 1;
  }
  static const struct {
    uint32_t bit;
    const char *name, *buffers, *textures;
  } stages[] = {
      {LS_SHADER_STAGE_VERTEX, "VERTEX", "maxStorageBuffersInVertexStage",
       "maxStorageTexturesInVertexStage"},
      {LS_SHADER_STAGE_FRAGMENT, "FRAGMENT", "maxStorageBuffersInFragmentStage",
       "maxStorageTexturesInFragmentStage"},
      {LS_SHADER_STAGE_COMPUTE, "COMPUTE", "maxStorageBuffersPerShaderStage",
       "maxStorageTexturesPerShaderStage"},
  };
  for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++) {
    uint64_t storage = 0, uniform = 0, sampled = 0, stex = 0, samplers = 0;
    for (size_t g = 0; g < count; g++)
      for (size_t i = 0; groups[g] && i < groups[g]->count; i++) {
        const ls_bind_group_layout_entry *e = &groups[g]->entries[i];
        if (!(e->visibility & stages[s].bit)) continue;
        const ls_binding_type t = e->type;
        if (t == LS_BINDING_UNIFORM)
          uniform++;
        else if (t == LS_BINDING_SAMPLED_TEXTURE)
          sampled++;
        else if (api_is_storage_texture(t))
          stex++;
        else if (api_is_sampler(t))
          samplers++;
        else if (t == LS_BINDING_EXTERNAL_TEXTURE) {
          /* WebGPU counts an external texture as 4 sampled textures, 2
           * samplers and 1 uniform buffer (its planes and parameters) */
          sampled += 4;
          samplers += 2;
          uniform += 1;
        } else
          storage++;
      }
    /* the per-stage limits, in the order WebGPU's validation names them */
    const struct {
      uint64_t n, limit;
      const char *what, *name;
    } per_stage[] = {
        {sampled, d->limits.max_sampled_textures_per_shader_stage, "sampled textures",
         "maxSampledTexturesPerShaderStage"},
        {samplers, d->limits.max_samplers_per_shader_stage, "samplers",
         "maxSamplersPerShaderStage"},
        {stex, d->limits.max_storage_textures_per_shader_stage, "storage textures",
         stages[s].textures},
        {storage, d->limits.max_storage_buffers_per_shader_stage, "storage buffers",
         stages[s].buffers},
        {uniform, d->limits.max_uniform_buffers_per_shader_stage, "uniform buffers",
         "maxUniformBuffersPerShaderStage"},
    };
    for (size_t k = 0; k < sizeof per_stage / sizeof per_stage[0]; k++)
      if (per_stage[k].n > per_stage[k].limit) {
        snprintf(why, len, "%llu %s visible to the %s stage exceed %s (%llu)",
                 (unsigned long long)per_stage[k].n, per_stage[k].what, stages[s].name,
                 per_stage[k].name, (unsigned long long)per_stage[k].limit);
        return 1;
      }
  }
  return 0;
}

/* GPUTextureBindingLayout / GPUStorageTextureBindingLayout rules. */
static int api_check_texture_layout(ls_device *d, size_t i, const ls_bind_group_layout_entry *e) {
  const ls_view_dimension vd = e->view_dimension ? e->view_dimension : LS_VIEW_DIMENSION_2D;
  if ((unsigned)vd > LS_VIEW_DIMENSION_3D) {
    api_validation(d, "createBindGroupLayout: entries[%zu] (binding %u): bad viewDimension %d", i,
                   e->binding, (int)vd);
    return 0;
  }
  if (!api_is_storage_texture(e->type)) {
    if ((unsigned)e->sample_type > LS_SAMPLE_UINT) {
      api_validation(d, "createBindGroupLayout: entries[%zu] (binding %u): bad sampleType %d", i,
                     e->binding, (int)e->sample_type);
      return 0;
    }
    if (e->multisampled && (vd != LS_VIEW_DIMENSION_2D || e->sample_type == LS_SAMPLE_FLOAT)) {
      api_validation(d,
                     "createBindGroupLayout: entries[%zu] (binding %u): a multisampled texture "
                     "entry has viewDimension \"2d\" and a sampleType other than \"float\"",
                     i, e->binding);
      return 0;
    }
    return 1;
  }
  if (vd == LS_VIEW_DIMENSION_CUBE || vd == LS_VIEW_DIMENSION_CUBE_ARRAY) {
    api_validation(d,
                   "createBindGroupLayout: entries[%zu] (binding %u): a storage texture cannot "
                   "have viewDimension \"%s\"",
                   i, e->binding, api_view_dimension_name(vd));
    return 0;
  }
  const api_texfmt *f = api_format_info(e->format);
  if (!f) {
    api_validation(d,
                   "createBindGroupLayout: entries[%zu] (binding %u): a storage texture needs a "
                   "format lockstep knows (got %d)",
                   i, e->binding, (int)e->format);
    return 0;
  }
  const uint32_t acc = api_storage_access(e->type);
  if (!(api_format_storage(d, f) & acc)) {
    api_validation(d,
                   "createBindGroupLayout: entries[%zu] (binding %u): format %s does not allow "
                   "%s storage access %s",
                   i, e->binding, ls_texture_format_name(e->format),
                   api_storage_access_name(acc), api_format_storage_why(f, acc));
    return 0;
  }
  return 1;
}

ls_bind_group_layout *ls_device_create_bind_group_layout(ls_device *device,
                                                         const ls_bind_group_layout_desc *desc) {
  if (api_device_dead(device)) return NULL;
  ls_bind_group_layout_desc dd;
  if (!API_DESC(dd, desc)) {
    api_validation(device, "createBindGroupLayout: %s", API_DESC_NEWER);
    return NULL;
  }
  const ls_bind_group_layout_entry *entries = dd.entries;
  const size_t count = dd.entry_count;
  if (count && !entries) {
    api_validation(device, "createBindGroupLayout: %zu entries but no array", count);
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    const ls_bind_group_layout_entry *e = &entries[i];
    if (e->has_dynamic_offset && e->type != LS_BINDING_UNIFORM && e->type != LS_BINDING_STORAGE &&
        e->type != LS_BINDING_READ_ONLY_STORAGE) {
      api_validation(device, "createBindGroupLayout: entries[%zu] (binding %u): only buffer "
                             "entries can have a dynamic offset", i, e->binding);
      return NULL;
    }
    const uint32_t v = e->visibility;
    if (v != LS_SHADER_STAGE_NONE &&
        (v & ~(LS_SHADER_STAGE_VERTEX | LS_SHADER_STAGE_FRAGMENT | LS_SHADER_STAGE_COMPUTE))) {
      api_validation(device, "createBindGroupLayout: entries[%zu] (binding %u): visibility 0x%x "
                             "has bits outside GPUShaderStage", i, e->binding, v);
      return NULL;
    }
    /* the vertex stage has no writable storage */
    if (v != LS_SHADER_STAGE_NONE && (v & LS_SHADER_STAGE_VERTEX) &&
        (e->type == LS_BINDING_STORAGE || e->type == LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE ||
         e->type == LS_BINDING_READ_WRITE_STORAGE_TEXTURE)) {
      api_validation(device, "createBindGroupLayout: entries[%zu] (binding %u): a writable %s may "
                             "not be visible to the VERTEX stage", i, e->binding,
                     e->type == LS_BINDING_STORAGE ? "\"storage\" buffer" : "storage texture");
      return NULL;
    }
  }
  for (size_t i = 0; i < count; i++) {
    const ls_bind_group_layout_entry *e = &entries[i];
    if (e->type < LS_BINDING_UNIFORM || e->type > LS_BINDING_EXTERNAL_TEXTURE) {
      api_validation(device, "createBindGroupLayout: entries[%zu] (binding %u): bad type %d",
                     i, e->binding, (int)e->type);
      return NULL;
    }
    if (api_is_texture(e->type) && !api_check_texture_layout(device, i, e)) return NULL;
    if (e->binding >= device->limits.max_bindings_per_bind_group) {
      api_validation(device,
                     "createBindGroupLayout: binding %u is not below "
                     "maxBindingsPerBindGroup (%llu)",
                     e->binding, (unsigned long long)device->limits.max_bindings_per_bind_group);
      return NULL;
    }
    for (size_t k = 0; k < i; k++)
      if (entries[k].binding == e->binding) {
        api_validation(device, "createBindGroupLayout: binding %u appears twice", e->binding);
        return NULL;
      }
  }
  ls_bind_group_layout *l = api_bind_group_layout_new(device, entries, count, 0);
  if (l && dd.label && !api_label_init(&l->label, dd.label)) {
    api_bind_group_layout_unref(l);
    l = NULL;
  }
  if (!l) {
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createBindGroupLayout: out of memory");
    return NULL;
  }
  char why[160];
  if (api_check_slot_limits(device, &l, 1, why, sizeof why)) {
    api_validation(device, "createBindGroupLayout: %s", why);
    api_bind_group_layout_unref(l);
    return NULL;
  }
  return l;
}

void ls_bind_group_layout_release(ls_bind_group_layout *layout) {
  api_bind_group_layout_unref(layout);
}

/* -------------------------------------------------------- pipeline layout */

void api_pipeline_layout_ref(ls_pipeline_layout *l) {
  if (l) API_REF(l);
}

void api_pipeline_layout_unref(ls_pipeline_layout *l) {
  if (!l || !API_UNREF_LAST(l)) return;
  ls_device *d = l->device;
  for (size_t i = 0; i < l->count; i++) api_bind_group_layout_unref(l->groups[i]);
  free(l->groups);
  free(l->label);
  API_FREE_HANDLE(l);
  api_device_unref(d);
}

ls_pipeline_layout *ls_device_create_pipeline_layout(ls_device *device,
                                                     const ls_pipeline_layout_desc *desc) {
  if (api_device_dead(device)) return NULL;
  ls_pipeline_layout_desc dd;
  if (!API_DESC(dd, desc)) {
    api_validation(device, "createPipelineLayout: %s", API_DESC_NEWER);
    return NULL;
  }
  ls_bind_group_layout *const *groups = dd.bind_group_layouts;
  const size_t count = dd.bind_group_layout_count;
  const uint32_t immediate_size = dd.immediate_size;
  if (immediate_size % 4 || immediate_size > device->limits.max_immediate_size) {
    api_validation(device,
                   "createPipelineLayout: immediateSize %u is not a multiple of 4 at most "
                   "maxImmediateSize (%llu)",
                   immediate_size, (unsigned long long)device->limits.max_immediate_size);
    return NULL;
  }
  if (count && !groups) {
    api_validation(device, "createPipelineLayout: %zu groups but no array", count);
    return NULL;
  }
  if (count > device->limits.max_bind_groups) {
    api_validation(device, "createPipelineLayout: %zu bind group layouts exceed maxBindGroups (%llu)",
                   count, (unsigned long long)device->limits.max_bind_groups);
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    if (!groups[i]) continue;
    if (groups[i]->device != device) {
      api_validation(device, "createPipelineLayout: group %zu's layout belongs to another device",
                     i);
      return NULL;
    }
    if (groups[i]->exclusive) {
      api_validation(device,
                     "createPipelineLayout: group %zu's layout was made for a pipeline of "
                     "layout \"auto\" and can only be used with that pipeline",
                     i);
      return NULL;
    }
  }
  char why[160];
  if (api_check_slot_limits(device, groups, count, why, sizeof why)) {
    api_validation(device, "createPipelineLayout: %s", why);
    return NULL;
  }
  ls_pipeline_layout *l = calloc(1, sizeof *l);
  if (l && count) l->groups = calloc(count, sizeof *l->groups);
  if (l && dd.label) l->label = api_strdup(dd.label);
  if (!l || (count && !l->groups) || (dd.label && !l->label)) {
    if (l) {
      free(l->groups);
      free(l->label);
    }
    free(l);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createPipelineLayout: out of memory");
    return NULL;
  }
  l->device = device;
  api_device_ref(device);
  l->refs = 1;
  l->count = count;
  l->immediate_size = immediate_size;
  /* Empty layouts count as absent: no bind group is needed there. */
  for (size_t i = 0; i < count; i++)
    if (groups[i] && groups[i]->count) {
      l->groups[i] = groups[i];
      api_bind_group_layout_ref(groups[i]);
    }
  return l;
}

void ls_pipeline_layout_release(ls_pipeline_layout *layout) { api_pipeline_layout_unref(layout); }

/* ------------------------------------------------------------- bind group */

void api_bind_group_ref(ls_bind_group *g) {
  if (g) API_REF(g);
}

void api_bind_group_unref(ls_bind_group *g) {
  if (!g || !API_UNREF_LAST(g)) return;
  ls_device *d = g->device;
  for (size_t i = 0; i < g->count; i++) {
    api_buffer_unref(g->entries[i].buffer);
    api_texture_view_unref(g->entries[i].view);
    api_sampler_unref(g->entries[i].sampler);
    api_external_texture_unref(g->entries[i].external);
  }
  free(g->entries);
  free(g->label);
  api_bind_group_layout_unref(g->layout);
  API_FREE_HANDLE(g);
  api_device_unref(d);
}

const api_bind_entry *api_bind_group_find(const ls_bind_group *g, uint32_t binding) {
  if (!g) return NULL;
  for (size_t i = 0; i < g->count; i++)
    if (g->entries[i].binding == binding) return &g->entries[i];
  return NULL;
}

static int api_cmp_bind_entry(const void *a, const void *b) {
  uint32_t x = ((const api_bind_entry *)a)->binding;
  uint32_t y = ((const api_bind_entry *)b)->binding;
  return x < y ? -1 : x > y;
}

/* A texture entry against its layout entry (createBindGroup's rules for
 * GPUTextureBindingLayout and GPUStorageTextureBindingLayout). */
static int api_check_texture_entry(ls_device *d, const ls_bind_group_entry *e,
                                   const ls_bind_group_layout_entry *le, api_bind_entry *out) {
  const ls_texture_view *v = e->texture_view;
  const char *kind = api_binding_type_name(le->type);
  if (!v || e->buffer || e->sampler) {
    api_validation(d, "createBindGroup: binding %u (%s): needs a texture view and no buffer "
                      "or sampler", e->binding, kind);
    return 0;
  }
  const char *name = api_texture_name(v->texture);
  if (v->device != d) {
    api_validation(d, "createBindGroup: binding %u: the view of texture '%s' belongs to another "
                      "device", e->binding, name);
    return 0;
  }
  if (v->dimension != le->view_dimension) {
    api_validation(d, "createBindGroup: binding %u (%s): the view of texture '%s' is \"%s\", "
                      "the layout's viewDimension is \"%s\"",
                   e->binding, kind, name, api_view_dimension_name(v->dimension),
                   api_view_dimension_name(le->view_dimension));
    return 0;
  }
  const api_texfmt *f = api_format_info(v->format);
  if (le->type == LS_BINDING_SAMPLED_TEXTURE) {
    if (!(v->usage & LS_TEXTURE_USAGE_TEXTURE_BINDING)) {
      api_validation(d, "createBindGroup: binding %u (texture): the view of texture '%s' lacks "
                        "TEXTURE_BINDING usage", e->binding, name);
      return 0;
    }
    if (f->aspects == (API_ASPECT_DEPTH | API_ASPECT_STENCIL)) {
      api_validation(d, "createBindGroup: binding %u (texture): texture '%s' is %s, and a view "
                        "of both its aspects cannot be bound (bind a \"depth-only\" or "
                        "\"stencil-only\" view)",
                     e->binding, name, ls_texture_format_name(v->format));
      return 0;
    }
    if ((v->texture->samples > 1) != (le->multisampled != 0)) {
      api_validation(d, "createBindGroup: binding %u (texture): texture '%s' has sampleCount %u, "
                        "the layout entry is %smultisampled",
                     e->binding, name, v->texture->samples, le->multisampled ? "" : "not ");
      return 0;
    }
    if (!(api_format_sample_types(d, f) & (1u << le->sample_type))) {
      api_validation(d, "createBindGroup: binding %u (texture): format %s of texture '%s' is not "
                        "compatible with sampleType \"%s\"",
                     e->binding, ls_texture_format_name(v->format), name,
                     api_sample_type_name(le->sample_type));
      return 0;
    }
  } else {
    if (!(v->usage & LS_TEXTURE_USAGE_STORAGE_BINDING)) {
      api_validation(d, "createBindGroup: binding %u (%s): the view of texture '%s' lacks "
                        "STORAGE_BINDING usage", e->binding, kind, name);
      return 0;
    }
    if (v->format != le->format) {
      api_validation(d, "createBindGroup: binding %u (%s): texture '%s' is %s, the layout's "
                        "format is %s",
                     e->binding, kind, name, ls_texture_format_name(v->format),
                     ls_texture_format_name(le->format));
      return 0;
    }
    if (v->levels != 1) {
      api_validation(d, "createBindGroup: binding %u (%s): the view of texture '%s' has %u mip "
                        "levels; a storage texture view has exactly 1",
                     e->binding, kind, name, v->levels);
      return 0;
    }
  }
  memset(out, 0, sizeof *out);
  out->binding = e->binding;
  out->type = le->type;
  out->view = (ls_texture_view *)v;
  return 1;
}

/* A sampler entry against its layout entry (createBindGroup's rules for
 * GPUSamplerBindingLayout: a filtering layout takes no comparison sampler,
 * a non-filtering one neither a comparison nor a filtering sampler, a
 * comparison layout only comparison samplers). */
static int api_check_sampler_entry(ls_device *d, const ls_bind_group_entry *e,
                                   const ls_bind_group_layout_entry *le, api_bind_entry *out) {
  const ls_sampler *s = e->sampler;
  const char *kind = api_binding_type_name(le->type);
  if (!s || e->buffer || e->texture_view) {
    api_validation(d, "createBindGroup: binding %u (%s): needs a sampler and no buffer or "
                      "texture view", e->binding, kind);
    return 0;
  }
  const char *name = api_sampler_name(s);
  if (s->device != d) {
    api_validation(d, "createBindGroup: binding %u: sampler '%s' belongs to another device",
                   e->binding, name);
    return 0;
  }
  const char *why = NULL;
  if (le->type == LS_BINDING_COMPARISON_SAMPLER && !s->is_comparison)
    why = "is not a comparison sampler (it has no compare function)";
  else if (le->type != LS_BINDING_COMPARISON_SAMPLER && s->is_comparison)
    why = "is a comparison sampler";
  else if (le->type == LS_BINDING_NON_FILTERING_SAMPLER && s->is_filtering)
    why = "filters (a linear magFilter, minFilter or mipmapFilter)";
  if (why) {
    api_validation(d, "createBindGroup: binding %u (%s): sampler '%s' %s", e->binding, kind, name,
                   why);
    return 0;
  }
  memset(out, 0, sizeof *out);
  out->binding = e->binding;
  out->type = le->type;
  out->sampler = (ls_sampler *)s;
  return 1;
}

/* A texture view bound where the layout wants an external texture
 * (WebGPU's createBindGroup allows it): a 2d view of one level of a
 * single-sampled rgba8unorm, bgra8unorm or rgba16float texture, with
 * TEXTURE_BINDING; the shader reads it as a one-plane frame. */
static int api_check_external_view(ls_device *d, const ls_bind_group_entry *e,
                                   const ls_bind_group_layout_entry *le, api_bind_entry *out) {
  const ls_texture_view *v = e->texture_view;
  const char *tn = api_texture_name(v->texture), *why = NULL;
  if (v->device != d) why = "belongs to another device";
  else if (!(v->usage & LS_TEXTURE_USAGE_TEXTURE_BINDING)) why = "lacks TEXTURE_BINDING usage";
  else if (v->dimension != LS_VIEW_DIMENSION_2D) why = "is not a \"2d\" view";
  else if (v->levels != 1) why = "has more than one mip level (mipLevelCount must be 1)";
  else if (v->format != LS_FORMAT_RGBA8UNORM && v->format != LS_FORMAT_BGRA8UNORM &&
           v->format != LS_FORMAT_RGBA16FLOAT)
    why = "is not rgba8unorm, bgra8unorm or rgba16float";
  else if (v->texture->samples != 1) why = "is of a multisampled texture";
  if (why) {
    api_validation(d, "createBindGroup: binding %u (externalTexture): the view of texture '%s' %s",
                   e->binding, tn, why);
    return 0;
  }
  memset(out, 0, sizeof *out);
  out->binding = e->binding;
  out->type = le->type;
  out->view = (ls_texture_view *)v;
  return 1;
}

/* Checks one entry against its layout entry; on success fills *out. */
static int api_check_bind_entry(ls_device *d, const ls_bind_group_entry *e,
                                const ls_bind_group_layout_entry *le, api_bind_entry *out) {
  const ls_limits *lim = &d->limits;
  if (api_is_texture(le->type)) return api_check_texture_entry(d, e, le, out);
  if (api_is_sampler(le->type)) return api_check_sampler_entry(d, e, le, out);
  if (le->type == LS_BINDING_EXTERNAL_TEXTURE) {
    const ls_external_texture *x = e->external_texture;
    if (!x == !e->texture_view || e->buffer || e->sampler) {
      api_validation(d, "createBindGroup: binding %u (externalTexture): needs an external texture "
                        "or a texture view, and nothing else", e->binding);
      return 0;
    }
    if (!x) return api_check_external_view(d, e, le, out);
    if (x->device != d) {
      api_validation(d, "createBindGroup: binding %u: external texture '%s' belongs to another "
                        "device", e->binding, x->label ? x->label : "(unlabelled)");
      return 0;
    }
    memset(out, 0, sizeof *out);
    out->binding = e->binding;
    out->type = le->type;
    out->external = (ls_external_texture *)x;
    out->view = x->view;
    return 1;
  }
  if (e->external_texture) {
    api_validation(d, "createBindGroup: binding %u (%s): an external texture where the layout "
                      "wants something else", e->binding, api_binding_type_name(le->type));
    return 0;
  }
  if (e->sampler) {
    api_validation(d, "createBindGroup: binding %u (%s): a sampler where the layout wants a "
                      "buffer", e->binding, api_binding_type_name(le->type));
    return 0;
  }
  if (e->texture_view) {
    api_validation(d, "createBindGroup: binding %u (%s): a texture view where the layout wants a "
                      "buffer", e->binding, api_binding_type_name(le->type));
    return 0;
  }
  ls_buffer *b = e->buffer;
  if (!b) {
    api_validation(d, "createBindGroup: binding %u: no buffer", e->binding);
    return 0;
  }
  const char *name = api_buffer_name(b);
  if (b->device != d) {
    api_validation(d, "createBindGroup: binding %u: buffer '%s' belongs to another device",
                   e->binding, name);
    return 0;
  }
  if (e->offset > b->size) {
    api_validation(d, "createBindGroup: binding %u: offset %llu is past the end of buffer '%s' "
                      "(%llu bytes)",
                   e->binding, (unsigned long long)e->offset, name, (unsigned long long)b->size);
    return 0;
  }
  uint64_t size = e->size == LS_WHOLE_SIZE ? b->size - e->offset : e->size;
  if (size > b->size - e->offset) {
    api_validation(d, "createBindGroup: binding %u: range [%llu, %llu) is outside buffer '%s' "
                      "(%llu bytes)",
                   e->binding, (unsigned long long)e->offset,
                   (unsigned long long)(e->offset + size), name, (unsigned long long)b->size);
    return 0;
  }
  if (size == 0) {
    api_validation(d, "createBindGroup: binding %u: buffer '%s' is bound with size 0",
                   e->binding, name);
    return 0;
  }
  if (size < le->min_binding_size) {
    api_validation(d, "createBindGroup: binding %u: buffer '%s' is bound with %llu bytes, "
                      "less than the layout's minBindingSize (%llu)",
                   e->binding, name, (unsigned long long)size,
                   (unsigned long long)le->min_binding_size);
    return 0;
  }
  if (le->type == LS_BINDING_UNIFORM) {
    if (!(b->usage & LS_BUFFER_USAGE_UNIFORM)) {
      api_validation(d, "createBindGroup: binding %u (uniform): buffer '%s' lacks UNIFORM usage",
                     e->binding, name);
      return 0;
    }
    if (size > lim->max_uniform_buffer_binding_size) {
      api_validation(d, "createBindGroup: binding %u: %llu bytes of buffer '%s' exceed "
                        "maxUniformBufferBindingSize (%llu)",
                     e->binding, (unsigned long long)size, name,
                     (unsigned long long)lim->max_uniform_buffer_binding_size);
      return 0;
    }
    if (e->offset % lim->min_uniform_buffer_offset_alignment) {
      api_validation(d, "createBindGroup: binding %u: offset %llu into buffer '%s' is not a "
                        "multiple of minUniformBufferOffsetAlignment (%llu)",
                     e->binding, (unsigned long long)e->offset, name,
                     (unsigned long long)lim->min_uniform_buffer_offset_alignment);
      return 0;
    }
  } else {
    if (!(b->usage & LS_BUFFER_USAGE_STORAGE)) {
      api_validation(d, "createBindGroup: binding %u (%s): buffer '%s' lacks STORAGE usage",
                     e->binding, api_binding_type_name(le->type), name);
      return 0;
    }
    if (size > lim->max_storage_buffer_binding_size) {
      api_validation(d, "createBindGroup: binding %u: %llu bytes of buffer '%s' exceed "
                        "maxStorageBufferBindingSize (%llu)",
                     e->binding, (unsigned long long)size, name,
                     (unsigned long long)lim->max_storage_buffer_binding_size);
      return 0;
    }
    if (size % 4) {
      api_validation(d, "createBindGroup: binding %u: storage binding size %llu of buffer '%s' "
                        "is not a multiple of 4",
                     e->binding, (unsigned long long)size, name);
      return 0;
    }
    if (e->offset % lim->min_storage_buffer_offset_alignment) {
      api_validation(d, "createBindGroup: binding %u: offset %llu into buffer '%s' is not a "
                        "multiple of minStorageBufferOffsetAlignment (%llu)",
                     e->binding, (unsigned long long)e->offset, name,
                     (unsigned long long)lim->min_storage_buffer_offset_alignment);
      return 0;
    }
  }
  out->binding = e->binding;
  out->type = le->type;
  out->buffer = b;
  out->offset = e->offset;
  out->size = size;
  return 1;
}

ls_bind_group *ls_device_create_bind_group(ls_device *device, const ls_bind_group_desc *desc) {
  if (api_device_dead(device)) return NULL;
  ls_bind_group_desc dd;
  if (!API_DESC(dd, desc)) {
    api_validation(device, "createBindGroup: %s", API_DESC_NEWER);
    return NULL;
  }
  ls_bind_group_layout *layout = dd.layout;
  const ls_bind_group_entry *entries = dd.entries;
  const size_t count = dd.entry_count;
  if (!layout) {
    api_validation(device, "createBindGroup: no layout");
    return NULL;
  }
  if (layout->device != device) {
    api_validation(device, "createBindGroup: the layout belongs to another device");
    return NULL;
  }
  if (count && !entries) {
    api_validation(device, "createBindGroup: %zu entries but no array", count);
    return NULL;
  }
  if (count != layout->count) {
    api_validation(device, "createBindGroup: %zu entries given, the layout has %zu", count,
                   layout->count);
    return NULL;
  }
  api_bind_entry *out = count ? calloc(count, sizeof *out) : NULL;
  ls_bind_group *g = calloc(1, sizeof *g);
  if (g && dd.label) g->label = api_strdup(dd.label);
  if (!g || (count && !out) || (dd.label && !g->label)) {
    free(out);
    if (g) free(g->label);
    free(g);
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createBindGroup: out of memory");
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    const ls_bind_group_entry *e = &entries[i];
    const ls_bind_group_layout_entry *le = api_bind_group_layout_find(layout, e->binding);
    int ok = 1;
    if (!le) {
      api_validation(device, "createBindGroup: binding %u is not in the layout", e->binding);
      ok = 0;
    }
    for (size_t k = 0; ok && k < i; k++)
      if (entries[k].binding == e->binding) {
        api_validation(device, "createBindGroup: binding %u appears twice", e->binding);
        ok = 0;
      }
    if (!ok || !api_check_bind_entry(device, e, le, &out[i])) {
      free(out);
      free(g->label);
      free(g);
      return NULL;
    }
  }
  if (count) qsort(out, count, sizeof *out, api_cmp_bind_entry);
  for (size_t i = 0; i < count; i++) {
    api_buffer_ref(out[i].buffer);
    api_texture_view_ref(out[i].view);
    api_sampler_ref(out[i].sampler);
    api_external_texture_ref(out[i].external);
  }
  g->device = device;
  api_device_ref(device);
  g->refs = 1;
  g->layout = layout;
  api_bind_group_layout_ref(layout);
  g->entries = out;
  g->count = count;
  /* setBindGroup's offsets go to the dynamic entries in binding order */
  for (size_t i = 0; i < count; i++) {
    const ls_bind_group_layout_entry *le = api_bind_group_layout_find(layout, out[i].binding);
    out[i].dynamic_index = le && le->has_dynamic_offset ? (int32_t)g->dynamic_count++ : -1;
  }
  return g;
}

void ls_bind_group_release(ls_bind_group *group) { api_bind_group_unref(group); }
