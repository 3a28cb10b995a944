/*
 * case2.h — a version-2 case file (wgsl-compute-case/2,
 * docs/case-format.md) as a plan: the named objects to create, in arrays,
 * and the commands to replay in order, every name resolved to an index and
 * every range checked (case2.c). The replay (runner2.c) turns the plan into
 * public API calls.
 */
#ifndef LS_CLI_CASE2_H
#define LS_CLI_CASE2_H

#include <stddef.h>
#include <stdint.h>

#include "case.h"

/* No object: a pipeline layout's null group, an absent optional name. */
#define CASE2_NONE ((size_t)-1)

typedef struct case2_module {
  char *name;
  char *label; /* what diagnostics name it: the file as the user opens it,
                  the "label", or "modules.NAME" */
  char *code;
  size_t code_len;
} case2_module;

typedef struct case2_buffer {
  char *name;
  char *label; /* NULL: the name */
  uint64_t size;
  uint32_t usage;
  json_t *type; /* as written, NULL: u32 */
  case_word *rec;
  size_t rec_len;
  uint32_t *init; /* size / 4 words; NULL: zeros */
} case2_buffer;

typedef struct case2_texture {
  char *name;
  char *label;
  ls_texture_desc desc;
  json_t *type; /* the word type of its inline texels (default u32) */
  case_word *rec;
  size_t rec_len;
  uint32_t *init; /* level 0, tightly packed; NULL: zeros */
  size_t init_bytes;
} case2_texture;

typedef struct case2_sampler {
  char *name;
  ls_sampler_desc desc;
} case2_sampler;

typedef struct case2_layout {
  char *name;
  ls_bind_group_layout_entry *entries;
  size_t nentries;
} case2_layout;

typedef struct case2_playout {
  char *name;
  size_t *groups; /* layout indices, CASE2_NONE for null */
  size_t ngroups;
  uint32_t immediate_size;
} case2_playout;

typedef struct case2_pipeline {
  char *name;
  size_t module;
  char *entry; /* NULL: the only one */
  ls_constant_entry *constants;
  size_t nconstants;
  size_t layout; /* pipeline layout index; CASE2_NONE: "auto" */
} case2_pipeline;

typedef enum case2_res { CASE2_RES_BUFFER, CASE2_RES_TEXTURE, CASE2_RES_SAMPLER } case2_res;

typedef struct case2_entry {
  uint32_t binding;
  case2_res res;
  size_t obj;           /* index into buffers, textures or samplers */
  uint64_t offset, size; /* buffers; size LS_WHOLE_SIZE: the rest */
  int has_view;
  ls_texture_view_desc view;
} case2_entry;

typedef struct case2_group {
  char *name;
  int from_pipeline; /* layout: getBindGroupLayout(group) of pipeline `layout` */
  size_t layout;
  uint32_t group;
  case2_entry *entries;
  size_t nentries;
} case2_group;

typedef enum case2_op {
  CASE2_WRITE_BUFFER,
  CASE2_WRITE_TEXTURE,
  CASE2_DISPATCH,
  CASE2_DISPATCH_INDIRECT,
  CASE2_COPY_B2B,
  CASE2_COPY_B2T,
  CASE2_COPY_T2B,
  CASE2_COPY_T2T,
  CASE2_CLEAR,
  CASE2_SUBMIT,
  CASE2_READBACK
} case2_op;

/* A bind group set for a dispatch. */
typedef struct case2_set {
  uint32_t group;
  size_t bind_group;
  uint32_t *offsets;
  size_t noffsets;
} case2_set;

/* One side of a texel copy: a buffer with its layout, or a texture. */
typedef struct case2_texel {
  size_t obj;
  ls_texel_copy_buffer_layout layout;
  uint32_t mip_level;
  ls_origin3d origin;
  ls_texture_aspect aspect;
} case2_texel;

typedef struct case2_cmd {
  case2_op op;
  /* writeBuffer, clearBuffer, copyBufferToBuffer (src), dispatchIndirect,
   * readback: the buffer; writeTexture: the texture */
  size_t buffer, dst;
  uint64_t offset, dst_offset, size;
  uint32_t *data; /* writes: the bytes to write */
  size_t pipeline;
  case2_set *sets;
  size_t nsets;
  uint32_t workgroups[3];
  uint32_t immediates[64];
  uint32_t nimmediates;
  case2_texel src_t, dst_t; /* texel copies, writeTexture (dst_t) */
  ls_extent3d extent;
  size_t readback; /* index into case_file.buffers */
} case2_cmd;

typedef struct case2_plan {
  case2_module *modules;
  size_t nmodules;
  case2_buffer *buffers;
  size_t nbuffers;
  case2_texture *textures;
  size_t ntextures;
  case2_sampler *samplers;
  size_t nsamplers;
  case2_layout *layouts;
  size_t nlayouts;
  case2_playout *playouts;
  size_t nplayouts;
  case2_pipeline *pipelines;
  size_t npipelines;
  case2_group *groups;
  size_t ngroups;
  case2_cmd *cmds;
  size_t ncmds;
} case2_plan;

/* Does WGSL text declare `override NAME` (or `@id(NAME)` for a decimal
 * NAME)? A text scan, enough for tune to say "unknown override" early and
 * to choose the pipelines an override applies to. */
int case2_declares_override(const char *code, const char *name);

#endif
