/*
 * encoder.c — command encoders and compute passes: records copies and
 * dispatches into a list that queue.c runs. Everything WebGPU checks at
 * encoding time is checked here, when the command is recorded: the first
 * problem makes the encoder invalid, and finish() raises it as a validation
 * error and returns no command buffer. A recorded dispatch keeps a snapshot
 * of the pass state (pipeline, bind groups) with references on them. What
 * WebGPU checks at submit (destroyed buffers, textures, query sets) is left
 * to queue.c. Encoders and passes keep WebGPU's states: a finished encoder
 * or an ended pass stays a valid handle until released, and every later
 * command on it is a validation error.
 * Every call on an encoder or on its pass holds the encoder's mutex (the
 * wrappers at the end of the file), so threads sharing one get one order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

struct ls_command_encoder {
  ls_device *device;
  pthread_mutex_t mu;       /* held by every call on the encoder and its pass */
  api_cmd *cmds;
  size_t count, cap;
  ptrmap used;              /* the bind groups setBindGroup named (api_cmd_list) */
  ls_error_type error_type; /* LS_ERROR_NONE while valid */
  char *error;              /* the first problem */
  api_refs refs;            /* the caller's handle + each unreleased pass begun on it */
  int locked;               /* a pass is open (WebGPU's "locked" state) */
  int ended;                /* finish() was called (WebGPU's "ended" state) */
  uint32_t debug_depth;     /* pushDebugGroup minus popDebugGroup */
  char *_Atomic label; /* api_set_label */
};

struct ls_compute_pass {
  ls_command_encoder *encoder; /* referenced until the pass is released */
  int ended;                /* end() was called */
  ls_compute_pipeline *pipeline;
  ls_bind_group **groups; /* maxBindGroups slots */
  uint32_t **dynamic;     /* per slot: the dynamic offsets given with it */
  size_t ngroups;
  uint8_t immediates[256];  /* [[immediate_data]] */
  uint64_t immediates_set;  /* [[immediate_slots_set]]: bit i = bytes [4i, 4i + 4) */
  uint32_t debug_depth;
  ls_query_set *ts_set;     /* timestampWrites */
  uint32_t ts_end;
  char *_Atomic label; /* api_set_label */
};

void api_cmd_release(api_cmd *c) {
  api_buffer_unref(c->src);
  api_buffer_unref(c->dst);
  api_buffer_unref(c->indirect);
  api_texture_unref(c->texture);
  api_texture_unref(c->dst_texture);
  api_query_set_unref(c->query_set);
  for (size_t i = 0; i < c->ngroups; i++) {
    api_bind_group_unref(c->groups[i]);
    if (c->dynamic) free(c->dynamic[i]);
  }
  free(c->groups);
  free(c->dynamic);
  api_compute_pipeline_unref(c->pipeline);
  memset(c, 0, sizeof *c);
}

static void api_encoder_free(ls_command_encoder *e) {
  api_cmd_list rest = {e->cmds, e->count, e->used};
  api_cmd_list_release(&rest);
  free(e->error);
  free(e->label);
  pthread_mutex_destroy(&e->mu);
  ls_device *d = e->device;
  API_FREE_HANDLE(e);
  api_device_unref(d);
}

static void api_encoder_unref(ls_command_encoder *e) {
  if (API_UNREF_LAST(e)) api_encoder_free(e);
}

static void api_encoder_fail(ls_command_encoder *e, ls_error_type type, const char *fmt, ...)
    API_PRINTF(3, 4);
static void api_encoder_fail(ls_command_encoder *e, ls_error_type type, const char *fmt, ...) {
  if (e->error_type != LS_ERROR_NONE) return; /* the first problem is the one to tell */
  va_list ap;
  va_start(ap, fmt);
  e->error = api_vformat(fmt, ap);
  va_end(ap);
  e->error_type = type;
}

/* A problem whose message could not be allocated must still be a problem. */
static char api_oom_problem[] = "out of memory while checking a dispatch";

static char *api_problem(const char *fmt, ...) API_PRINTF(1, 2);
static char *api_problem(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = api_vformat(fmt, ap);
  va_end(ap);
  return s ? s : api_oom_problem;
}

/* A new command slot, or NULL (the encoder is then invalid). */
static api_cmd *api_encoder_push(ls_command_encoder *e) {
  if (e->count == e->cap) {
    size_t cap = e->cap ? e->cap * 2 : 16;
    api_cmd *n = realloc(e->cmds, cap * sizeof *n);
    if (!n) {
      api_encoder_fail(e, LS_ERROR_OUT_OF_MEMORY, "command encoder: out of memory");
      return NULL;
    }
    e->cmds = n;
    e->cap = cap;
  }
  api_cmd *c = &e->cmds[e->count++];
  memset(c, 0, sizeof *c);
  return c;
}

ls_command_encoder *ls_device_create_command_encoder(ls_device *device,
                                                     const ls_command_encoder_desc *desc) {
  if (api_device_dead(device)) return NULL;
  ls_command_encoder_desc d;
  if (!API_DESC(d, desc)) {
    api_validation(device, "createCommandEncoder: %s", API_DESC_NEWER);
    return NULL;
  }
  ls_command_encoder *e = calloc(1, sizeof *e);
  if (e && ((d.label && !api_label_init(&e->label, d.label)) ||
            pthread_mutex_init(&e->mu, NULL) != 0)) {
    free(e->label);
    free(e);
    e = NULL;
  }
  if (!e) {
    api_error(device, LS_ERROR_OUT_OF_MEMORY, "createCommandEncoder: out of memory");
    return NULL;
  }
  e->device = device;
  e->refs = 1;
  api_device_ref(device);
  return e;
}

void ls_command_encoder_set_label(ls_command_encoder *encoder, const char *label) {
  if (encoder) api_set_label(encoder->device, &encoder->label, label);
}

void ls_compute_pass_set_label(ls_compute_pass *pass, const char *label) {
  if (pass) api_set_label(pass->encoder->device, &pass->label, label);
}

void ls_command_buffer_set_label(ls_command_buffer *cb, const char *label) {
  if (cb) api_set_label(cb->device, &cb->label, label);
}

void ls_command_encoder_release(ls_command_encoder *encoder) {
  if (encoder) api_encoder_unref(encoder); /* an unreleased pass keeps it */
}

/* ------------------------------------------------------------------ copy */

static void api_enc_copy_buffer(ls_command_encoder *encoder, ls_buffer *src, uint64_t src_offset,
                                ls_buffer *dst, uint64_t dst_offset, uint64_t size) {
  ls_command_encoder *e = encoder;
  ls_device *d = e->device;
  const char *op = "copyBufferToBuffer";
  if (e->locked) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: a compute pass is open on the encoder", op);
    return;
  }
  if (!src || !dst) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: no %s buffer", op, src ? "destination" : "source");
    return;
  }
  const char *sn = api_buffer_name(src), *dn = api_buffer_name(dst);
  if (size == LS_WHOLE_SIZE) size = src_offset <= src->size ? src->size - src_offset : 0;
  if (src->device != d || dst->device != d) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: a buffer belongs to another device", op);
    return;
  }
  if (!(src->usage & LS_BUFFER_USAGE_COPY_SRC)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: source buffer '%s' lacks COPY_SRC usage", op, sn);
    return;
  }
  if (!(dst->usage & LS_BUFFER_USAGE_COPY_DST)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: destination buffer '%s' lacks COPY_DST usage",
                     op, dn);
    return;
  }
  if (size % 4 || src_offset % 4 || dst_offset % 4) {
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "%s: size (%llu), source offset (%llu) and destination offset (%llu) must "
                     "be multiples of 4",
                     op, (unsigned long long)size, (unsigned long long)src_offset,
                     (unsigned long long)dst_offset);
    return;
  }
  if (src_offset > src->size || size > src->size - src_offset) {
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "%s: source range [%llu, %llu) is outside buffer '%s' (%llu bytes)", op,
                     (unsigned long long)src_offset, (unsigned long long)(src_offset + size), sn,
                     (unsigned long long)src->size);
    return;
  }
  if (dst_offset > dst->size || size > dst->size - dst_offset) {
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "%s: destination range [%llu, %llu) is outside buffer '%s' (%llu bytes)",
                     op, (unsigned long long)dst_offset, (unsigned long long)(dst_offset + size),
                     dn, (unsigned long long)dst->size);
    return;
  }
  if (src == dst) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: source and destination are the same buffer '%s'",
                     op, sn);
    return;
  }
  if (e->error_type != LS_ERROR_NONE) return;
  api_cmd *c = api_encoder_push(e);
  if (!c) return;
  c->kind = API_CMD_COPY;
  c->src = src;
  c->dst = dst;
  api_buffer_ref(src);
  api_buffer_ref(dst);
  c->src_offset = src_offset;
  c->dst_offset = dst_offset;
  c->size = size;
}

static void api_enc_clear_buffer(ls_command_encoder *encoder, ls_buffer *buffer, uint64_t offset,
                                 uint64_t size) {
  ls_command_encoder *e = encoder;
  const char *op = "clearBuffer";
  if (e->locked) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: a compute pass is open on the encoder", op);
    return;
  }
  if (!buffer || buffer->device != e->device) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: %s", op,
                     buffer ? "the buffer belongs to another device" : "no buffer");
    return;
  }
  const char *n = api_buffer_name(buffer);
  if (size == LS_WHOLE_SIZE) size = offset <= buffer->size ? buffer->size - offset : 0;
  if (!(buffer->usage & LS_BUFFER_USAGE_COPY_DST)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: buffer '%s' lacks COPY_DST usage", op, n);
    return;
  }
  if (offset % 4 || size % 4) {
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "%s: offset (%llu) and size (%llu) must be multiples of 4 (buffer '%s')", op,
                     (unsigned long long)offset, (unsigned long long)size, n);
    return;
  }
  if (offset > buffer->size || size > buffer->size - offset) {
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "%s: range [%llu, %llu) is outside buffer '%s' (%llu bytes)", op,
                     (unsigned long long)offset, (unsigned long long)(offset + size), n,
                     (unsigned long long)buffer->size);
    return;
  }
  api_cmd *c = e->error_type == LS_ERROR_NONE ? api_encoder_push(e) : NULL;
  if (!c) return;
  c->kind = API_CMD_CLEAR;
  c->dst = buffer;
  api_buffer_ref(buffer);
  c->dst_offset = offset;
  c->size = size;
}

static void api_enc_resolve(ls_command_encoder *encoder, ls_query_set *set, uint32_t first,
                            uint32_t count, ls_buffer *dst, uint64_t dst_offset) {
  ls_command_encoder *e = encoder;
  const char *op = "resolveQuerySet";
  const char *why = NULL;
  if (e->locked) why = "a compute pass is open on the encoder";
  else if (!set || !dst) why = set ? "no destination buffer" : "no query set";
  else if (set->device != e->device || dst->device != e->device)
    why = "the query set or the buffer belongs to another device";
  else if (!(dst->usage & LS_BUFFER_USAGE_QUERY_RESOLVE))
    why = "the destination buffer lacks QUERY_RESOLVE usage";
  else if (first >= set->count || count > set->count - first)
    why = "firstQuery + queryCount exceeds the query set's count";
  else if (dst_offset % 256) why = "destinationOffset is not a multiple of 256";
  else if (dst_offset > dst->size || (uint64_t)count * 8 > dst->size - dst_offset)
    why = "the resolved values do not fit in the destination buffer";
  if (why) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s(query set '%s', %u, %u, buffer '%s', %llu): %s",
                     op, set ? api_label(set->label, "(unlabelled)") : "(null)", first, count,
                     api_buffer_name(dst), (unsigned long long)dst_offset, why);
    return;
  }
  api_cmd *c = e->error_type == LS_ERROR_NONE ? api_encoder_push(e) : NULL;
  if (!c) return;
  c->kind = API_CMD_RESOLVE;
  c->query_set = set;
  api_query_set_ref(set);
  c->first = first;
  c->size = count;
  c->dst = dst;
  api_buffer_ref(dst);
  c->dst_offset = dst_offset;
}

/* Both directions of a buffer <-> texture copy: WebGPU's "validating
 * GPUTexelCopyBufferInfo" for the buffer and "validating texture buffer
 * copy" (aligned) for the texture. */
static void api_encode_texture_copy(ls_command_encoder *e, int to_texture, ls_buffer *buf,
                                    const ls_texel_copy_buffer_layout *layout,
                                    const ls_texel_copy_texture_info *tex,
                                    const ls_extent3d *size) {
  const char *op = to_texture ? "copyBufferToTexture" : "copyTextureToBuffer";
  ls_device *d = e->device;
  if (e->locked) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: a compute pass is open on the encoder", op);
    return;
  }
  if (!buf) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: no buffer", op);
    return;
  }
  const char *bn = api_buffer_name(buf);
  if (buf->device != d) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: buffer '%s' belongs to another device", op, bn);
    return;
  }
  const uint32_t bu = to_texture ? LS_BUFFER_USAGE_COPY_SRC : LS_BUFFER_USAGE_COPY_DST;
  if (!(buf->usage & bu)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: buffer '%s' lacks %s usage", op, bn,
                     to_texture ? "COPY_SRC" : "COPY_DST");
    return;
  }
  char why[320];
  if (api_texture_copy_check(op, d, tex, layout, buf->size, size,
                             to_texture ? LS_TEXTURE_USAGE_COPY_DST : LS_TEXTURE_USAGE_COPY_SRC, 1,
                             why, sizeof why)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s", why);
    return;
  }
  if (e->error_type != LS_ERROR_NONE) return;
  api_cmd *c = api_encoder_push(e);
  if (!c) return;
  c->kind = to_texture ? API_CMD_COPY_B2T : API_CMD_COPY_T2B;
  if (to_texture) c->src = buf;
  else c->dst = buf;
  api_buffer_ref(buf);
  c->texture = tex->texture;
  api_texture_ref(tex->texture);
  c->mip_level = tex->mip_level;
  c->origin = tex->origin;
  c->aspect = tex->aspect;
  c->extent = *size;
  c->layout = *layout;
}

/* copyTextureToTexture: WebGPU's rules for the two sides, then the pair's:
 * sample counts, copy-compatible formats, whole depth-stencil texels, and
 * subresource sets that do not overlap (a copy within one texture reads
 * and writes different levels or layers). Checked even for an empty copy. */
static void api_enc_copy_t2t(ls_command_encoder *e, const ls_texel_copy_texture_info *src,
                             const ls_texel_copy_texture_info *dst, const ls_extent3d *size) {
  const char *op = "copyTextureToTexture";
  if (e->locked) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: a compute pass is open on the encoder", op);
    return;
  }
  char why[320];
  if (api_texel_copy_info_check(op, "source", e->device, src, size, LS_TEXTURE_USAGE_COPY_SRC,
                                why, sizeof why) ||
      api_texel_copy_info_check(op, "destination", e->device, dst, size,
                                LS_TEXTURE_USAGE_COPY_DST, why, sizeof why)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s", why);
    return;
  }
  ls_texture *s = src->texture, *t = dst->texture;
  const char *sn = api_texture_name(s), *tn = api_texture_name(t);
  const char *sf = ls_texture_format_name(s->format), *tf = ls_texture_format_name(t->format);
  if (s->samples != t->samples) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: texture '%s' has sampleCount %u and texture "
                     "'%s' %u; they must be equal", op, sn, s->samples, tn, t->samples);
    return;
  }
  if (!api_formats_srgb_pair(s->format, t->format)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: formats %s (texture '%s') and %s (texture '%s') "
                     "are not copy-compatible: they must be equal or differ only in -srgb",
                     op, sf, sn, tf, tn);
    return;
  }
  if (api_format_info(s->format)->aspects &&
      (api_aspect_format(s->format, src->aspect) != s->format ||
       api_aspect_format(t->format, dst->aspect) != t->format)) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: a copy between depth-stencil textures (%s) "
                     "takes every aspect of both; aspects \"%s\" and \"%s\" do not", op, sf,
                     api_aspect_name(src->aspect), api_aspect_name(dst->aspect));
    return;
  }
  const uint32_t sz = src->origin.z, tz = dst->origin.z, n = size->depth_or_array_layers;
  if (s == t && src->mip_level == dst->mip_level &&
      (s->dimension != LS_TEXTURE_DIMENSION_2D || (sz < tz + n && tz < sz + n))) {
    if (s->dimension == LS_TEXTURE_DIMENSION_2D)
      api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: layers [%u, %u) and [%u, %u) of mip level %u "
                       "of texture '%s' overlap; a copy within a texture needs disjoint "
                       "subresources", op, sz, sz + n, tz, tz + n, src->mip_level, sn);
    else
      api_encoder_fail(e, LS_ERROR_VALIDATION, "%s: source and destination are mip level %u of "
                       "%s texture '%s', one subresource; copy between different levels", op,
                       src->mip_level, s->dimension == LS_TEXTURE_DIMENSION_3D ? "3d" : "1d", sn);
    return;
  }
  if (e->error_type != LS_ERROR_NONE) return;
  api_cmd *c = api_encoder_push(e);
  if (!c) return;
  c->kind = API_CMD_COPY_T2T;
  c->texture = s;
  api_texture_ref(s);
  c->mip_level = src->mip_level;
  c->origin = src->origin;
  c->dst_texture = t;
  api_texture_ref(t);
  c->dst_mip_level = dst->mip_level;
  c->dst_origin = dst->origin;
  c->extent = *size;
}

/* ------------------------------------------------------------------ pass */

/* A timestamp write into set[index] when the queue reaches it. */
static void api_record_timestamp(ls_command_encoder *e, ls_query_set *set, uint32_t index) {
  if (index == LS_QUERY_INDEX_UNDEFINED || e->error_type != LS_ERROR_NONE) return;
  api_cmd *c = api_encoder_push(e);
  if (!c) return;
  c->kind = API_CMD_TIMESTAMP;
  c->query_set = set;
  api_query_set_ref(set);
  c->first = index;
}

/* GPUComputePassTimestampWrites' rules; NULL when valid. */
static const char *api_timestamp_problem(const ls_device *d, const ls_compute_pass_desc *pd) {
  const ls_query_set *q = pd->timestamp_query_set;
  const uint32_t b = pd->beginning_of_pass_write_index, n = pd->end_of_pass_write_index;
  if (!q) return NULL;
  if (!ls_device_has_feature(d, "timestamp-query"))
    return "timestampWrites need the \"timestamp-query\" feature";
  if (q->device != d) return "the timestamp query set belongs to another device";
  if (q->type != LS_QUERY_TIMESTAMP) return "timestampWrites.querySet is not a timestamp set";
  if (b == LS_QUERY_INDEX_UNDEFINED && n == LS_QUERY_INDEX_UNDEFINED)
    return "timestampWrites give neither beginningOfPassWriteIndex nor endOfPassWriteIndex";
  if ((b != LS_QUERY_INDEX_UNDEFINED && b >= q->count) ||
      (n != LS_QUERY_INDEX_UNDEFINED && n >= q->count))
    return "a timestampWrites index is not below the query set's count";
  if (b == n) return "beginningOfPassWriteIndex and endOfPassWriteIndex are the same query";
  return NULL;
}

static ls_compute_pass *api_enc_begin_pass(ls_command_encoder *encoder,
                                           const ls_compute_pass_desc *desc) {
  if (encoder->locked) {
    api_encoder_fail(encoder, LS_ERROR_VALIDATION,
                     "beginComputePass: a compute pass is already open on the encoder");
    return NULL;
  }
  ls_compute_pass_desc pd;
  if (!API_DESC(pd, desc)) {
    api_encoder_fail(encoder, LS_ERROR_VALIDATION, "beginComputePass: %s", API_DESC_NEWER);
    return NULL;
  }
  if (!desc) pd.beginning_of_pass_write_index = pd.end_of_pass_write_index = LS_QUERY_INDEX_UNDEFINED;
  const char *why = api_timestamp_problem(encoder->device, &pd);
  if (why) api_encoder_fail(encoder, LS_ERROR_VALIDATION, "beginComputePass: %s", why);
  ls_compute_pass *p = calloc(1, sizeof *p);
  size_t n = (size_t)encoder->device->limits.max_bind_groups;
  if (p && n) {
    p->groups = calloc(n, sizeof *p->groups);
    p->dynamic = calloc(n, sizeof *p->dynamic);
  }
  if (p && pd.label) p->label = api_strdup(pd.label);
  if (!p || (n && (!p->groups || !p->dynamic)) || (pd.label && !p->label)) {
    if (p) {
      free(p->groups);
      free(p->dynamic);
      free(p->label);
    }
    free(p);
    api_encoder_fail(encoder, LS_ERROR_OUT_OF_MEMORY, "beginComputePass: out of memory");
    return NULL;
  }
  p->ngroups = n;
  p->encoder = encoder;
  API_REF(encoder);
  p->ts_end = LS_QUERY_INDEX_UNDEFINED;
  encoder->locked = 1;
  if (pd.timestamp_query_set && !why) {
    api_record_timestamp(encoder, pd.timestamp_query_set, pd.beginning_of_pass_write_index);
    p->ts_set = pd.timestamp_query_set;
    api_query_set_ref(p->ts_set);
    p->ts_end = pd.end_of_pass_write_index;
  }
  return p;
}

/* What a pass holds until it ends or is released (the encoder's lock
 * held): its references on pipeline, bind groups and query set. */
static void api_pass_drop_state(ls_compute_pass *pass) {
  api_query_set_unref(pass->ts_set);
  api_compute_pipeline_unref(pass->pipeline);
  for (size_t i = 0; i < pass->ngroups; i++) {
    api_bind_group_unref(pass->groups[i]);
    free(pass->dynamic[i]);
  }
  free(pass->groups);
  free(pass->dynamic);
  pass->ts_set = NULL;
  pass->pipeline = NULL;
  pass->groups = NULL;
  pass->dynamic = NULL;
  pass->ngroups = 0;
}

/* end(): WebGPU's rules in its order. A pass that has ended, or whose
 * encoder is no longer locked by it (finished meanwhile), is a validation
 * error raised at once: the message is returned (malloc'd) for the caller
 * to raise once the lock is dropped. */
static char *api_pass_end(ls_compute_pass *pass) {
  ls_command_encoder *e = pass->encoder;
  const char *pn = api_label(pass->label, "(unlabelled)");
  if (pass->ended)
    return api_problem("end() of compute pass '%s': the pass has already ended (end() is called "
                       "once per pass)", pn);
  if (e->ended)
    return api_problem("end() of compute pass '%s': its command encoder '%s' was finished "
                       "while the pass was open (end the pass before finish())",
                       pn, api_label(e->label, "(unlabelled)"));
  pass->ended = 1;
  e->locked = 0;
  if (pass->debug_depth)
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "end() of compute pass '%s': %u debug group(s) pushed and not popped",
                     pn, pass->debug_depth);
  if (pass->ts_set) api_record_timestamp(e, pass->ts_set, pass->ts_end);
  api_pass_drop_state(pass);
  return NULL;
}

/* ------------------------------------------------------------ debug groups */

static void api_enc_push_group(ls_command_encoder *encoder, const char *label) {
  if (encoder->locked)
    api_encoder_fail(encoder, LS_ERROR_VALIDATION,
                     "pushDebugGroup: a compute pass is open on the encoder");
  else
    encoder->debug_depth++;
}

static void api_enc_pop_group(ls_command_encoder *encoder) {
  if (encoder->locked)
    api_encoder_fail(encoder, LS_ERROR_VALIDATION,
                     "popDebugGroup: a compute pass is open on the encoder");
  else if (encoder->debug_depth == 0)
    api_encoder_fail(encoder, LS_ERROR_VALIDATION,
                     "popDebugGroup: no debug group is pushed on the encoder");
  else
    encoder->debug_depth--;
}

static void api_enc_marker(ls_command_encoder *encoder, const char *label) {
  if (encoder->locked)
    api_encoder_fail(encoder, LS_ERROR_VALIDATION,
                     "insertDebugMarker: a compute pass is open on the encoder");
}

static void api_pass_push_group(ls_compute_pass *pass, const char *label) {
  if (pass) pass->debug_depth++;
}

static void api_pass_pop_group(ls_compute_pass *pass) {
  if (!pass) return;
  if (pass->debug_depth == 0)
    api_encoder_fail(pass->encoder, LS_ERROR_VALIDATION,
                     "popDebugGroup: no debug group is pushed on compute pass '%s'",
                     api_label(pass->label, "(unlabelled)"));
  else
    pass->debug_depth--;
}


static void api_pass_set_pipeline(ls_compute_pass *pass, ls_compute_pipeline *pipeline) {
  if (!pass) return;
  ls_command_encoder *e = pass->encoder;
  if (!pipeline) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "setPipeline: no pipeline");
    return;
  }
  if (pipeline->device != e->device) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "setPipeline: pipeline '%s' belongs to another device",
                     api_pipeline_name(pipeline));
    return;
  }
  api_compute_pipeline_ref(pipeline);
  api_compute_pipeline_unref(pass->pipeline);
  pass->pipeline = pipeline;
}

/* setBindGroup's dynamic offset rules: one per dynamic entry, aligned to
 * the limit of its type, the bound range inside the buffer. NULL if valid. */
static char *api_dynamic_problem(const ls_device *d, uint32_t index, const ls_bind_group *g,
                                 const uint32_t *offs, size_t n) {
  if (n != g->dynamic_count)
    return api_problem("setBindGroup(%u, '%s'): %zu dynamic offsets given; its layout has %zu "
                       "dynamic entries",
                       index, api_label(g->label, "(unlabelled)"), n, g->dynamic_count);
  for (size_t i = 0; i < g->count; i++) {
    const api_bind_entry *e = &g->entries[i];
    if (e->dynamic_index < 0) continue;
    const uint32_t o = offs[e->dynamic_index];
    const uint64_t align = e->type == LS_BINDING_UNIFORM
                               ? d->limits.min_uniform_buffer_offset_alignment
                               : d->limits.min_storage_buffer_offset_alignment;
    if (o % align)
      return api_problem("setBindGroup(%u, '%s'): dynamic offset %u of @binding(%u) is not a "
                         "multiple of %s (%llu)",
                         index, api_label(g->label, "(unlabelled)"), o, e->binding,
                         e->type == LS_BINDING_UNIFORM ? "minUniformBufferOffsetAlignment"
                                                       : "minStorageBufferOffsetAlignment",
                         (unsigned long long)align);
    if (e->offset + e->size + o > e->buffer->size)
      return api_problem("setBindGroup(%u, '%s'): with dynamic offset %u, @binding(%u) "
                         "(offset %llu, size %llu) runs past the end of buffer '%s' (%llu bytes)",
                         index, api_label(g->label, "(unlabelled)"), o, e->binding,
                         (unsigned long long)e->offset, (unsigned long long)e->size,
                         api_buffer_name(e->buffer), (unsigned long long)e->buffer->size);
  }
  return NULL;
}

static void api_pass_set_group(ls_compute_pass *pass, uint32_t index, ls_bind_group *group,
                               const uint32_t *dynamic_offsets, size_t dynamic_offset_count) {
  if (!pass) return;
  ls_command_encoder *e = pass->encoder;
  if (index >= pass->ngroups) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "setBindGroup(%u): index not below maxBindGroups (%zu)",
                     index, pass->ngroups);
    return;
  }
  if (group && group->device != e->device) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "setBindGroup(%u): the bind group belongs to another "
                                             "device", index);
    return;
  }
  if (dynamic_offset_count && !dynamic_offsets) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "setBindGroup(%u): %zu dynamic offsets but no array",
                     index, dynamic_offset_count);
    return;
  }
  uint32_t *dyn = NULL;
  if (group) {
    char *problem = api_dynamic_problem(e->device, index, group, dynamic_offsets,
                                        dynamic_offset_count);
    if (problem) {
      api_encoder_fail(e, problem == api_oom_problem ? LS_ERROR_OUT_OF_MEMORY
                                                     : LS_ERROR_VALIDATION, "%s", problem);
      if (problem != api_oom_problem) free(problem);
      return;
    }
    if (dynamic_offset_count) {
      dyn = malloc(dynamic_offset_count * sizeof *dyn);
      if (!dyn) {
        api_encoder_fail(e, LS_ERROR_OUT_OF_MEMORY, "setBindGroup: out of memory");
        return;
      }
      memcpy(dyn, dynamic_offsets, dynamic_offset_count * sizeof *dyn);
    }
  } else if (dynamic_offset_count) {
    api_encoder_fail(e, LS_ERROR_VALIDATION, "setBindGroup(%u, null): dynamic offsets given", index);
    return;
  }
  if (group && !ptrmap_get(&e->used, group, NULL)) {
    if (!ptrmap_put(&e->used, group, NULL)) {
      free(dyn);
      api_encoder_fail(e, LS_ERROR_OUT_OF_MEMORY, "setBindGroup: out of memory");
      return;
    }
    api_bind_group_ref(group); /* the used set's */
  }
  api_bind_group_ref(group);
  api_bind_group_unref(pass->groups[index]);
  free(pass->dynamic[index]);
  pass->groups[index] = group; /* NULL unsets, as setBindGroup(i, null) */
  pass->dynamic[index] = dyn;
}

/* ------------------------------------------------------ dispatch checks */

typedef struct api_use {
  const api_bind_entry *entry;
  uint32_t group;
  int writable;
  int in_layout; /* the group is one the pipeline's layout uses */
} api_use;

static const char *api_use_name(ls_binding_type t) {
  return t == LS_BINDING_STORAGE ? "writable storage"
         : t == LS_BINDING_UNIFORM ? "uniform"
                                   : "read-only storage";
}


/* Returns a description of the first rule the dispatch breaks (malloc'd,
 * or api_oom_problem), or NULL when it is valid. */
static char *api_dispatch_problem(ls_compute_pass *ps, const char *what, ls_buffer *ind,
                                  uint64_t ind_offset, const uint32_t *count) {
  ls_device *d = ps->encoder->device;
  ls_compute_pipeline *p = ps->pipeline;
  if (!p) return api_problem("%s: no pipeline is set (setPipeline)", what);
  const char *pname = api_pipeline_name(p);
  const ls_pipeline_layout *L = p->layout;
  for (size_t g = 0; g < L->count; g++) {
    const ls_bind_group_layout *bgl = L->groups[g];
    if (!bgl) continue;
    ls_bind_group *bg = g < ps->ngroups ? ps->groups[g] : NULL;
    if (!bg)
      return api_problem("%s: pipeline '%s' needs a bind group at index %zu; none is set", what,
                        pname, g);
    if (!api_bind_group_layout_equivalent(bg->layout, bgl))
      return api_problem("%s: the bind group at index %zu does not fit pipeline '%s' (its layout "
                        "differs from the pipeline's group %zu%s)",
                        what, g, pname, g,
                        bg->layout->exclusive != bgl->exclusive
                            ? "; a layout of a pipeline with layout \"auto\" fits only that "
                              "pipeline"
                            : "");
  }
  const ir_program *prog = p->program;
  /* "Validate immediate data": every slot the variable reads was set */
  const uint64_t unset = prog->imm_slots & ~ps->immediates_set;
  if (unset)
    return api_problem("%s: pipeline '%s' reads immediate data bytes %u to %u, which no "
                      "setImmediates has set",
                      what, pname, 4u * (unsigned)__builtin_ctzll(unset),
                      4u * (unsigned)__builtin_ctzll(unset) + 3u);
  for (uint32_t i = 0; i < prog->nbindings; i++) {
    const ir_binding *b = &prog->bindings[i];
    if (b->kind == IR_BIND_IMMEDIATE) continue;
    ls_bind_group *bg = b->group < ps->ngroups ? ps->groups[b->group] : NULL;
    const api_bind_entry *e = api_bind_group_find(bg, b->binding);
    if (!e)
      return api_problem("%s: '%s' (@group(%u) @binding(%u)) of pipeline '%s' is not bound", what,
                        b->name, b->group, b->binding, pname);
    if (e->size < b->min_size)
      return api_problem("%s: '%s' (@group(%u) @binding(%u)) of pipeline '%s' is bound to %llu "
                        "bytes of buffer '%s'; the shader needs at least %llu bytes",
                        what, b->name, b->group, b->binding, pname, (unsigned long long)e->size,
                        api_buffer_name(e->buffer), (unsigned long long)b->min_size);
  }

  /* The usage scope of the dispatch: every bind group set, in the layout
   * or not, and the indirect buffer. */
  size_t nuses = 0;
  for (size_t g = 0; g < ps->ngroups; g++)
    if (ps->groups[g]) nuses += ps->groups[g]->count;
  api_use *uses = nuses ? calloc(nuses, sizeof *uses) : NULL;
  if (nuses && !uses) return api_oom_problem;
  size_t k = 0;
  for (size_t g = 0; g < ps->ngroups; g++) {
    ls_bind_group *bg = ps->groups[g];
    if (!bg) continue;
    for (size_t i = 0; i < bg->count; i++) {
      uses[k].entry = &bg->entries[i];
      uses[k].group = (uint32_t)g;
      uses[k].writable = bg->entries[i].type == LS_BINDING_STORAGE;
      uses[k].in_layout = g < L->count && L->groups[g];
      k++;
    }
  }
  char *problem = NULL;
  for (size_t i = 0; i < nuses && !problem; i++) {
    const api_use *u = &uses[i];
    if (!u->writable) continue;
    if (ind && u->entry->buffer == ind) {
      problem = api_problem("%s: buffer '%s' holds the indirect arguments and is also bound as "
                           "writable storage (@group(%u) @binding(%u)); one dispatch cannot use "
                           "a buffer both ways",
                           what, api_buffer_name(ind), u->group, u->entry->binding);
      break;
    }
    for (size_t j = 0; j < nuses; j++) {
      const api_use *v = &uses[j];
      if (j == i || v->entry->buffer != u->entry->buffer) continue;
      if (!v->writable) {
        problem = api_problem("%s: buffer '%s' is bound as writable storage (@group(%u) "
                             "@binding(%u)) and as %s (@group(%u) @binding(%u)); one dispatch "
                             "cannot use a buffer both ways",
                             what, api_buffer_name(u->entry->buffer), u->group,
                             u->entry->binding, api_use_name(v->entry->type), v->group,
                             v->entry->binding);
        break;
      }
      /* Two writable bindings of one buffer are allowed when the pipeline
       * cannot see them both or their ranges do not overlap. */
      if (j > i && u->in_layout && v->in_layout &&
          u->entry->offset < v->entry->offset + v->entry->size &&
          v->entry->offset < u->entry->offset + u->entry->size) {
        problem = api_problem("%s: writable storage bindings @group(%u) @binding(%u) and "
                             "@group(%u) @binding(%u) overlap in buffer '%s'",
                             what, u->group, u->entry->binding, v->group, v->entry->binding,
                             api_buffer_name(u->entry->buffer));
        break;
      }
    }
  }
  /* textures: a subresource (level, layer) bound as a writable storage
   * texture may not also be sampled or bound read-only in the same
   * dispatch (WebGPU's compatible usage list; several writable storage
   * uses are the storage exception) */
  for (size_t i = 0; i < nuses && !problem; i++) {
    const api_bind_entry *a = uses[i].entry;
    if (!a->view || (a->type != LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE &&
                     a->type != LS_BINDING_READ_WRITE_STORAGE_TEXTURE))
      continue;
    for (size_t j = 0; j < nuses; j++) {
      const api_bind_entry *b = uses[j].entry;
      if (j == i || !b->view || b->view->texture != a->view->texture ||
          b->type == LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE ||
          b->type == LS_BINDING_READ_WRITE_STORAGE_TEXTURE)
        continue;
      const ls_texture_view *x = a->view, *y = b->view;
      const int levels = x->base_level < y->base_level + y->levels &&
                         y->base_level < x->base_level + x->levels;
      const int layers = x->base_layer < y->base_layer + y->layers &&
                         y->base_layer < x->base_layer + x->layers;
      if (levels && layers) {
        problem = api_problem("%s: texture '%s' is bound as a %s (@group(%u) @binding(%u)) and "
                              "as a %s (@group(%u) @binding(%u)) with overlapping mip levels and "
                              "layers; one dispatch cannot use a texture subresource both ways",
                              what, api_texture_name(x->texture), api_binding_type_name(a->type),
                              uses[i].group, a->binding, api_binding_type_name(b->type),
                              uses[j].group, b->binding);
        break;
      }
    }
  }
  free(uses);
  if (problem) return problem;

  if (ind) {
    const char *n = api_buffer_name(ind);
    if (ind->device != d) return api_problem("%s: the buffer belongs to another device", what);
    if (!(ind->usage & LS_BUFFER_USAGE_INDIRECT))
      return api_problem("%s: buffer '%s' lacks INDIRECT usage", what, n);
    if (ind_offset % 4)
      return api_problem("%s: offset %llu is not a multiple of 4", what,
                        (unsigned long long)ind_offset);
    if (ind_offset > ind->size || ind->size - ind_offset < 12)
      return api_problem("%s: the 12 bytes of arguments at offset %llu do not fit in buffer '%s' "
                        "(%llu bytes)",
                        what, (unsigned long long)ind_offset, n, (unsigned long long)ind->size);
  } else {
    static const char axis[3] = {'x', 'y', 'z'};
    uint64_t max = d->limits.max_compute_workgroups_per_dimension;
    for (int i = 0; i < 3; i++)
      if (count[i] > max)
        return api_problem("%s: count %u in %c exceeds maxComputeWorkgroupsPerDimension (%llu)",
                          what, count[i], axis[i], (unsigned long long)max);
    const char *bi = api_dispatch_index_overflow(prog, count);
    if (bi)
      return api_problem("%s: pipeline '%s' uses @builtin(%s), whose value on (%u, %u, %u) "
                        "workgroups would not fit in a u32",
                        what, pname, bi, count[0], count[1], count[2]);
  }
  return NULL;
}

static void api_record_dispatch(ls_compute_pass *ps, const char *what, ls_buffer *ind,
                                uint64_t ind_offset, const uint32_t *count) {
  ls_command_encoder *e = ps->encoder;
  if (e->error_type != LS_ERROR_NONE) return; /* nothing more to check or keep */
  char *problem = api_dispatch_problem(ps, what, ind, ind_offset, count);
  if (problem) {
    api_encoder_fail(e, problem == api_oom_problem ? LS_ERROR_OUT_OF_MEMORY : LS_ERROR_VALIDATION,
                     "%s", problem);
    if (problem != api_oom_problem) free(problem);
    return;
  }
  const ls_pipeline_layout *L = ps->pipeline->layout;
  ls_bind_group **groups = L->count ? calloc(L->count, sizeof *groups) : NULL;
  if (L->count && !groups) {
    api_encoder_fail(e, LS_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
    return;
  }
  uint32_t **dyn = L->count ? calloc(L->count, sizeof *dyn) : NULL;
  int ok = !L->count || dyn;
  for (size_t g = 0; ok && g < L->count; g++) {
    const ls_bind_group *bg = g < ps->ngroups ? ps->groups[g] : NULL;
    if (!bg || !bg->dynamic_count) continue;
    if (!(dyn[g] = malloc(bg->dynamic_count * sizeof **dyn))) ok = 0;
    else memcpy(dyn[g], ps->dynamic[g], bg->dynamic_count * sizeof **dyn);
  }
  api_cmd *c = ok ? api_encoder_push(e) : NULL;
  if (!c) {
    for (size_t g = 0; dyn && g < L->count; g++) free(dyn[g]);
    free(dyn);
    free(groups);
    if (!ok) api_encoder_fail(e, LS_ERROR_OUT_OF_MEMORY, "%s: out of memory", what);
    return;
  }
  c->kind = API_CMD_DISPATCH;
  c->pipeline = ps->pipeline;
  api_compute_pipeline_ref(c->pipeline);
  for (size_t g = 0; g < L->count; g++) {
    groups[g] = g < ps->ngroups ? ps->groups[g] : NULL;
    api_bind_group_ref(groups[g]);
  }
  c->groups = groups;
  c->dynamic = dyn;
  c->ngroups = L->count;
  memcpy(c->immediates, ps->immediates, sizeof c->immediates);
  if (ind) {
    c->indirect = ind;
    api_buffer_ref(ind);
    c->indirect_offset = ind_offset;
  } else {
    memcpy(c->count, count, sizeof c->count);
  }
}

static void api_pass_set_immediates(ls_compute_pass *pass, uint32_t range_offset, const void *data,
                                    size_t size) {
  if (!pass) return;
  ls_command_encoder *e = pass->encoder;
  if (e->error_type != LS_ERROR_NONE) return;
  const uint64_t max = e->device->limits.max_immediate_size;
  if ((size && !data) || range_offset % 4 || size % 4 || range_offset > max ||
      size > max - range_offset) {
    api_encoder_fail(e, LS_ERROR_VALIDATION,
                     "setImmediates(%u, %zu bytes): the offset and size must be multiples of 4 "
                     "and the range within maxImmediateSize (%llu)%s",
                     range_offset, size, (unsigned long long)max, size && !data ? "; no data" : "");
    return;
  }
  memcpy(pass->immediates + range_offset, data, size);
  for (size_t b = range_offset; b < range_offset + size; b += 4)
    pass->immediates_set |= UINT64_C(1) << (b / 4);
}

static void api_pass_dispatch(ls_compute_pass *pass, uint32_t x, uint32_t y, uint32_t z) {
  if (!pass) return;
  char what[96];
  snprintf(what, sizeof what, "dispatchWorkgroups(%u, %u, %u)", x, y, z);
  uint32_t count[3] = {x, y, z};
  api_record_dispatch(pass, what, NULL, 0, count);
}

static void api_pass_dispatch_indirect(ls_compute_pass *pass, ls_buffer *buffer, uint64_t offset) {
  if (!pass) return;
  char what[256];
  if (!buffer) {
    api_encoder_fail(pass->encoder, LS_ERROR_VALIDATION, "dispatchWorkgroupsIndirect: no buffer");
    return;
  }
  snprintf(what, sizeof what, "dispatchWorkgroupsIndirect(buffer '%s', offset %llu)",
           api_buffer_name(buffer), (unsigned long long)offset);
  api_record_dispatch(pass, what, buffer, offset, NULL);
}

const char *api_compute_pass_error(const ls_compute_pass *pass) {
  if (!pass) return NULL;
  ls_command_encoder *e = pass->encoder;
  pthread_mutex_lock(&e->mu);
  /* the first problem is never replaced, so the text outlives the lock */
  const char *why = e->error_type == LS_ERROR_NONE ? NULL : e->error ? e->error : "out of memory";
  pthread_mutex_unlock(&e->mu);
  return why;
}

/* ---------------------------------------------------------------- finish */

/* Raises a problem of api_problem's as an error of the type given (out of
 * memory when its message could not be made) and frees it. */
static void api_raise_problem(ls_device *d, ls_error_type type, char *problem) {
  if (problem == api_oom_problem) {
    api_error(d, LS_ERROR_OUT_OF_MEMORY, "out of memory while reporting an error");
    return;
  }
  api_error(d, type, "%s", problem);
  free(problem);
}

void api_cmd_list_release(api_cmd_list *l) {
  for (size_t i = 0; i < l->count; i++) api_cmd_release(&l->cmds[i]);
  free(l->cmds);
  for (size_t i = 0; i < l->used.cap; i++)
    if (l->used.keys[i]) api_bind_group_unref((ls_bind_group *)l->used.keys[i]);
  ptrmap_free(&l->used);
  l->cmds = NULL;
  l->count = 0;
}

/* finish() (the encoder's lock held): ends the encoder whatever happens, as
 * WebGPU does, and moves its commands to *out (the caller releases them
 * when the encoder was invalid). Returns the error type, with the message
 * to raise in *why. */
static ls_error_type api_enc_finish(ls_command_encoder *e, int desc_ok, api_cmd_list *out,
                                    char **why) {
  const char *en = api_label(e->label, "(unlabelled)");
  if (e->ended) {
    *why = api_problem("finish() of command encoder '%s': the encoder is already finished "
                       "(finish() is called once per encoder)", en);
    return LS_ERROR_VALIDATION;
  }
  e->ended = 1;
  out->cmds = e->cmds;
  out->count = e->count;
  out->used = e->used;
  e->cmds = NULL;
  e->count = e->cap = 0;
  e->used = (ptrmap){0};
  if (e->locked) {
    /* WebGPU: finish() needs an "open" encoder. The error is set so that
     * what the open pass still records is dropped. */
    api_encoder_fail(e, LS_ERROR_VALIDATION, "a compute pass is still open");
    *why = api_problem("finish() of command encoder '%s': a compute pass is still open (call "
                       "ls_compute_pass_end first)", en);
    return LS_ERROR_VALIDATION;
  }
  if (e->error_type == LS_ERROR_NONE && e->debug_depth)
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%u debug group(s) pushed and not popped",
                     e->debug_depth);
  if (e->error_type == LS_ERROR_NONE && !desc_ok)
    api_encoder_fail(e, LS_ERROR_VALIDATION, "%s", API_DESC_NEWER);
  if (e->error_type != LS_ERROR_NONE) {
    *why = api_problem("finish() of command encoder '%s': %s", en,
                       e->error ? e->error : "(message lost: out of memory)");
    return e->error_type;
  }
  return LS_ERROR_NONE;
}

ls_command_buffer *ls_command_encoder_finish(ls_command_encoder *encoder,
                                             const ls_command_buffer_desc *desc) {
  if (!encoder) return NULL;
  ls_device *d = encoder->device;
  ls_command_buffer_desc cd;
  const int desc_ok = API_DESC(cd, desc);
  api_cmd_list list = {0};
  char *why = NULL;
  pthread_mutex_lock(&encoder->mu);
  const ls_error_type type = api_enc_finish(encoder, desc_ok, &list, &why);
  pthread_mutex_unlock(&encoder->mu);
  if (type != LS_ERROR_NONE) {
    api_cmd_list_release(&list);
    api_raise_problem(d, type, why);
    return NULL;
  }
  ls_command_buffer *cb = calloc(1, sizeof *cb);
  if (cb && cd.label && !api_label_init(&cb->label, cd.label)) {
    free(cb);
    cb = NULL;
  }
  if (!cb) {
    api_cmd_list_release(&list);
    api_error(d, LS_ERROR_OUT_OF_MEMORY, "finish(): out of memory");
    return NULL;
  }
  cb->device = d;
  api_device_ref(d);
  cb->list = list;
  return cb;
}

void ls_command_buffer_release(ls_command_buffer *cb) {
  if (!cb) return;
  /* a command buffer never submitted still holds its commands */
  if (!atomic_exchange(&cb->submitted, 1)) api_cmd_list_release(&cb->list);
  free(cb->label);
  ls_device *d = cb->device;
  API_FREE_HANDLE(cb);
  api_device_unref(d);
}

/* ------------------------------------------------ the calls, under the lock */

/* Each public call on an encoder or a pass is the recording above with the
 * encoder's mutex held. Recording raises nothing (errors wait for
 * finish()), so no user callback ever runs under the lock. The exception
 * is WebGPU's "validate the encoder state" for an ended encoder or pass:
 * a command then is a validation error at once, raised after the lock is
 * dropped. */
static void api_enc_ended(ls_command_encoder *e, const char *op) {
  api_validation(e->device, "%s on command encoder '%s': the encoder is finished (finish() was "
                            "called); record into a new encoder",
                 op, api_label(e->label, "(unlabelled)"));
}

static void api_pass_ended(ls_compute_pass *p, const char *op) {
  api_validation(p->encoder->device, "%s on compute pass '%s': the pass has ended (end() was "
                                     "called); begin a new pass",
                 op, api_label(p->label, "(unlabelled)"));
}

#define API_ENC_LOCKED(e, op, call)                                            \
  do {                                                                         \
    pthread_mutex_lock(&(e)->mu);                                              \
    const int ended_ = (e)->ended;                                             \
    if (!ended_) call;                                                         \
    pthread_mutex_unlock(&(e)->mu);                                            \
    if (ended_) api_enc_ended((e), (op));                                      \
  } while (0)

#define API_PASS_LOCKED(p, op, call)                                           \
  do {                                                                         \
    pthread_mutex_lock(&(p)->encoder->mu);                                     \
    const int ended_ = (p)->ended;                                             \
    if (!ended_) call;                                                         \
    pthread_mutex_unlock(&(p)->encoder->mu);                                   \
    if (ended_) api_pass_ended((p), (op));                                     \
  } while (0)

void ls_command_encoder_copy_buffer_to_buffer(ls_command_encoder *encoder, ls_buffer *src,
                                              uint64_t src_offset, ls_buffer *dst,
                                              uint64_t dst_offset, uint64_t size) {
  if (encoder)
    API_ENC_LOCKED(encoder, "copyBufferToBuffer",
                   api_enc_copy_buffer(encoder, src, src_offset, dst, dst_offset, size));
}

void ls_command_encoder_clear_buffer(ls_command_encoder *encoder, ls_buffer *buffer,
                                     uint64_t offset, uint64_t size) {
  if (encoder)
    API_ENC_LOCKED(encoder, "clearBuffer", api_enc_clear_buffer(encoder, buffer, offset, size));
}

void ls_command_encoder_resolve_query_set(ls_command_encoder *encoder, ls_query_set *set,
                                          uint32_t first, uint32_t count, ls_buffer *dst,
                                          uint64_t dst_offset) {
  if (encoder)
    API_ENC_LOCKED(encoder, "resolveQuerySet",
                   api_enc_resolve(encoder, set, first, count, dst, dst_offset));
}

void ls_command_encoder_copy_buffer_to_texture(ls_command_encoder *encoder, ls_buffer *src,
                                               const ls_texel_copy_buffer_layout *layout,
                                               const ls_texel_copy_texture_info *dst,
                                               const ls_extent3d *size) {
  if (encoder)
    API_ENC_LOCKED(encoder, "copyBufferToTexture",
                   api_encode_texture_copy(encoder, 1, src, layout, dst, size));
}

void ls_command_encoder_copy_texture_to_buffer(ls_command_encoder *encoder,
                                               const ls_texel_copy_texture_info *src,
                                               ls_buffer *dst,
                                               const ls_texel_copy_buffer_layout *layout,
                                               const ls_extent3d *size) {
  if (encoder)
    API_ENC_LOCKED(encoder, "copyTextureToBuffer",
                   api_encode_texture_copy(encoder, 0, dst, layout, src, size));
}

void ls_command_encoder_copy_texture_to_texture(ls_command_encoder *encoder,
                                                const ls_texel_copy_texture_info *src,
                                                const ls_texel_copy_texture_info *dst,
                                                const ls_extent3d *size) {
  if (encoder)
    API_ENC_LOCKED(encoder, "copyTextureToTexture", api_enc_copy_t2t(encoder, src, dst, size));
}

void ls_command_encoder_push_debug_group(ls_command_encoder *encoder, const char *label) {
  if (encoder) API_ENC_LOCKED(encoder, "pushDebugGroup", api_enc_push_group(encoder, label));
}

void ls_command_encoder_pop_debug_group(ls_command_encoder *encoder) {
  if (encoder) API_ENC_LOCKED(encoder, "popDebugGroup", api_enc_pop_group(encoder));
}

void ls_command_encoder_insert_debug_marker(ls_command_encoder *encoder, const char *label) {
  if (encoder) API_ENC_LOCKED(encoder, "insertDebugMarker", api_enc_marker(encoder, label));
}

ls_compute_pass *ls_command_encoder_begin_compute_pass(ls_command_encoder *encoder,
                                                       const ls_compute_pass_desc *desc) {
  ls_compute_pass *p = NULL;
  if (encoder) API_ENC_LOCKED(encoder, "beginComputePass", p = api_enc_begin_pass(encoder, desc));
  return p;
}

void ls_compute_pass_end(ls_compute_pass *pass) {
  if (!pass) return;
  ls_command_encoder *e = pass->encoder;
  pthread_mutex_lock(&e->mu);
  char *why = api_pass_end(pass);
  pthread_mutex_unlock(&e->mu);
  if (why) api_raise_problem(e->device, LS_ERROR_VALIDATION, why);
}

void ls_compute_pass_release(ls_compute_pass *pass) {
  if (!pass) return;
  ls_command_encoder *e = pass->encoder;
  /* a pass released while open leaves its encoder locked, as a pass that
   * is never ended does in WebGPU: finish() then fails */
  pthread_mutex_lock(&e->mu);
  api_pass_drop_state(pass);
  pthread_mutex_unlock(&e->mu);
  free(pass->label);
  API_FREE_HANDLE(pass);
  api_encoder_unref(e);
}

void ls_compute_pass_push_debug_group(ls_compute_pass *pass, const char *label) {
  if (pass) API_PASS_LOCKED(pass, "pushDebugGroup", api_pass_push_group(pass, label));
}

void ls_compute_pass_pop_debug_group(ls_compute_pass *pass) {
  if (pass) API_PASS_LOCKED(pass, "popDebugGroup", api_pass_pop_group(pass));
}

void ls_compute_pass_insert_debug_marker(ls_compute_pass *pass, const char *label) {
  (void)label; /* no meaning on lockstep; an ended pass still refuses it */
  if (pass) API_PASS_LOCKED(pass, "insertDebugMarker", (void)0);
}

void ls_compute_pass_set_pipeline(ls_compute_pass *pass, ls_compute_pipeline *pipeline) {
  if (pass) API_PASS_LOCKED(pass, "setPipeline", api_pass_set_pipeline(pass, pipeline));
}

void ls_compute_pass_set_bind_group(ls_compute_pass *pass, uint32_t index, ls_bind_group *group,
                                    const uint32_t *dynamic_offsets, size_t dynamic_offset_count) {
  if (pass)
    API_PASS_LOCKED(pass, "setBindGroup", api_pass_set_group(pass, index, group, dynamic_offsets,
                                                             dynamic_offset_count));
}

void ls_compute_pass_set_immediates(ls_compute_pass *pass, uint32_t range_offset,
                                    const void *data, size_t size) {
  if (pass)
    API_PASS_LOCKED(pass, "setImmediates",
                    api_pass_set_immediates(pass, range_offset, data, size));
}

void ls_compute_pass_dispatch_workgroups(ls_compute_pass *pass, uint32_t x, uint32_t y,
                                         uint32_t z) {
  if (pass) API_PASS_LOCKED(pass, "dispatchWorkgroups", api_pass_dispatch(pass, x, y, z));
}

void ls_compute_pass_dispatch_workgroups_indirect(ls_compute_pass *pass, ls_buffer *buffer,
                                                  uint64_t offset) {
  if (pass)
    API_PASS_LOCKED(pass, "dispatchWorkgroupsIndirect",
                    api_pass_dispatch_indirect(pass, buffer, offset));
}
