/*
 * encoder.c — GPUCommandEncoder and GPUCommandBuffer: the copy, clear and
 * query-resolve commands, debug groups, beginComputePass (with
 * timestampWrites) and finish. Recording errors surface at finish, as
 * lockstep (and WebGPU) have them.
 */
#include "addon.h"

#include <stdlib.h>

/* encoderCreate(js, device, label): true when made. */
ND_FN(encoder_create) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  char *label = nd_get_str(env, argv[2]);
  ls_command_encoder_desc desc = {.struct_size = LS_STRUCT_SIZE(ls_command_encoder_desc),
                                  .label = label};
  ls_command_encoder *e = ls_device_create_command_encoder(d->h, &desc);
  free(label);
  if (!e) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_COMMAND_ENCODER, e, d) != NULL);
}

#define ENCODER_ARG(n)                                                         \
  napi_value argv[n];                                                          \
  if (!nd_args(env, info, n, argv)) return NULL;                               \
  ls_command_encoder *enc = nd_handle(env, argv[0], ND_COMMAND_ENCODER);       \
  if (!enc) return nd_undefined(env)

/* copyBufferToBuffer(encoder, src, srcOffset, dst, dstOffset, size) */
ND_FN(copy_buffer_to_buffer) {
  ENCODER_ARG(6);
  ls_command_encoder_copy_buffer_to_buffer(enc, nd_handle(env, argv[1], ND_BUFFER),
                                           nd_get_u64(env, argv[2]),
                                           nd_handle(env, argv[3], ND_BUFFER),
                                           nd_get_u64(env, argv[4]), nd_get_u64(env, argv[5]));
  return nd_undefined(env);
}

/* clearBuffer(encoder, buffer, offset, size) */
ND_FN(clear_buffer) {
  ENCODER_ARG(4);
  ls_command_encoder_clear_buffer(enc, nd_handle(env, argv[1], ND_BUFFER), nd_get_u64(env, argv[2]),
                                  nd_get_u64(env, argv[3]));
  return nd_undefined(env);
}

/* copyBufferToTexture(encoder, {buffer, offset, bytesPerRow, rowsPerImage},
 * textureInfo, extent) */
ND_FN(copy_buffer_to_texture) {
  ENCODER_ARG(4);
  ls_texel_copy_buffer_layout layout;
  ls_texel_copy_texture_info dst;
  ls_extent3d size;
  nd_copy_buffer_layout(env, argv[1], &layout);
  nd_copy_texture_info(env, argv[2], &dst);
  nd_extent(env, argv[3], &size);
  ls_command_encoder_copy_buffer_to_texture(enc, nd_handle(env, nd_prop(env, argv[1], "buffer"), ND_BUFFER),
                                            &layout, &dst, &size);
  return nd_undefined(env);
}

/* copyTextureToBuffer(encoder, textureInfo, {buffer, ...layout}, extent) */
ND_FN(copy_texture_to_buffer) {
  ENCODER_ARG(4);
  ls_texel_copy_buffer_layout layout;
  ls_texel_copy_texture_info src;
  ls_extent3d size;
  nd_copy_texture_info(env, argv[1], &src);
  nd_copy_buffer_layout(env, argv[2], &layout);
  nd_extent(env, argv[3], &size);
  ls_command_encoder_copy_texture_to_buffer(enc, &src,
                                            nd_handle(env, nd_prop(env, argv[2], "buffer"), ND_BUFFER),
                                            &layout, &size);
  return nd_undefined(env);
}

/* copyTextureToTexture(encoder, srcInfo, dstInfo, extent) */
ND_FN(copy_texture_to_texture) {
  ENCODER_ARG(4);
  ls_texel_copy_texture_info src, dst;
  ls_extent3d size;
  nd_copy_texture_info(env, argv[1], &src);
  nd_copy_texture_info(env, argv[2], &dst);
  nd_extent(env, argv[3], &size);
  ls_command_encoder_copy_texture_to_texture(enc, &src, &dst, &size);
  return nd_undefined(env);
}

/* resolveQuerySet(encoder, querySet, first, count, dst, dstOffset) */
ND_FN(resolve_query_set) {
  ENCODER_ARG(6);
  ls_command_encoder_resolve_query_set(enc, nd_handle(env, argv[1], ND_QUERY_SET),
                                       nd_get_u32(env, argv[2]), nd_get_u32(env, argv[3]),
                                       nd_handle(env, argv[4], ND_BUFFER), nd_get_u64(env, argv[5]));
  return nd_undefined(env);
}

/* encoderDebug(encoder, op, label): op 0 push, 1 pop, 2 marker. */
ND_FN(encoder_debug) {
  ENCODER_ARG(3);
  char *label = nd_get_str(env, argv[2]);
  switch (nd_get_u32(env, argv[1])) {
  case 0: ls_command_encoder_push_debug_group(enc, label ? label : ""); break;
  case 1: ls_command_encoder_pop_debug_group(enc); break;
  default: ls_command_encoder_insert_debug_marker(enc, label ? label : ""); break;
  }
  free(label);
  return nd_undefined(env);
}

/* beginComputePass(jsPass, encoder, label, querySet, beginIndex, endIndex):
 * true when a pass was opened (indices undefined = not written). */
ND_FN(begin_compute_pass) {
  napi_value argv[6];
  if (!nd_args(env, info, 6, argv)) return NULL;
  nd_obj *e = nd_unwrap(env, argv[1], ND_COMMAND_ENCODER);
  if (!e || !e->h) return nd_bool(env, 0);
  char *label = nd_get_str(env, argv[2]);
  ls_compute_pass_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_compute_pass_desc),
    .label = label,
    .timestamp_query_set = nd_is_nullish(env, argv[3]) ? NULL : nd_handle(env, argv[3], ND_QUERY_SET),
    .beginning_of_pass_write_index =
        nd_is_nullish(env, argv[4]) ? LS_QUERY_INDEX_UNDEFINED : nd_get_u32(env, argv[4]),
    .end_of_pass_write_index =
        nd_is_nullish(env, argv[5]) ? LS_QUERY_INDEX_UNDEFINED : nd_get_u32(env, argv[5]),
  };
  ls_compute_pass *p = ls_command_encoder_begin_compute_pass(e->h, &desc);
  free(label);
  if (!p) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_COMPUTE_PASS, p, e->dev) != NULL);
}

/* finish(jsCommandBuffer, encoder, label): the encoder is ended (its handle
 * stays in the wrap until the finalizer releases it); true when a command
 * buffer came out (else lockstep raised the error). */
ND_FN(encoder_finish) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  nd_obj *e = nd_unwrap(env, argv[1], ND_COMMAND_ENCODER);
  if (!e || !e->h) return nd_bool(env, 0);
  char *label = nd_get_str(env, argv[2]);
  ls_command_buffer_desc desc = {.struct_size = LS_STRUCT_SIZE(ls_command_buffer_desc),
                                 .label = label};
  ls_command_buffer *cb = ls_command_encoder_finish(e->h, &desc);
  free(label);
  if (!cb) return nd_bool(env, 0);
  return nd_bool(env, nd_wrap(env, argv[0], ND_COMMAND_BUFFER, cb, e->dev) != NULL);
}

const nd_export nd_exports_encoder[] = {
  {"encoderCreate", encoder_create},
  {"copyBufferToBuffer", copy_buffer_to_buffer},
  {"clearBuffer", clear_buffer},
  {"copyBufferToTexture", copy_buffer_to_texture},
  {"copyTextureToBuffer", copy_texture_to_buffer},
  {"copyTextureToTexture", copy_texture_to_texture},
  {"resolveQuerySet", resolve_query_set},
  {"encoderDebug", encoder_debug},
  {"beginComputePass", begin_compute_pass},
  {"encoderFinish", encoder_finish},
  {NULL, NULL},
};
