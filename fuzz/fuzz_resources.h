/*
 * fuzz_resources.h — running a shader nobody wrote inputs for, shared by
 * fuzz/corpus_run.c (Dawn's corpus under the sanitizers) and
 * fuzz/fuzz_run.c (libFuzzer's inputs): each compute entry point goes
 * through createComputePipeline with layout "auto" (or, where WebGPU
 * rejects that for a sampler used with a depth or integer texture, an
 * explicit layout with non-filtering samplers), gets a resource made to
 * fit each entry of that layout (a zeroed buffer of 4 KiB or its minimum
 * size, a 4x4 texture with 3 mip levels, or 6 layers for cubes, of a
 * format the entry accepts, filled with a pattern, or multisampled and
 * zero; a sampler of the entry's type; an imported 4x4 frame for an
 * external texture) and is dispatched through the public API. The layout
 * is read from the pipeline's internals (api/api.h), which lockstep.h
 * keeps opaque. Header-only, since each tool is built on its own.
 */
#ifndef LOCKSTEP_FUZZ_RESOURCES_H
#define LOCKSTEP_FUZZ_RESOURCES_H

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "ir/lower.h"

/* A format a sampled-texture entry of this sample type accepts. */
static ls_texture_format fz_sampled_format(ls_texture_sample_type t) {
  switch (t) {
  case LS_SAMPLE_FLOAT: return LS_FORMAT_RGBA16FLOAT;
  case LS_SAMPLE_UNFILTERABLE_FLOAT: return LS_FORMAT_R32FLOAT;
  case LS_SAMPLE_DEPTH: return LS_FORMAT_DEPTH16UNORM;
  case LS_SAMPLE_SINT: return LS_FORMAT_RGBA8SINT;
  default: return LS_FORMAT_R32UINT;
  }
}

/* The resource for one layout entry, into *e; 0 when none could be made. */
static int fz_make_resource(ls_device *d, const ls_bind_group_layout_entry *le,
                         ls_bind_group_entry *e, void **own, ls_texture **tex, int *kind) {
  memset(e, 0, sizeof *e);
  e->binding = le->binding;
  if (le->type == LS_BINDING_EXTERNAL_TEXTURE) { /* a 4x4 rgba8unorm frame */
    ls_texture_desc td;
    memset(&td, 0, sizeof td);
    td.format = LS_FORMAT_RGBA8UNORM;
    td.size = (ls_extent3d){4, 4, 1};
    td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING;
    ls_texture *t = ls_device_create_texture(d, &td);
    ls_texture_view *v = t ? ls_texture_create_view(t, NULL) : NULL;
    ls_external_texture_desc xd = {.view = v, .label = "frame"};
    e->external_texture = v ? ls_device_import_external_texture(d, &xd) : NULL;
    ls_texture_view_release(v); /* the external texture holds it */
    *tex = t;
    *own = e->external_texture;
    *kind = 3;
    return e->external_texture != NULL;
  }
  if (le->type >= LS_BINDING_FILTERING_SAMPLER) {
    ls_sampler_desc sd = LS_SAMPLER_DESC_DEFAULT;
    if (le->type == LS_BINDING_FILTERING_SAMPLER)
      sd.mag_filter = sd.min_filter = sd.mipmap_filter = LS_FILTER_LINEAR;
    if (le->type == LS_BINDING_COMPARISON_SAMPLER) sd.compare = LS_COMPARE_LESS;
    sd.address_mode_u = LS_ADDRESS_REPEAT;
    sd.address_mode_v = LS_ADDRESS_MIRROR_REPEAT;
    e->sampler = ls_device_create_sampler(d, &sd);
    *own = e->sampler;
    *kind = 2;
    return e->sampler != NULL;
  }
  if (le->type >= LS_BINDING_SAMPLED_TEXTURE) {
    const int storage = le->type != LS_BINDING_SAMPLED_TEXTURE;
    const ls_view_dimension vd = le->view_dimension ? le->view_dimension : LS_VIEW_DIMENSION_2D;
    ls_texture_desc td;
    memset(&td, 0, sizeof td);
    td.format = storage ? le->format : fz_sampled_format(le->sample_type);
    td.dimension = vd == LS_VIEW_DIMENSION_1D   ? LS_TEXTURE_DIMENSION_1D
                   : vd == LS_VIEW_DIMENSION_3D ? LS_TEXTURE_DIMENSION_3D
                                                : LS_TEXTURE_DIMENSION_2D;
    td.size = (ls_extent3d){4, vd == LS_VIEW_DIMENSION_1D ? 1u : 4u,
                            vd == LS_VIEW_DIMENSION_CUBE         ? 6u
                            : vd == LS_VIEW_DIMENSION_CUBE_ARRAY ? 12u
                            : vd == LS_VIEW_DIMENSION_2D_ARRAY   ? 3u
                            : vd == LS_VIEW_DIMENSION_3D         ? 4u
                                                                 : 1u};
    td.mip_level_count = storage || vd == LS_VIEW_DIMENSION_1D || le->multisampled ? 1 : 3;
    td.usage = (storage ? LS_TEXTURE_USAGE_STORAGE_BINDING : LS_TEXTURE_USAGE_TEXTURE_BINDING) |
               LS_TEXTURE_USAGE_COPY_DST;
    if (le->multisampled) { /* zeros: nothing copies into a multisampled texture */
      td.sample_count = 4;
      td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_RENDER_ATTACHMENT;
      if (td.format == LS_FORMAT_R32UINT) td.format = LS_FORMAT_RGBA8UINT; /* r32uint does not */
    }
    ls_texture *t = ls_device_create_texture(d, &td);
    if (!t) return 0;
    /* a pattern in level 0 where the format can be written */
    const uint32_t bytes = ls_texture_format_texel_bytes(td.format);
    const size_t n = (size_t)bytes * 4 * td.size.height * td.size.depth_or_array_layers;
    uint8_t *px = malloc(n ? n : 1);
    for (size_t i = 0; px && i < n; i++) px[i] = (uint8_t)(i * 37 + 11);
    ls_texel_copy_texture_info dst = {t, 0, {0, 0, 0}, LS_ASPECT_ALL};
    ls_texel_copy_buffer_layout lay = {0, bytes * 4, td.size.height};
    if (px && bytes && !le->multisampled)
      (void)ls_queue_write_texture(d, &dst, px, n, &lay, &td.size);
    free(px);
    ls_texture_view_desc v;
    memset(&v, 0, sizeof v);
    v.dimension = vd;
    e->texture_view = ls_texture_create_view(t, &v);
    *tex = t;
    *own = e->texture_view;
    *kind = 1;
    return e->texture_view != NULL;
  }
  uint64_t size = le->min_binding_size > 4096 ? le->min_binding_size : 4096;
  if (le->type == LS_BINDING_UNIFORM && size > 65536) size = le->min_binding_size;
  ls_buffer_desc bd = {.size = (size + 3) / 4 * 4, .usage = le->type == LS_BINDING_UNIFORM ? LS_BUFFER_USAGE_UNIFORM
                                                      : LS_BUFFER_USAGE_STORAGE, .label = "b"};
  e->buffer = ls_device_create_buffer(d, &bd);
  e->size = LS_WHOLE_SIZE;
  *own = e->buffer;
  *kind = 0;
  return e->buffer != NULL;
}

static void fz_release(void *own, ls_texture *tex, int kind) {
  if (kind == 3) ls_external_texture_release(own);
  else if (kind == 2) ls_sampler_release(own);
  else if (kind == 1) ls_texture_view_release(own);
  else ls_buffer_release(own);
  ls_texture_release(tex);
}

/* For shaders layout "auto" cannot serve (a `sampler` with a depth or
 * integer texture, which needs a "non-filtering" entry): an explicit
 * layout from the program's bindings, every sampler non-filtering and
 * every f32 texture unfilterable. */
static ls_pipeline_layout *fz_explicit_layout(ls_device *d, ls_shader_module *m, const char *entry) {
  diag_list dl;
  diag_init(&dl);
  ir_program *p = lower_pipeline(m->module, entry, NULL, 0, &d->limits, &dl);
  diag_free(&dl);
  if (!p) return NULL;
  ls_bind_group_layout *g[4] = {0};
  uint32_t ng = 0, immediate = 0;
  for (uint32_t i = 0; i < p->nbindings; i++)
    if (p->bindings[i].kind == IR_BIND_IMMEDIATE)
      immediate = (uint32_t)(p->bindings[i].min_size + 3) / 4 * 4;
  for (uint32_t gi = 0; gi < 4; gi++) {
    ls_bind_group_layout_entry le[64];
    size_t n = 0;
    for (uint32_t i = 0; i < p->nbindings && n < 64; i++) {
      const ir_binding *b = &p->bindings[i];
      if (b->group != gi || b->kind == IR_BIND_IMMEDIATE) continue;
      static const ls_binding_type types[] = {
          [IR_BIND_UNIFORM] = LS_BINDING_UNIFORM,
          [IR_BIND_STORAGE] = LS_BINDING_STORAGE,
          [IR_BIND_READ_ONLY_STORAGE] = LS_BINDING_READ_ONLY_STORAGE,
          [IR_BIND_SAMPLED_TEXTURE] = LS_BINDING_SAMPLED_TEXTURE,
          [IR_BIND_WRITE_ONLY_STORAGE_TEXTURE] = LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE,
          [IR_BIND_READ_ONLY_STORAGE_TEXTURE] = LS_BINDING_READ_ONLY_STORAGE_TEXTURE,
          [IR_BIND_READ_WRITE_STORAGE_TEXTURE] = LS_BINDING_READ_WRITE_STORAGE_TEXTURE,
          [IR_BIND_SAMPLER] = LS_BINDING_NON_FILTERING_SAMPLER,
          [IR_BIND_COMPARISON_SAMPLER] = LS_BINDING_COMPARISON_SAMPLER};
      memset(&le[n], 0, sizeof le[n]);
      le[n].binding = b->binding;
      le[n].type = types[b->kind];
      if (IR_BIND_IS_TEXTURE(b->kind)) le[n].view_dimension = (ls_view_dimension)b->tex_dim;
      if (b->kind == IR_BIND_SAMPLED_TEXTURE)
        le[n].sample_type = b->tex_sample == IR_TEXS_I32     ? LS_SAMPLE_SINT
                            : b->tex_sample == IR_TEXS_U32   ? LS_SAMPLE_UINT
                            : b->tex_sample == IR_TEXS_DEPTH ? LS_SAMPLE_DEPTH
                                                             : LS_SAMPLE_UNFILTERABLE_FLOAT;
      else if (IR_BIND_IS_TEXTURE(b->kind))
        le[n].format = (ls_texture_format)b->tex_format;
      n++;
    }
    if (n) {
      g[gi] = ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = le, .entry_count = n});
      ng = gi + 1;
    }
  }
  ir_program_free(p);
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(d, &(ls_pipeline_layout_desc){.bind_group_layouts = g, .bind_group_layout_count = ng, .immediate_size = immediate});
  for (uint32_t gi = 0; gi < 4; gi++) ls_bind_group_layout_release(g[gi]);
  return pl;
}

/* FNV-1a of n bytes, continuing from h. */
static uint64_t fz_hash(uint64_t h, const void *data, size_t n) {
  const uint8_t *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
  return h;
}

/* Creates entry point `entry`'s pipeline, a resource for each entry of its
 * layout, and dispatches `groups` workgroups; returns 1 when it ran, 0 when
 * refused (last_error is where the device's error callback writes, read to
 * see why). With digest, *digest becomes a hash of every buffer's bytes
 * after the dispatch, in binding order. */
static int fz_run_entry(ls_device *d, ls_shader_module *m, const char *entry,
                        const uint32_t groups[3], const char *last_error, uint64_t *digest) {
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  pd.entry_point = entry;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  if (!p && strstr(last_error, "is a filtering sampler")) {
    pd.layout = fz_explicit_layout(d, m, entry);
    if (pd.layout) p = ls_device_create_compute_pipeline(d, &pd);
    ls_pipeline_layout_release(pd.layout);
  }
  if (!p) return 0;
  ls_bind_group *bgs[8] = {0};
  void *own[8][64];
  ls_texture *tex[8][64] = {{0}};
  int kinds[8][64], nown[8] = {0};
  int ok = 1;
  const ls_pipeline_layout *pl = p->layout;
  for (size_t g = 0; ok && g < pl->count && g < 8; g++) {
    const ls_bind_group_layout *l = pl->groups[g];
    if (!l) continue;
    ls_bind_group_entry be[64];
    for (size_t i = 0; ok && i < l->count && i < 64; i++) {
      ok = fz_make_resource(d, &l->entries[i], &be[i], &own[g][i], &tex[g][i], &kinds[g][i]);
      if (ok) nown[g]++;
    }
    if (ok) ok = (bgs[g] = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = (ls_bind_group_layout *)l, .entries = be, .entry_count = l->count})) != NULL;
  }
  if (ok) {
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    for (uint32_t g = 0; g < pl->count && g < 8; g++)
      if (bgs[g]) ls_compute_pass_set_bind_group(pass, g, bgs[g], NULL, 0);
    static const uint8_t zeros[64];
    ls_compute_pass_set_immediates(pass, 0, zeros, sizeof zeros); /* any var<immediate> */
    ls_compute_pass_dispatch_workgroups(pass, groups[0], groups[1], groups[2]);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    if (cb) (void)ls_queue_submit(d, &cb, 1);
    ls_command_buffer_release(cb);
  }
  if (digest) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t g = 0; g < 8; g++)
      for (int i = 0; i < nown[g]; i++)
        if (kinds[g][i] == 0) {
          const ls_buffer *b = own[g][i];
          if (b->data) h = fz_hash(h, b->data, (size_t)b->size);
        }
    *digest = h;
  }
  for (size_t g = 0; g < 8; g++) {
    ls_bind_group_release(bgs[g]);
    for (int i = 0; i < nown[g]; i++) fz_release(own[g][i], tex[g][i], kinds[g][i]);
  }
  ls_compute_pipeline_release(p);
  return ok;
}

#endif
