/*
 * case2.c — loading a version-2 case file (wgsl-compute-case/2,
 * docs/case-format.md) into a plan (case2.h): named objects into arrays,
 * commands into a list with every name resolved and every range that the
 * file alone decides checked, so that a bad file is refused with its JSON
 * path before anything is created. Field readers, init parts and compare
 * rules are version 1's (case_parse.h), so both formats read numbers and
 * words alike. The readbacks become the case file's buffer entries, which
 * is what result.c writes and compares.
 */
#include "case2.h"

#include "case_parse.h"
#include "cli_io.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The parse: the case file, the plan and the name tables (name -> index). */
typedef struct c2 {
  case_ctx *x;
  case_file *c;
  case2_plan *p;
  int read_files;
  json_t *names[8];
} c2;

enum { N_MODULE, N_BUFFER, N_TEXTURE, N_SAMPLER, N_LAYOUT, N_PLAYOUT, N_PIPELINE, N_GROUP };
static const char *const c2_kind[8] = {"module", "buffer", "texture", "sampler",
                                       "bind group layout", "pipeline layout", "pipeline",
                                       "bind group"};

static int c2_add_name(c2 *s, int kind, const char *name, size_t i, const char *at) {
  if (json_object_set_new(s->names[kind], name, json_integer((json_int_t)i)))
    return case_nomem(s->x, at);
  return 0;
}

/* obj.key names an object of `kind`: its index into *out. */
static int c2_ref(c2 *s, const json_t *obj, const char *at, const char *key, int kind,
                  size_t *out) {
  const json_t *v = case_required(s->x, obj, at, key);
  const char *name;
  if (!v) return -1;
  case_path kp = case_key(at, key);
  if (case_string(s->x, v, kp.s, &name)) return -1;
  const json_t *i = json_object_get(s->names[kind], name);
  if (!i) return case_fail(s->x, kp.s, "no %s named \"%s\"", c2_kind[kind], name);
  *out = (size_t)json_integer_value(i);
  return 0;
}

static int c2_object(c2 *s, const json_t *v, const char *at) {
  if (!json_is_object(v))
    return case_fail(s->x, at, "expected an object, not %s", case_json_type(v));
  return 0;
}

/* An optional object section: n entries allocated of size `each`. */
static const json_t *c2_section(c2 *s, const json_t *root, const char *key, void **arr,
                                size_t each, int *bad) {
  const json_t *v = json_object_get(root, key);
  *bad = 0;
  if (!v) return NULL;
  if (!json_is_object(v)) {
    *bad = case_fail(s->x, key, "expected an object mapping names to objects, not %s",
                     case_json_type(v));
    return NULL;
  }
  *arr = calloc(json_object_size(v) + 1, each);
  if (!*arr) *bad = case_nomem(s->x, key);
  return v;
}

static int c2_bool(c2 *s, const json_t *obj, const char *at, const char *key, int *out) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_boolean(v))
    return case_fail(s->x, case_key(at, key).s, "expected true or false, not %s",
                     case_json_type(v));
  *out = json_is_true(v);
  return 0;
}

/* A usage: a list of names (bit k = names[k]) or the bits as a number. */
static int c2_usage(c2 *s, const json_t *v, const char *at, const char *const *names, int n,
                    uint32_t *out) {
  *out = 0;
  if (json_is_number(v)) {
    uint64_t u;
    if (case_uint(s->x, v, at, (1u << n) - 1, &u)) return -1;
    *out = (uint32_t)u;
    return 0;
  }
  if (!json_is_array(v))
    return case_fail(s->x, at, "expected a list of usage names or a number, not %s",
                     case_json_type(v));
  for (size_t i = 0; i < json_array_size(v); i++) {
    case_path ip = case_index(at, i);
    const char *name;
    if (case_string(s->x, json_array_get(v, i), ip.s, &name)) return -1;
    int k = 0;
    while (k < n && strcmp(names[k], name)) k++;
    if (k == n) {
      char list[320] = "";
      for (int j = 0; j < n; j++) {
        if (j) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, names[j], sizeof list - strlen(list) - 1);
      }
      return case_fail(s->x, ip.s, "unknown usage \"%s\" (%s)", name, list);
    }
    *out |= 1u << k;
  }
  return 0;
}

/* [x, y, z] (missing entries `dflt`) or {keys[0], keys[1], keys[2]}. */
static int c2_triple(c2 *s, const json_t *v, const char *at, const char *const keys[3],
                     uint32_t dflt, uint64_t max, uint32_t out[3]) {
  for (int k = 0; k < 3; k++) out[k] = dflt;
  if (json_is_object(v)) {
    for (int k = 0; k < 3; k++) {
      uint64_t u;
      if (case_opt_uint(s->x, v, at, keys[k], max, dflt, &u, NULL)) return -1;
      out[k] = (uint32_t)u;
    }
    return 0;
  }
  if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3)
    return case_fail(s->x, at, "expected a list of 1 to 3 numbers");
  for (size_t k = 0; k < json_array_size(v); k++) {
    uint64_t u;
    if (case_uint(s->x, json_array_get(v, k), case_index(at, k).s, max, &u)) return -1;
    out[k] = (uint32_t)u;
  }
  return 0;
}

/* ------------------------------------------------------------------ init */

static int c2_hex(int ch) {
  return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* A side file {file, bytes, sha256} into words (max_bytes of room). */
static int c2_side_file(c2 *s, const json_t *init, const char *at, uint64_t max_bytes,
                        uint32_t **words, uint64_t *bytes) {
  case_ctx *x = s->x;
  const json_t *v;
  const char *file, *hex;
  if (!(v = case_required(x, init, at, "file")) ||
      case_string(x, v, case_key(at, "file").s, &file) ||
      !(v = case_required(x, init, at, "bytes")) ||
      case_uint(x, v, case_key(at, "bytes").s, max_bytes, bytes) ||
      !(v = case_required(x, init, at, "sha256")) ||
      case_string(x, v, case_key(at, "sha256").s, &hex))
    return -1;
  if (*bytes % 4)
    return case_fail(x, case_key(at, "bytes").s, "%llu is not a multiple of 4",
                     (unsigned long long)*bytes);
  uint8_t want[32];
  if (strlen(hex) != 64)
    return case_fail(x, case_key(at, "sha256").s, "expected 64 hex digits, not %zu characters",
                     strlen(hex));
  for (int i = 0; i < 32; i++) {
    int hi = c2_hex(hex[2 * i]), lo = c2_hex(hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return case_fail(x, case_key(at, "sha256").s, "\"%s\" is not 64 hex digits", hex);
    want[i] = (uint8_t)(hi * 16 + lo);
  }
  *words = calloc((size_t)(*bytes / 4) + 1, 4);
  if (!*words) return case_nomem(x, at);
  if (!s->read_files) return 0;
  char *path = case_join(s->c->path, file);
  if (!path) return case_nomem(x, at);
  char msg[512];
  int why;
  size_t len;
  char *data = cli_read_file(path, &len, &why, msg, sizeof msg);
  int rc = 0;
  if (!data) {
    x->nomem = why == CLI_READ_NO_MEMORY;
    rc = case_fail(x, case_key(at, "file").s, "%s", msg);
  } else if (len != *bytes) {
    rc = case_fail(x, case_key(at, "file").s, "%s holds %zu bytes, not the %llu \"bytes\" says%s",
                   path, len, (unsigned long long)*bytes,
                   len < *bytes ? " (the file is short)" : "");
  } else {
    uint8_t got[32];
    result_sha256_bytes(data, len, got);
    if (memcmp(got, want, 32)) {
      char gh[65];
      for (int i = 0; i < 32; i++) snprintf(gh + 2 * i, 3, "%02x", got[i]);
      rc = case_fail(x, case_key(at, "sha256").s, "the SHA-256 of %s is %s, not %s", path, gh,
                     hex);
    } else {
      memcpy(*words, data, len);
    }
  }
  free(data);
  free(path);
  return rc;
}

/* The words an init of parts writes, from word 0: the end of its last. */
static uint64_t c2_extent(const json_t *init, uint64_t room) {
  uint64_t end = 0;
  size_t n = json_is_array(init) ? json_array_size(init) : 1;
  for (size_t k = 0; k < n; k++) {
    const json_t *part = json_is_array(init) ? json_array_get(init, k) : init;
    const json_t *at = json_object_get(part, "at"), *data = json_object_get(part, "data"),
                 *cnt = json_object_get(part, "count");
    double a = json_is_number(at) ? json_number_value(at) : 0, e;
    if (json_is_array(data)) e = a + (double)json_array_size(data);
    else if (json_is_number(cnt)) e = a + json_number_value(cnt);
    else e = (double)room;
    /* bad numbers are the part's to report: stay within the room */
    if (!(e >= 0) || e > (double)room) e = (double)room;
    if ((uint64_t)e > end) end = (uint64_t)e;
  }
  return end;
}

/* An init of parts or a side file. `room` bytes at most; *bytes: the exact
 * size when nonzero on entry (a buffer's, a texture's), else what the init
 * writes. Words are typed by rec from record position `phase`. */
static int c2_init(c2 *s, const json_t *init, const char *at, const char *obj, uint64_t room,
                   const case_word *rec, size_t rec_len, size_t phase, uint32_t **words,
                   uint64_t *bytes) {
  const uint64_t exact = *bytes;
  if (exact && room > exact) room = exact;
  if (json_is_object(init) && json_object_get(init, "file")) {
    if (c2_side_file(s, init, at, room, words, bytes)) return -1;
    if (exact && *bytes < exact) {
      /* a buffer's rest stays zero */
      uint32_t *w = realloc(*words, (size_t)exact + 4);
      if (!w) return case_nomem(s->x, at);
      memset((uint8_t *)w + *bytes, 0, (size_t)(exact - *bytes));
      *words = w;
    }
    if (exact) *bytes = exact;
    return 0;
  }
  if (!json_is_object(init) && !json_is_array(init))
    return case_fail(s->x, at, "expected an init part, a list of them or a side file "
                               "{file, bytes, sha256}, not %s", case_json_type(init));
  uint64_t nwords = exact ? exact / 4 : c2_extent(init, room / 4);
  if (!exact && !nwords) return case_fail(s->x, at, "writes no words");
  case_buffer tb;
  memset(&tb, 0, sizeof tb);
  tb.name = (char *)obj;
  tb.words = nwords;
  tb.rec_len = rec_len;
  tb.rec = malloc(rec_len * sizeof *tb.rec);
  tb.init = calloc((size_t)nwords + 1, 4);
  if (!tb.rec || !tb.init) {
    free(tb.rec);
    free(tb.init);
    return case_nomem(s->x, at);
  }
  for (size_t i = 0; i < rec_len; i++) tb.rec[i] = rec[(phase + i) % rec_len];
  *words = tb.init;
  *bytes = nwords * 4;
  int rc = 0;
  if (json_is_array(init)) {
    for (size_t k = 0; !rc && k < json_array_size(init); k++)
      rc = case_init_part(s->x, json_array_get(init, k), case_index(at, k).s, &tb);
  } else {
    rc = case_init_part(s->x, init, at, &tb);
  }
  free(tb.rec);
  return rc;
}

/* An optional "type" (default u32) into rec. */
static int c2_type(c2 *s, const json_t *obj, const char *at, json_t **type, case_word **rec,
                   size_t *rec_len) {
  const json_t *v = json_object_get(obj, "type");
  case_buffer tb;
  memset(&tb, 0, sizeof tb);
  json_t *u32 = NULL;
  if (!v) v = u32 = json_string("u32");
  if (!v) return case_nomem(s->x, at);
  int rc = case_record(s->x, v, case_key(at, "type").s, &tb);
  if (!rc) {
    *rec = tb.rec;
    *rec_len = tb.rec_len;
    *type = json_incref((json_t *)v);
  }
  json_decref(u32);
  return rc;
}

static int c2_label(c2 *s, const json_t *obj, const char *at, char **out) {
  const json_t *v = json_object_get(obj, "label");
  const char *str;
  if (!v) return 0;
  if (case_string(s->x, v, case_key(at, "label").s, &str)) return -1;
  if (!(*out = case_strdup(str))) return case_nomem(s->x, at);
  return 0;
}

/* --------------------------------------------------------------- objects */

static int c2_module(c2 *s, void *obj_, const char *at, const json_t *jm) {
  case2_module *m = obj_;
  case_ctx *x = s->x;
  if (c2_object(s, jm, at)) return -1;
  const json_t *file = json_object_get(jm, "file"), *code = json_object_get(jm, "code");
  const char *str;
  if (!!file == !!code) return case_fail(x, at, "expected one of \"file\" and \"code\"");
  char *label = NULL;
  if (c2_label(s, jm, at, &label)) return -1;
  if (code) {
    if (case_string(x, code, case_key(at, "code").s, &str)) {
      free(label);
      return -1;
    }
    m->code_len = strlen(str);
    if (m->code_len != json_string_length(code)) {
      free(label);
      return case_fail(x, case_key(at, "code").s, "a NUL character (WGSL text cannot hold one)");
    }
    m->code = case_strdup(str);
    m->label = label ? label : case_strdup(at);
    if (!m->code || !m->label) return case_nomem(x, at);
    return 0;
  }
  free(label); /* a file names itself */
  if (case_string(x, file, case_key(at, "file").s, &str)) return -1;
  if (!(m->label = case_join(s->c->path, str))) return case_nomem(x, at);
  if (!s->read_files) return 0;
  char msg[512];
  int why;
  m->code = cli_read_file(m->label, &m->code_len, &why, msg, sizeof msg);
  if (!m->code) {
    x->nomem = why == CLI_READ_NO_MEMORY;
    return case_fail(x, case_key(at, "file").s, "%s", msg);
  }
  if (cli_text_without_nul(m->code, m->code_len, m->label, "WGSL text", msg, sizeof msg))
    return case_fail(x, case_key(at, "file").s, "%s", msg);
  return 0;
}

static const char *const c2_buffer_usages[] = {"map-read", "map-write", "copy-src", "copy-dst",
                                               "index",    "vertex",    "uniform",  "storage",
                                               "indirect", "query-resolve"};
static const char *const c2_texture_usages[] = {"copy-src", "copy-dst", "texture-binding",
                                                "storage-binding", "render-attachment"};

static int c2_buffer(c2 *s, void *obj_, const char *at, const json_t *jb) {
  case2_buffer *b = obj_;
  case_ctx *x = s->x;
  if (c2_object(s, jb, at)) return -1;
  const json_t *v;
  if (!(v = case_required(x, jb, at, "size"))) return -1;
  if (case_uint(x, v, case_key(at, "size").s, CASE_MAX_WORDS * 4, &b->size)) return -1;
  if (b->size % 4 || !b->size)
    return case_fail(x, case_key(at, "size").s, "%llu is not a positive multiple of 4",
                     (unsigned long long)b->size);
  if (!(v = case_required(x, jb, at, "usage"))) return -1;
  if (c2_usage(s, v, case_key(at, "usage").s, c2_buffer_usages, 10, &b->usage)) return -1;
  if (c2_label(s, jb, at, &b->label)) return -1;
  if (c2_type(s, jb, at, &b->type, &b->rec, &b->rec_len)) return -1;
  const json_t *init = json_object_get(jb, "init");
  uint64_t bytes = b->size;
  if (init && c2_init(s, init, case_key(at, "init").s, b->name, b->size, b->rec, b->rec_len, 0,
                      &b->init, &bytes))
    return -1;
  return 0;
}

static int c2_texture(c2 *s, void *obj_, const char *at, const json_t *jt) {
  case2_texture *t = obj_;
  case_ctx *x = s->x;
  if (c2_object(s, jt, at)) return -1;
  const json_t *v;
  const char *str;
  ls_texture_desc *d = &t->desc;
  d->struct_size = sizeof *d;
  if (!(v = case_required(x, jt, at, "format")) || case_string(x, v, case_key(at, "format").s, &str))
    return -1;
  if (!(d->format = ls_texture_format_from_name(str)))
    return case_fail(x, case_key(at, "format").s, "texture format \"%s\" is not one lockstep holds",
                     str);
  static const char *const wh[3] = {"width", "height", "depthOrArrayLayers"};
  uint32_t sz[3];
  if (!(v = case_required(x, jt, at, "size")) || c2_triple(s, v, case_key(at, "size").s, wh, 1, 16384, sz))
    return -1;
  d->size = (ls_extent3d){sz[0], sz[1], sz[2]};
  static const char *const dims[] = {"2d", "1d", "3d"};
  int k;
  if (case_enum(x, jt, at, "dimension", dims, 3, 0, &k)) return -1;
  d->dimension = (ls_texture_dimension)k;
  uint64_t u;
  if (case_opt_uint(x, jt, at, "mipLevelCount", 32, 1, &u, NULL)) return -1;
  d->mip_level_count = (uint32_t)u;
  if (case_opt_uint(x, jt, at, "sampleCount", 4, 1, &u, NULL)) return -1;
  d->sample_count = (uint32_t)u;
  if (!(v = case_required(x, jt, at, "usage"))) return -1;
  if (c2_usage(s, v, case_key(at, "usage").s, c2_texture_usages, 5, &d->usage)) return -1;
  if (c2_label(s, jt, at, &t->label)) return -1;
  d->label = t->label ? t->label : t->name;
  if (c2_type(s, jt, at, &t->type, &t->rec, &t->rec_len)) return -1;
  const json_t *init = json_object_get(jt, "init");
  if (!init) return 0;
  uint64_t bytes = (uint64_t)sz[0] * sz[1] * sz[2] * ls_texture_format_texel_bytes(d->format);
  if (bytes % 4 || bytes > CASE_MAX_WORDS * 4)
    return case_fail(x, case_key(at, "init").s, "level 0 of texture \"%s\" is %llu bytes, not a "
                     "whole number of words up to %llu", t->name, (unsigned long long)bytes,
                     (unsigned long long)CASE_MAX_WORDS * 4);
  int rc = c2_init(s, init, case_key(at, "init").s, t->name, bytes, t->rec, t->rec_len, 0,
                   &t->init, &bytes);
  t->init_bytes = (size_t)bytes;
  return rc;
}

static int c2_sampler(c2 *s, void *obj_, const char *at, const json_t *js) {
  case2_sampler *sm = obj_;
  case_buffer tb;
  memset(&tb, 0, sizeof tb);
  tb.name = sm->name;
  if (case_sampler(s->x, js, at, &tb)) return -1;
  sm->desc = tb.smp_desc;
  return 0;
}

static const char *const c2_view_dims[] = {NULL, "1d", "2d", "2d-array", "cube", "cube-array", "3d"};

static int c2_layout_entry(c2 *s, ls_bind_group_layout_entry *e, const char *at, const json_t *je) {
  case_ctx *x = s->x;
  if (c2_object(s, je, at)) return -1;
  uint64_t u;
  const json_t *v;
  if (!(v = case_required(x, je, at, "binding")) ||
      case_uint(x, v, case_key(at, "binding").s, UINT32_MAX, &u))
    return -1;
  e->binding = (uint32_t)u;
  if ((v = json_object_get(je, "visibility"))) {
    static const char *const st[] = {"vertex", "fragment", "compute"};
    uint32_t vis; /* bit k is st[k]: GPUShaderStage's VERTEX, FRAGMENT, COMPUTE */
    if (c2_usage(s, v, case_key(at, "visibility").s, st, 3, &vis)) return -1;
    e->visibility = vis ? vis : LS_SHADER_STAGE_NONE;
  }
  static const char *const kinds[] = {"buffer", "sampler", "texture", "storageTexture"};
  int which = -1;
  for (int k = 0; k < 4; k++)
    if (json_object_get(je, kinds[k])) {
      if (which >= 0)
        return case_fail(x, at, "both \"%s\" and \"%s\" (an entry binds one resource)",
                         kinds[which], kinds[k]);
      which = k;
    }
  if (which < 0) {
    if (json_object_get(je, "externalTexture"))
      return case_fail(x, case_key(at, "externalTexture").s,
                       "external textures cannot be replayed from a case file");
    return case_fail(x, at, "expected one of \"buffer\", \"sampler\", \"texture\", "
                            "\"storageTexture\"");
  }
  case_path kp = case_key(at, kinds[which]);
  const json_t *o = json_object_get(je, kinds[which]);
  if (c2_object(s, o, kp.s)) return -1;
  int k = 0;
  if (which == 0) {
    static const char *const bt[] = {"uniform", "storage", "read-only-storage"};
    if (case_enum(x, o, kp.s, "type", bt, 3, 0, &k)) return -1;
    e->type = (ls_binding_type)(LS_BINDING_UNIFORM + k);
    if (c2_bool(s, o, kp.s, "hasDynamicOffset", &e->has_dynamic_offset) ||
        case_opt_uint(x, o, kp.s, "minBindingSize", UINT64_MAX, 0, &e->min_binding_size, NULL))
      return -1;
  } else if (which == 1) {
    static const char *const sty[] = {"filtering", "non-filtering", "comparison"};
    if (case_enum(x, o, kp.s, "type", sty, 3, 0, &k)) return -1;
    e->type = (ls_binding_type)(LS_BINDING_FILTERING_SAMPLER + k);
  } else if (which == 2) {
    static const char *const st[] = {"float", "unfilterable-float", "depth", "sint", "uint"};
    e->type = LS_BINDING_SAMPLED_TEXTURE;
    if (case_enum(x, o, kp.s, "sampleType", st, 5, 0, &k)) return -1;
    e->sample_type = (ls_texture_sample_type)k;
    if (case_enum(x, o, kp.s, "viewDimension", c2_view_dims, 7, 2, &k)) return -1;
    e->view_dimension = (ls_view_dimension)k;
    if (c2_bool(s, o, kp.s, "multisampled", &e->multisampled)) return -1;
  } else {
    static const char *const acc[] = {"write-only", "read-only", "read-write"};
    if (case_enum(x, o, kp.s, "access", acc, 3, 0, &k)) return -1;
    e->type = (ls_binding_type)(LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE + k);
    if (case_enum(x, o, kp.s, "viewDimension", c2_view_dims, 7, 2, &k)) return -1;
    e->view_dimension = (ls_view_dimension)k;
    const char *f;
    if (!(v = case_required(x, o, kp.s, "format")) ||
        case_string(x, v, case_key(kp.s, "format").s, &f))
      return -1;
    if (!(e->format = ls_texture_format_from_name(f)))
      return case_fail(x, case_key(kp.s, "format").s, "texture format \"%s\" is not one lockstep "
                       "holds", f);
  }
  return 0;
}

static int c2_layout(c2 *s, void *obj_, const char *at, const json_t *jl) {
  case2_layout *l = obj_;
  const json_t *v;
  if (c2_object(s, jl, at) || !(v = case_required(s->x, jl, at, "entries"))) return -1;
  case_path ep = case_key(at, "entries");
  if (!json_is_array(v)) return case_fail(s->x, ep.s, "expected a list, not %s", case_json_type(v));
  if (!(l->entries = calloc(json_array_size(v) + 1, sizeof *l->entries)))
    return case_nomem(s->x, at);
  for (size_t i = 0; i < json_array_size(v); i++, l->nentries++)
    if (c2_layout_entry(s, &l->entries[i], case_index(ep.s, i).s, json_array_get(v, i))) return -1;
  return 0;
}

static int c2_playout(c2 *s, void *obj_, const char *at, const json_t *jp) {
  case2_playout *pl = obj_;
  const json_t *v;
  if (c2_object(s, jp, at) || !(v = case_required(s->x, jp, at, "bindGroupLayouts"))) return -1;
  case_path lp = case_key(at, "bindGroupLayouts");
  if (!json_is_array(v)) return case_fail(s->x, lp.s, "expected a list, not %s", case_json_type(v));
  if (json_array_size(v) > 64) return case_fail(s->x, lp.s, "more than 64 groups");
  if (!(pl->groups = calloc(json_array_size(v) + 1, sizeof *pl->groups)))
    return case_nomem(s->x, at);
  for (size_t i = 0; i < json_array_size(v); i++, pl->ngroups++) {
    const json_t *g = json_array_get(v, i);
    case_path gp = case_index(lp.s, i);
    pl->groups[i] = CASE2_NONE;
    if (json_is_null(g)) continue;
    const char *name;
    if (case_string(s->x, g, gp.s, &name)) return -1;
    const json_t *idx = json_object_get(s->names[N_LAYOUT], name);
    if (!idx) return case_fail(s->x, gp.s, "no bind group layout named \"%s\"", name);
    pl->groups[i] = (size_t)json_integer_value(idx);
  }
  uint64_t u;
  if (case_opt_uint(s->x, jp, at, "immediateSize", 256, 0, &u, NULL)) return -1;
  if (u % 4) return case_fail(s->x, case_key(at, "immediateSize").s, "not a multiple of 4");
  pl->immediate_size = (uint32_t)u;
  return 0;
}

static int c2_pipeline(c2 *s, void *obj_, const char *at, const json_t *jp) {
  case2_pipeline *p = obj_;
  case_ctx *x = s->x;
  if (c2_object(s, jp, at) || c2_ref(s, jp, at, "module", N_MODULE, &p->module)) return -1;
  const json_t *v;
  const char *str;
  if ((v = json_object_get(jp, "entryPoint"))) {
    if (case_string(x, v, case_key(at, "entryPoint").s, &str)) return -1;
    if (!(p->entry = case_strdup(str))) return case_nomem(x, at);
  }
  p->layout = CASE2_NONE;
  v = json_object_get(jp, "layout");
  if (v && !(json_is_string(v) && !strcmp(json_string_value(v), "auto")) &&
      c2_ref(s, jp, at, "layout", N_PLAYOUT, &p->layout))
    return -1;
  const json_t *consts = json_object_get(jp, "constants");
  if (!consts) return 0;
  case_path kp = case_key(at, "constants");
  if (c2_object(s, consts, kp.s)) return -1;
  if (!(p->constants = calloc(json_object_size(consts) + 1, sizeof *p->constants)))
    return case_nomem(x, kp.s);
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)consts, key, val) {
    case_path vp = case_key(kp.s, key);
    if (!json_is_number(val) && !json_is_boolean(val))
      return case_fail(x, vp.s, "expected a number, not %s", case_json_type(val));
    char *k = case_strdup(key);
    if (!k) return case_nomem(x, vp.s);
    p->constants[p->nconstants].key = k;
    /* a boolean as WebIDL turns it into a double */
    p->constants[p->nconstants++].value =
        json_is_number(val) ? json_number_value(val) : json_is_true(val) ? 1 : 0;
  }
  return 0;
}

static int c2_view(c2 *s, ls_texture_view_desc *d, const char *at, const json_t *jv) {
  case_ctx *x = s->x;
  if (c2_object(s, jv, at)) return -1;
  d->struct_size = sizeof *d;
  const json_t *v;
  const char *str;
  if ((v = json_object_get(jv, "format"))) {
    if (case_string(x, v, case_key(at, "format").s, &str)) return -1;
    if (!(d->format = ls_texture_format_from_name(str)))
      return case_fail(x, case_key(at, "format").s, "texture format \"%s\" is not one lockstep "
                       "holds", str);
  }
  static const char *const asp[] = {"all", "stencil-only", "depth-only"};
  int k;
  uint64_t u[4];
  if (case_enum(x, jv, at, "dimension", c2_view_dims, 7, 0, &k)) return -1;
  d->dimension = (ls_view_dimension)k;
  if (case_enum(x, jv, at, "aspect", asp, 3, 0, &k)) return -1;
  d->aspect = (ls_texture_aspect)k;
  if (case_opt_uint(x, jv, at, "baseMipLevel", 31, 0, &u[0], NULL) ||
      case_opt_uint(x, jv, at, "mipLevelCount", 32, 0, &u[1], NULL) ||
      case_opt_uint(x, jv, at, "baseArrayLayer", UINT32_MAX, 0, &u[2], NULL) ||
      case_opt_uint(x, jv, at, "arrayLayerCount", UINT32_MAX, 0, &u[3], NULL))
    return -1;
  d->base_mip_level = (uint32_t)u[0];
  d->mip_level_count = (uint32_t)u[1];
  d->base_array_layer = (uint32_t)u[2];
  d->array_layer_count = (uint32_t)u[3];
  return 0;
}

static int c2_group_entry(c2 *s, case2_entry *e, const char *at, const json_t *je) {
  case_ctx *x = s->x;
  uint64_t u;
  const json_t *v;
  if (c2_object(s, je, at) || !(v = case_required(x, je, at, "binding")) ||
      case_uint(x, v, case_key(at, "binding").s, UINT32_MAX, &u))
    return -1;
  e->binding = (uint32_t)u;
  const int nb = !!json_object_get(je, "buffer"), nt = !!json_object_get(je, "texture"),
            ns = !!json_object_get(je, "sampler");
  if (nb + nt + ns != 1)
    return case_fail(x, at, "expected exactly one of \"buffer\", \"texture\", \"sampler\"");
  if (ns) {
    e->res = CASE2_RES_SAMPLER;
    return c2_ref(s, je, at, "sampler", N_SAMPLER, &e->obj);
  }
  if (nt) {
    e->res = CASE2_RES_TEXTURE;
    if (c2_ref(s, je, at, "texture", N_TEXTURE, &e->obj)) return -1;
    const json_t *jv = json_object_get(je, "view");
    e->has_view = jv != NULL;
    return jv ? c2_view(s, &e->view, case_key(at, "view").s, jv) : 0;
  }
  e->res = CASE2_RES_BUFFER;
  if (c2_ref(s, je, at, "buffer", N_BUFFER, &e->obj)) return -1;
  const case2_buffer *b = &s->p->buffers[e->obj];
  int has_size;
  if (case_opt_uint(x, je, at, "offset", b->size, 0, &e->offset, NULL) ||
      case_opt_uint(x, je, at, "size", b->size - e->offset, 0, &e->size, &has_size))
    return -1;
  if (!has_size) e->size = LS_WHOLE_SIZE;
  return 0;
}

static int c2_group(c2 *s, void *obj_, const char *at, const json_t *jg) {
  case2_group *g = obj_;
  case_ctx *x = s->x;
  const json_t *v;
  if (c2_object(s, jg, at) || !(v = case_required(x, jg, at, "layout"))) return -1;
  if (json_is_object(v)) {
    case_path lp = case_key(at, "layout");
    uint64_t u;
    const json_t *gi;
    if (c2_ref(s, v, lp.s, "pipeline", N_PIPELINE, &g->layout) ||
        !(gi = case_required(x, v, lp.s, "group")) ||
        case_uint(x, gi, case_key(lp.s, "group").s, 63, &u))
      return -1;
    g->from_pipeline = 1;
    g->group = (uint32_t)u;
  } else if (c2_ref(s, jg, at, "layout", N_LAYOUT, &g->layout)) {
    return -1;
  }
  if (!(v = case_required(x, jg, at, "entries"))) return -1;
  case_path ep = case_key(at, "entries");
  if (!json_is_array(v)) return case_fail(x, ep.s, "expected a list, not %s", case_json_type(v));
  if (!(g->entries = calloc(json_array_size(v) + 1, sizeof *g->entries)))
    return case_nomem(x, at);
  for (size_t i = 0; i < json_array_size(v); i++, g->nentries++)
    if (c2_group_entry(s, &g->entries[i], case_index(ep.s, i).s, json_array_get(v, i))) return -1;
  return 0;
}

/* -------------------------------------------------------------- commands */

/* [off, off + size) inside buffer b, both multiples of 4. */
static int c2_range(c2 *s, const char *at, const case2_buffer *b, uint64_t off, uint64_t size) {
  if (off % 4 || size % 4)
    return case_fail(s->x, at, "%s %llu is not a multiple of 4", off % 4 ? "offset" : "size",
                     (unsigned long long)(off % 4 ? off : size));
  if (off > b->size || size > b->size - off)
    return case_fail(s->x, at, "bytes [%llu, %llu) go past the end of buffer \"%s\" (%llu bytes)",
                     (unsigned long long)off, (unsigned long long)(off + size), b->name,
                     (unsigned long long)b->size);
  return 0;
}

/* obj.offset (default 0) and obj.size (default the rest) of buffer b. */
static int c2_off_size(c2 *s, const json_t *obj, const char *at, const char *okey,
                       const case2_buffer *b, uint64_t *off, uint64_t *size) {
  int has;
  if (case_opt_uint(s->x, obj, at, okey, UINT64_MAX, 0, off, NULL) ||
      case_opt_uint(s->x, obj, at, "size", UINT64_MAX, 0, size, &has))
    return -1;
  if (!has) *size = *off <= b->size ? b->size - *off : 0;
  return c2_range(s, at, b, *off, *size);
}

static int c2_sets(c2 *s, case2_cmd *d, const char *at, const json_t *jd) {
  case_ctx *x = s->x;
  const json_t *v = case_required(x, jd, at, "bindGroups");
  if (!v) return -1;
  case_path sp = case_key(at, "bindGroups");
  if (!json_is_array(v)) return case_fail(x, sp.s, "expected a list, not %s", case_json_type(v));
  if (!(d->sets = calloc(json_array_size(v) + 1, sizeof *d->sets))) return case_nomem(x, at);
  for (size_t i = 0; i < json_array_size(v); i++) {
    const json_t *js = json_array_get(v, i);
    case_path ip = case_index(sp.s, i);
    case2_set *set = &d->sets[d->nsets++];
    uint64_t u;
    const json_t *g;
    if (c2_object(s, js, ip.s) || !(g = case_required(x, js, ip.s, "group")) ||
        case_uint(x, g, case_key(ip.s, "group").s, 63, &u) ||
        c2_ref(s, js, ip.s, "bindGroup", N_GROUP, &set->bind_group))
      return -1;
    set->group = (uint32_t)u;
    for (size_t k = 0; k + 1 < d->nsets; k++)
      if (d->sets[k].group == set->group)
        return case_fail(x, case_key(ip.s, "group").s, "group %u is set twice", set->group);
    const json_t *jo = json_object_get(js, "dynamicOffsets");
    case_path op = case_key(ip.s, "dynamicOffsets");
    if (jo && !json_is_array(jo))
      return case_fail(x, op.s, "expected a list, not %s", case_json_type(jo));
    size_t n = jo ? json_array_size(jo) : 0;
    if (!(set->offsets = calloc(n + 1, sizeof *set->offsets))) return case_nomem(x, at);
    for (size_t k = 0; k < n; k++, set->noffsets++) {
      if (case_uint(x, json_array_get(jo, k), case_index(op.s, k).s, UINT32_MAX, &u)) return -1;
      set->offsets[k] = (uint32_t)u;
    }
    /* an explicit layout says how many it takes (a pipeline's group is its
     * layout's); an auto layout has none */
    const case2_group *bg = &s->p->groups[set->bind_group];
    size_t li = bg->layout, want = 0;
    if (bg->from_pipeline) {
      const case2_pipeline *pp = &s->p->pipelines[bg->layout];
      const case2_playout *pl = pp->layout == CASE2_NONE ? NULL : &s->p->playouts[pp->layout];
      li = pl && bg->group < pl->ngroups ? pl->groups[bg->group] : CASE2_NONE;
    }
    for (size_t k = 0; li != CASE2_NONE && k < s->p->layouts[li].nentries; k++)
      want += s->p->layouts[li].entries[k].has_dynamic_offset != 0;
    if (n != want)
      return case_fail(x, jo ? op.s : ip.s, "%zu dynamic offset%s for bind group \"%s\", whose "
                       "layout has %zu dynamic entr%s", n, n == 1 ? "" : "s", bg->name, want,
                       want == 1 ? "y" : "ies");
  }
  return 0;
}

/* One side of a texel copy: {buffer, offset, bytesPerRow, rowsPerImage}
 * or {texture, mipLevel, origin, aspect}. */
static int c2_texel(c2 *s, const json_t *obj, const char *at, int buffer, case2_texel *t) {
  case_ctx *x = s->x;
  uint64_t u;
  if (c2_object(s, obj, at)) return -1;
  if (buffer) {
    int has;
    if (c2_ref(s, obj, at, "buffer", N_BUFFER, &t->obj) ||
        case_opt_uint(x, obj, at, "offset", s->p->buffers[t->obj].size, 0, &t->layout.offset,
                      NULL))
      return -1;
    if (case_opt_uint(x, obj, at, "bytesPerRow", UINT32_MAX - 1, 0, &u, &has)) return -1;
    t->layout.bytes_per_row = has ? (uint32_t)u : LS_COPY_STRIDE_UNDEFINED;
    if (case_opt_uint(x, obj, at, "rowsPerImage", UINT32_MAX - 1, 0, &u, &has)) return -1;
    t->layout.rows_per_image = has ? (uint32_t)u : LS_COPY_STRIDE_UNDEFINED;
    return 0;
  }
  static const char *const xyz[3] = {"x", "y", "z"};
  static const char *const asp[] = {"all", "stencil-only", "depth-only"};
  uint32_t o[3] = {0, 0, 0};
  const json_t *v;
  int k;
  if (c2_ref(s, obj, at, "texture", N_TEXTURE, &t->obj) ||
      case_opt_uint(x, obj, at, "mipLevel", 31, 0, &u, NULL))
    return -1;
  t->mip_level = (uint32_t)u;
  if ((v = json_object_get(obj, "origin")) &&
      c2_triple(s, v, case_key(at, "origin").s, xyz, 0, 16384, o))
    return -1;
  t->origin = (ls_origin3d){o[0], o[1], o[2]};
  if (case_enum(x, obj, at, "aspect", asp, 3, 0, &k)) return -1;
  t->aspect = (ls_texture_aspect)k;
  return 0;
}

static int c2_extent3d(c2 *s, const json_t *obj, const char *at, const char *key,
                       ls_extent3d *e) {
  static const char *const wh[3] = {"width", "height", "depthOrArrayLayers"};
  uint32_t sz[3];
  const json_t *v = case_required(s->x, obj, at, key);
  if (!v || c2_triple(s, v, case_key(at, key).s, wh, 1, 16384, sz)) return -1;
  *e = (ls_extent3d){sz[0], sz[1], sz[2]};
  return 0;
}

static int c2_readback(c2 *s, case2_cmd *d, const char *at, const json_t *jd) {
  case_ctx *x = s->x;
  case_file *c = s->c;
  const json_t *v;
  const char *name;
  if (c2_ref(s, jd, at, "buffer", N_BUFFER, &d->buffer)) return -1;
  const case2_buffer *b = &s->p->buffers[d->buffer];
  if (c2_off_size(s, jd, at, "offset", b, &d->offset, &d->size)) return -1;
  if (!d->size) return case_fail(x, at, "reads no bytes");
  if (!(b->usage & (LS_BUFFER_USAGE_COPY_SRC | LS_BUFFER_USAGE_MAP_READ)))
    return case_fail(x, case_key(at, "buffer").s, "buffer \"%s\" has neither copy-src nor "
                     "map-read usage, so nothing can read it", b->name);
  if (!(b->usage & LS_BUFFER_USAGE_COPY_SRC) && d->offset % 8)
    return case_fail(x, case_key(at, "offset").s, "buffer \"%s\" is read by mapping (map-read), "
                     "whose offset is a multiple of 8, not %llu", b->name,
                     (unsigned long long)d->offset);
  if (!(v = case_required(x, jd, at, "name")) || case_string(x, v, case_key(at, "name").s, &name))
    return -1;
  if (!*name) return case_fail(x, case_key(at, "name").s, "empty name");
  for (size_t k = 0; k < c->nbuffers; k++)
    if (!strcmp(c->buffers[k].name, name))
      return case_fail(x, case_key(at, "name").s, "a readback named \"%s\" comes before", name);
  d->readback = c->nbuffers;
  case_buffer *rb = &c->buffers[c->nbuffers++];
  c->readback[c->nreadback++] = d->readback;
  if (!(rb->name = case_strdup(name))) return case_nomem(x, at);
  rb->kind = CASE_KIND_NONE;
  if (json_object_get(jd, "type")) {
    if (c2_type(s, jd, at, &rb->type, &rb->rec, &rb->rec_len)) return -1;
  } else {
    if (!(rb->rec = malloc(b->rec_len * sizeof *rb->rec))) return case_nomem(x, at);
    memcpy(rb->rec, b->rec, b->rec_len * sizeof *rb->rec);
    rb->rec_len = b->rec_len;
    rb->type = json_incref(b->type);
  }
  rb->words = d->size / 4;
  if (rb->words % rb->rec_len)
    return case_fail(x, at, "%llu words are not a whole number of records of %zu words",
                     (unsigned long long)rb->words, rb->rec_len);
  rb->count = rb->words / rb->rec_len;
  return 0;
}

static int c2_write(c2 *s, case2_cmd *d, const char *at, const json_t *jd, int texture) {
  case_ctx *x = s->x;
  const json_t *data = case_required(x, jd, at, "data");
  if (!data) return -1;
  case_path dp = case_key(at, "data");
  uint64_t bytes = 0;
  if (texture) {
    if (c2_ref(s, jd, at, "texture", N_TEXTURE, &d->dst_t.obj)) return -1;
    const case2_texture *t = &s->p->textures[d->dst_t.obj];
    static const char *const xyz[3] = {"x", "y", "z"};
    static const char *const asp[] = {"all", "stencil-only", "depth-only"};
    uint32_t o[3] = {0, 0, 0};
    uint64_t u;
    int k;
    const json_t *v;
    if (case_opt_uint(x, jd, at, "mipLevel", 31, 0, &u, NULL)) return -1;
    d->dst_t.mip_level = (uint32_t)u;
    if ((v = json_object_get(jd, "origin")) &&
        c2_triple(s, v, case_key(at, "origin").s, xyz, 0, 16384, o))
      return -1;
    d->dst_t.origin = (ls_origin3d){o[0], o[1], o[2]};
    if (case_enum(x, jd, at, "aspect", asp, 3, 0, &k)) return -1;
    d->dst_t.aspect = (ls_texture_aspect)k;
    if (c2_extent3d(s, jd, at, "size", &d->extent)) return -1;
    const uint32_t tb = ls_texture_format_texel_bytes(t->desc.format);
    bytes = (uint64_t)d->extent.width * d->extent.height * d->extent.depth_or_array_layers * tb;
    if (!bytes || bytes % 4 || bytes > CASE_MAX_WORDS * 4)
      return case_fail(x, case_key(at, "size").s, "%llu bytes of texels, not a positive whole "
                       "number of words up to %llu", (unsigned long long)bytes,
                       (unsigned long long)CASE_MAX_WORDS * 4);
    d->dst_t.layout = (ls_texel_copy_buffer_layout){0, d->extent.width * tb, d->extent.height};
    if (c2_init(s, data, dp.s, t->name, bytes, t->rec, t->rec_len, 0, &d->data, &bytes))
      return -1;
    d->size = bytes;
    return 0;
  }
  if (c2_ref(s, jd, at, "buffer", N_BUFFER, &d->buffer)) return -1;
  const case2_buffer *b = &s->p->buffers[d->buffer];
  int has;
  if (case_opt_uint(x, jd, at, "offset", UINT64_MAX, 0, &d->offset, NULL) ||
      case_opt_uint(x, jd, at, "size", UINT64_MAX, 0, &bytes, &has) ||
      c2_range(s, at, b, d->offset, has ? bytes : 0))
    return -1;
  if (has && !bytes) return case_fail(x, case_key(at, "size").s, "writes no bytes");
  if (c2_init(s, data, dp.s, b->name, b->size - d->offset, b->rec, b->rec_len,
              (size_t)(d->offset / 4 % b->rec_len), &d->data, &bytes))
    return -1;
  d->size = bytes;
  return c2_range(s, at, b, d->offset, d->size);
}

static const char *const c2_ops[] = {
    "writeBuffer",         "writeTexture",        "dispatch",
    "dispatchIndirect",    "copyBufferToBuffer",  "copyBufferToTexture",
    "copyTextureToBuffer", "copyTextureToTexture", "clearBuffer",
    "submit",              "readback"};

static int c2_command(c2 *s, case2_cmd *d, const char *at, const json_t *jd) {
  case_ctx *x = s->x;
  int op;
  if (c2_object(s, jd, at)) return -1;
  if (!case_required(x, jd, at, "op") || case_enum(x, jd, at, "op", c2_ops, 11, 0, &op)) return -1;
  d->op = (case2_op)op;
  const json_t *v;
  switch (d->op) {
  case CASE2_WRITE_BUFFER:
  case CASE2_WRITE_TEXTURE:
    return c2_write(s, d, at, jd, d->op == CASE2_WRITE_TEXTURE);
  case CASE2_DISPATCH:
  case CASE2_DISPATCH_INDIRECT:
    if (c2_ref(s, jd, at, "pipeline", N_PIPELINE, &d->pipeline) || c2_sets(s, d, at, jd))
      return -1;
    s->c->ndispatches++;
    if ((v = json_object_get(jd, "immediates"))) {
      case_path ip = case_key(at, "immediates");
      if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 64)
        return case_fail(x, ip.s, "expected a list of 1 to 64 u32 words");
      for (size_t k = 0; k < json_array_size(v); k++) {
        uint64_t u;
        if (case_uint(x, json_array_get(v, k), case_index(ip.s, k).s, UINT32_MAX, &u)) return -1;
        d->immediates[k] = (uint32_t)u;
      }
      d->nimmediates = (uint32_t)json_array_size(v);
    }
    if (d->op == CASE2_DISPATCH) {
      static const char *const xyz[3] = {"x", "y", "z"};
      return !(v = case_required(x, jd, at, "workgroups")) ||
                     c2_triple(s, v, case_key(at, "workgroups").s, xyz, 1, UINT32_MAX,
                               d->workgroups)
                 ? -1
                 : 0;
    }
    if (c2_ref(s, jd, at, "buffer", N_BUFFER, &d->buffer) ||
        case_opt_uint(x, jd, at, "offset", UINT64_MAX, 0, &d->offset, NULL))
      return -1;
    return c2_range(s, at, &s->p->buffers[d->buffer], d->offset, 12);
  case CASE2_COPY_B2B: {
    if (c2_ref(s, jd, at, "src", N_BUFFER, &d->buffer) ||
        c2_ref(s, jd, at, "dst", N_BUFFER, &d->dst))
      return -1;
    const case2_buffer *src = &s->p->buffers[d->buffer], *dst = &s->p->buffers[d->dst];
    if (c2_off_size(s, jd, at, "srcOffset", src, &d->offset, &d->size) ||
        case_opt_uint(x, jd, at, "dstOffset", UINT64_MAX, 0, &d->dst_offset, NULL) ||
        c2_range(s, at, dst, d->dst_offset, d->size))
      return -1;
    if (d->buffer == d->dst)
      return case_fail(x, at, "copies buffer \"%s\" into itself (WebGPU forbids it)", src->name);
    return 0;
  }
  case CASE2_COPY_B2T:
  case CASE2_COPY_T2B:
  case CASE2_COPY_T2T: {
    const json_t *src = case_required(x, jd, at, "source"), *dst;
    if (!src || !(dst = case_required(x, jd, at, "destination"))) return -1;
    return c2_texel(s, src, case_key(at, "source").s, d->op == CASE2_COPY_B2T, &d->src_t) ||
                   c2_texel(s, dst, case_key(at, "destination").s, d->op == CASE2_COPY_T2B,
                            &d->dst_t) ||
                   c2_extent3d(s, jd, at, "copySize", &d->extent)
               ? -1
               : 0;
  }
  case CASE2_CLEAR:
    if (c2_ref(s, jd, at, "buffer", N_BUFFER, &d->buffer)) return -1;
    return c2_off_size(s, jd, at, "offset", &s->p->buffers[d->buffer], &d->offset, &d->size);
  case CASE2_SUBMIT:
    return 0;
  case CASE2_READBACK:
    return c2_readback(s, d, at, jd);
  }
  return 0;
}

static int case2_cmds_parse(c2 *s, const json_t *cmds) {
  case_ctx *x = s->x;
  case_file *c = s->c;
  if (!json_is_array(cmds))
    return case_fail(x, "commands", "expected a list, not %s", case_json_type(cmds));
  const size_t n = json_array_size(cmds);
  if (!(s->p->cmds = calloc(n + 1, sizeof *s->p->cmds)) ||
      !(c->buffers = calloc(n + 1, sizeof *c->buffers)) ||
      !(c->readback = calloc(n + 1, sizeof *c->readback)))
    return case_nomem(x, "commands");
  for (size_t i = 0; i < n; i++) {
    s->p->ncmds++;
    if (c2_command(s, &s->p->cmds[i], case_index("commands", i).s, json_array_get(cmds, i)))
      return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ run */

/* Sections in dependency order: each names only those before it. */
typedef int (*c2_fn)(c2 *, void *, const char *, const json_t *);
typedef struct c2_section_info {
  const char *key;
  int kind;
  size_t each;
  size_t name_offset;
  c2_fn fn;
} c2_section_info;

#define C2_SEC(key, kind, type, arr, fn)                                                     \
  { key, kind, sizeof(type), offsetof(type, name), fn }

static const c2_section_info c2_sections[] = {
    C2_SEC("modules", N_MODULE, case2_module, modules, c2_module),
    C2_SEC("buffers", N_BUFFER, case2_buffer, buffers, c2_buffer),
    C2_SEC("textures", N_TEXTURE, case2_texture, textures, c2_texture),
    C2_SEC("samplers", N_SAMPLER, case2_sampler, samplers, c2_sampler),
    C2_SEC("bindGroupLayouts", N_LAYOUT, case2_layout, layouts, c2_layout),
    C2_SEC("pipelineLayouts", N_PLAYOUT, case2_playout, playouts, c2_playout),
    C2_SEC("pipelines", N_PIPELINE, case2_pipeline, pipelines, c2_pipeline),
    C2_SEC("bindGroups", N_GROUP, case2_group, groups, c2_group),
};

/* The array and count fields of the plan for section kind k. */
static void c2_slot(case2_plan *p, int k, void ***arr, size_t **n) {
  switch (k) {
  case N_MODULE: *arr = (void **)&p->modules, *n = &p->nmodules; break;
  case N_BUFFER: *arr = (void **)&p->buffers, *n = &p->nbuffers; break;
  case N_TEXTURE: *arr = (void **)&p->textures, *n = &p->ntextures; break;
  case N_SAMPLER: *arr = (void **)&p->samplers, *n = &p->nsamplers; break;
  case N_LAYOUT: *arr = (void **)&p->layouts, *n = &p->nlayouts; break;
  case N_PLAYOUT: *arr = (void **)&p->playouts, *n = &p->nplayouts; break;
  case N_PIPELINE: *arr = (void **)&p->pipelines, *n = &p->npipelines; break;
  default: *arr = (void **)&p->groups, *n = &p->ngroups; break;
  }
}

static int c2_objects(c2 *s, const json_t *root) {
  for (size_t k = 0; k < sizeof c2_sections / sizeof c2_sections[0]; k++) {
    const c2_section_info *si = &c2_sections[k];
    void **arr;
    size_t *n;
    int bad;
    c2_slot(s->p, si->kind, &arr, &n);
    const json_t *sec = c2_section(s, root, si->key, arr, si->each, &bad);
    if (bad) return -1;
    if (!sec) continue;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)sec, key, v) {
      case_path at = case_key(si->key, key);
      char *obj = (char *)*arr + *n * si->each;
      char **name = (char **)(obj + si->name_offset);
      (*n)++; /* what case2_free must release, even half built */
      if (!(*name = case_strdup(key))) return case_nomem(s->x, at.s);
      if (!*key) return case_fail(s->x, at.s, "empty name");
      if (si->fn(s, obj, at.s, v) || c2_add_name(s, si->kind, key, *n - 1, at.s)) return -1;
    }
  }
  return 0;
}

int case2_parse(case_ctx *x, case_file *c, const json_t *root, int read_files) {
  c2 s = {x, c, NULL, read_files, {NULL}};
  int rc = -1;
  if (!(c->plan = s.p = calloc(1, sizeof *s.p))) return case_nomem(x, "");
  for (int k = 0; k < 8; k++)
    if (!(s.names[k] = json_object())) {
      case_nomem(x, "");
      goto out;
    }
  if (c2_objects(&s, root)) goto out;
  if (!c->plan->nmodules && !case_required(x, root, "", "modules")) goto out;
  const json_t *cmds = case_required(x, root, "", "commands");
  if (!cmds || case2_cmds_parse(&s, cmds)) goto out;
  const json_t *v = json_object_get(root, "compare");
  if (v && case_compare_parse(x, c, v)) goto out;
  if ((v = json_object_get(root, "notes")) && !json_is_array(v)) {
    case_fail(x, "notes", "expected a list of strings, not %s", case_json_type(v));
    goto out;
  }
  rc = case_extensions(x, c, root);
out:
  for (int k = 0; k < 8; k++) json_decref(s.names[k]);
  return rc;
}

/* ------------------------------------------------------------------ free */

void case2_free(case2_plan *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nmodules; i++) {
    free(p->modules[i].name);
    free(p->modules[i].label);
    free(p->modules[i].code);
  }
  for (size_t i = 0; i < p->nbuffers; i++) {
    case2_buffer *b = &p->buffers[i];
    free(b->name);
    free(b->label);
    json_decref(b->type);
    free(b->rec);
    free(b->init);
  }
  for (size_t i = 0; i < p->ntextures; i++) {
    free(p->textures[i].name);
    free(p->textures[i].label);
    free(p->textures[i].init);
    json_decref(p->textures[i].type);
    free(p->textures[i].rec);
  }
  for (size_t i = 0; i < p->nsamplers; i++) free(p->samplers[i].name);
  for (size_t i = 0; i < p->nlayouts; i++) {
    free(p->layouts[i].name);
    free(p->layouts[i].entries);
  }
  for (size_t i = 0; i < p->nplayouts; i++) {
    free(p->playouts[i].name);
    free(p->playouts[i].groups);
  }
  for (size_t i = 0; i < p->npipelines; i++) {
    case2_pipeline *q = &p->pipelines[i];
    free(q->name);
    free(q->entry);
    for (size_t k = 0; k < q->nconstants; k++) free((char *)q->constants[k].key);
    free(q->constants);
  }
  for (size_t i = 0; i < p->ngroups; i++) {
    free(p->groups[i].name);
    free(p->groups[i].entries);
  }
  for (size_t i = 0; i < p->ncmds; i++) {
    free(p->cmds[i].data);
    for (size_t k = 0; k < p->cmds[i].nsets; k++) free(p->cmds[i].sets[k].offsets);
    free(p->cmds[i].sets);
  }
  free(p->modules);
  free(p->buffers);
  free(p->textures);
  free(p->samplers);
  free(p->layouts);
  free(p->playouts);
  free(p->pipelines);
  free(p->groups);
  free(p->cmds);
  free(p);
}

/* ------------------------------------------------------------- overrides */

int case2_declares_override(const char *code, const char *name) {
  int numeric = name[0] && strspn(name, "0123456789") == strlen(name);
  const char *s = code;
  size_t n = strlen(name);
  while (s && (s = strstr(s, numeric ? "@id(" : "override")) != NULL) {
    const char *p = s + (numeric ? 4 : 8);
    while (*p == ' ' || *p == '\t') p++;
    if (numeric && !strncmp(p, name, n) && p[n] == ')') return 1;
    if (!numeric && s > code && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) {
      s++;
      continue;
    }
    if (!numeric && !strncmp(p, name, n) && !(isalnum((unsigned char)p[n]) || p[n] == '_'))
      return 1;
    s++;
  }
  return 0;
}
