/*
 * cli_texture.c — textures of case files for `lockstep run`. A case
 * describes a texture as a buffer entry of kind "none" with a "texture"
 * object, so runners that know no textures still read the file; its words
 * are the texels of mip level 0 (or of every level, "initLevels": "all"),
 * layer after layer, rows tightly packed. A sampler is an entry of kind
 * "none" with a "sampler" object.
 * They go in with writeTexture (unless the entry has no "init") and come
 * back through copyTextureToBuffer
 * into a staging buffer with 256-byte rows (WebGPU's bytesPerRow rule),
 * repacked here.
 */
#include "cli_texture.h"

#include <stdlib.h>
#include <string.h>

/* Level lv's extent, and its tight rows' bytes. */
static ls_extent3d cli_level_size(const case_buffer *b, uint32_t lv) {
  ls_extent3d e = {b->tex_size[0] >> lv, b->tex_size[1] >> lv, b->tex_size[2]};
  if (b->tex_dim == LS_TEXTURE_DIMENSION_3D) e.depth_or_array_layers >>= lv;
  if (!e.width) e.width = 1;
  if (!e.height) e.height = 1;
  if (!e.depth_or_array_layers) e.depth_or_array_layers = 1;
  return e;
}

static uint32_t cli_levels(const case_buffer *b) { return b->tex_all_levels ? b->tex_levels : 1; }

int cli_texture_create(ls_device *dev, const case_buffer *b, ls_texture **tex,
                       ls_texture_view **view) {
  ls_texture_desc td;
  memset(&td, 0, sizeof td);
  td.dimension = b->tex_dim;
  td.size = (ls_extent3d){b->tex_size[0], b->tex_size[1], b->tex_size[2]};
  td.format = b->tex_format;
  td.mip_level_count = b->tex_levels;
  td.sample_count = b->tex_samples;
  td.usage = LS_TEXTURE_USAGE_COPY_SRC | LS_TEXTURE_USAGE_COPY_DST |
             (b->tex_binding == LS_BINDING_SAMPLED_TEXTURE ? LS_TEXTURE_USAGE_TEXTURE_BINDING
                                                           : LS_TEXTURE_USAGE_STORAGE_BINDING);
  /* multisampling needs RENDER_ATTACHMENT; such a texture is never copied */
  if (b->tex_samples > 1)
    td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_RENDER_ATTACHMENT;
  td.label = b->name;
  *tex = ls_device_create_texture(dev, &td);
  if (!*tex) return 0;
  /* without "init" the texture keeps the zeros of creation: the way to use
   * the formats that are no copy destination (depth32float, depth24plus) */
  const uint8_t *src = (const uint8_t *)b->init;
  for (uint32_t lv = 0; b->has_init && lv < cli_levels(b); lv++) {
    const ls_extent3d e = cli_level_size(b, lv);
    ls_texel_copy_texture_info dst = {*tex, lv, {0, 0, 0}, LS_ASPECT_ALL};
    ls_texel_copy_buffer_layout lay = {0, e.width * ls_texture_format_texel_bytes(b->tex_format),
                                       e.height};
    const uint64_t bytes = case_texture_level_bytes(b, lv);
    if (ls_queue_write_texture(dev, &dst, src, (size_t)bytes, &lay, &e) != LS_OK) return 0;
    src += bytes;
  }
  ls_texture_view_desc vd;
  memset(&vd, 0, sizeof vd);
  vd.dimension = b->tex_view_dim;
  /* a storage binding sees one mip level */
  if (b->tex_binding != LS_BINDING_SAMPLED_TEXTURE) vd.mip_level_count = 1;
  vd.label = b->name;
  *view = ls_texture_create_view(*tex, &vd);
  return *view != NULL;
}

/* Level lv into words (tightly packed rows). */
static int cli_read_level(ls_device *dev, const case_buffer *b, ls_texture *tex, uint32_t lv,
                          uint8_t *out) {
  const ls_extent3d e = cli_level_size(b, lv);
  const uint32_t row = e.width * ls_texture_format_texel_bytes(b->tex_format),
                 bpr = (row + 255) / 256 * 256;
  const uint64_t rows = (uint64_t)e.height * e.depth_or_array_layers;
  ls_buffer_desc bd = {.size = rows * bpr, .usage = LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC, .label = "readback"};
  ls_buffer *stage = ls_device_create_buffer(dev, &bd);
  uint8_t *tmp = malloc((size_t)(rows * bpr));
  int ok = stage && tmp;
  if (ok) {
    ls_command_encoder *enc = ls_device_create_command_encoder(dev, NULL);
    ls_texel_copy_texture_info src = {tex, lv, {0, 0, 0}, LS_ASPECT_ALL};
    ls_texel_copy_buffer_layout lay = {0, bpr, e.height};
    ls_command_encoder_copy_texture_to_buffer(enc, &src, stage, &lay, &e);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    ok = cb && ls_queue_submit(dev, &cb, 1) == LS_OK &&
         ls_queue_read_buffer(dev, stage, 0, tmp, (size_t)(rows * bpr)) == LS_OK;
    ls_command_buffer_release(cb);
  }
  for (uint64_t r = 0; ok && r < rows; r++) memcpy(out + r * row, tmp + r * bpr, row);
  free(tmp);
  ls_buffer_release(stage);
  return ok;
}

int cli_texture_read(ls_device *dev, const case_buffer *b, ls_texture *tex, uint32_t *words) {
  uint8_t *out = (uint8_t *)words;
  for (uint32_t lv = 0; lv < cli_levels(b); lv++) {
    if (!cli_read_level(dev, b, tex, lv, out)) return 0;
    out += case_texture_level_bytes(b, lv);
  }
  return 1;
}

void cli_texture_layout_entry(const case_buffer *b, ls_bind_group_layout_entry *le) {
  memset(le, 0, sizeof *le);
  le->binding = b->binding;
  if (b->is_sampler) {
    le->type = b->smp_binding;
    return;
  }
  le->type = b->tex_binding;
  le->view_dimension = b->tex_view_dim;
  if (b->tex_binding == LS_BINDING_SAMPLED_TEXTURE) {
    le->sample_type = b->tex_sample;
    le->multisampled = b->tex_samples > 1;
  }
  else le->format = b->tex_format;
}
