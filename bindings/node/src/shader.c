/*
 * shader.c — GPUShaderModule: createShaderModule and the messages of
 * getCompilationInfo, whose positions lockstep gives in UTF-8 bytes and
 * WebGPU wants in UTF-16 code units (lineNum, linePos, offset, length).
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

/* shaderCreate(js, device, code, fileName): the module is made even when
 * its WGSL has errors (they are read with shaderMessages); fileName is the
 * label, or "module N", that diagnostics name. True when lockstep made a
 * module (false only on a lost device or no memory). */
ND_FN(shader_create) {
  napi_value argv[4];
  if (!nd_args(env, info, 4, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[1]);
  if (!d) return nd_bool(env, 0);
  size_t code_len = 0;
  char *code = nd_get_str_len(env, argv[2], &code_len);
  char *name = nd_get_str(env, argv[3]);
  /* with its length: a NUL character in the source is a WGSL error, not
   * its end */
  ls_shader_module_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_shader_module_desc),
    .code = code ? code : "",
    .label = name,
    .code_size = code_len,
  };
  ls_shader_module *m = ls_device_create_shader_module(d->h, &desc);
  free(name);
  if (!m) {
    free(code);
    return nd_bool(env, 0);
  }
  nd_obj *o = nd_wrap(env, argv[0], ND_SHADER_MODULE, m, d);
  if (!o) {
    free(code);
    return NULL;
  }
  o->source = code;
  o->source_len = code ? code_len : 0;
  return nd_bool(env, 1);
}

ND_FN(shader_is_valid) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  ls_shader_module *m = nd_handle(env, argv[0], ND_SHADER_MODULE);
  return nd_bool(env, m && ls_shader_module_is_valid(m));
}

/* UTF-16 code units in the UTF-8 bytes [from, to): one per sequence, two for
 * a four-byte sequence (a supplementary character is a surrogate pair). */
static uint32_t utf16_units(const char *s, size_t from, size_t to) {
  uint32_t n = 0;
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c & 0xC0) == 0x80) continue; /* continuation byte */
    n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

static const char *const message_types[] = {"error", "warning", "info"};

/* shaderMessages(js): [{type, message, lineNum, linePos, offset, length}]
 * in UTF-16 code units, as GPUCompilationMessage. */
ND_FN(shader_messages) {
  napi_value argv[1], arr;
  if (!nd_args(env, info, 1, argv)) return NULL;
  napi_create_array(env, &arr);
  nd_obj *o = nd_unwrap(env, argv[0], ND_SHADER_MODULE);
  if (!o || !o->h) return arr;
  size_t n = ls_shader_module_message_count(o->h);
  const char *src = o->source ? o->source : "";
  size_t len = o->source_len;
  for (size_t i = 0; i < n; i++) {
    const ls_compilation_message *m = ls_shader_module_message(o->h, i);
    if (!m) continue;
    napi_value e;
    napi_create_object(env, &e);
    nd_set(env, e, "type", nd_str(env, message_types[m->type % 3]));
    nd_set(env, e, "message", nd_str(env, m->message ? m->message : ""));
    uint32_t line = 0, pos = 0, off = 0, length = 0;
    if (m->line > 0) {
      size_t at = m->offset <= len ? m->offset : len;
      size_t end = at + m->length <= len ? at + m->length : len;
      size_t col = m->column > 0 ? m->column - 1 : 0;
      size_t line_start = col <= at ? at - col : 0;
      line = m->line;
      pos = utf16_units(src, line_start, at) + 1;
      off = utf16_units(src, 0, at);
      length = utf16_units(src, at, end);
    }
    nd_set(env, e, "lineNum", nd_u32(env, line));
    nd_set(env, e, "linePos", nd_u32(env, pos));
    nd_set(env, e, "offset", nd_u32(env, off));
    nd_set(env, e, "length", nd_u32(env, length));
    napi_set_element(env, arr, (uint32_t)i, e);
  }
  return arr;
}

/* shaderFormattedMessages(js): the compiler-style text, as the CLI prints
 * it. */
ND_FN(shader_formatted_messages) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  ls_shader_module *m = nd_handle(env, argv[0], ND_SHADER_MODULE);
  return m ? nd_str(env, ls_shader_module_format_messages(m)) : nd_str(env, "");
}

const nd_export nd_exports_shader[] = {
  {"shaderCreate", shader_create},
  {"shaderIsValid", shader_is_valid},
  {"shaderMessages", shader_messages},
  {"shaderFormattedMessages", shader_formatted_messages},
  {NULL, NULL},
};
