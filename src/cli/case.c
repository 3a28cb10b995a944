/*
 * case.c — loading a case file (wgsl-compute-case/1) for `lockstep run`:
 * checks every field, naming the file and the JSON path of the first bad
 * one, and computes the initial words of every buffer. The peers' kit.mjs is
 * the definition the words must match bit for bit: JavaScript numbers are
 * doubles (so JSON is read with every number as a double), the LCG steps
 * before its first word, f32 words are doubles rounded to nearest f32, and
 * integer words wrap modulo 2^32.
 */
#include "case.h"

#include "case_parse.h"
#include "cli_io.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


int case_fail(case_ctx *x, const char *at, const char *fmt, ...) {
  if (!x->err || !x->errlen) return -1;
  int n = snprintf(x->err, x->errlen, "%s: %s%s", x->file, at ? at : "", at && *at ? ": " : "");
  if (n < 0 || (size_t)n >= x->errlen) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* Memory ran out at `at`: the run fails (exit 3), the file is not to blame. */
int case_nomem(case_ctx *x, const char *at) {
  x->nomem = 1;
  return case_fail(x, at, "out of memory");
}

char *case_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

const char *case_word_name(case_word t) {
  switch (t) {
  case CASE_U32:
    return "u32";
  case CASE_I32:
    return "i32";
  case CASE_F32:
    return "f32";
  case CASE_PAD:
    return "pad";
  }
  return "?";
}

/* ------------------------------------------------------------ JS numbers */

uint32_t case_f32_bits(double v) {
  float f = (float)v; /* round to nearest, as Math.fround */
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

double case_f32_value(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* ECMAScript ToUint32 (what `x >>> 0` does). */
uint32_t case_to_uint32(double v) {
  if (!isfinite(v)) return 0;
  double t = trunc(v);
  double m = fmod(t, 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return (uint32_t)m;
}

const char *case_json_type(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    return "an object";
  case JSON_ARRAY:
    return "a list";
  case JSON_STRING:
    return "a string";
  case JSON_INTEGER:
  case JSON_REAL:
    return "a number";
  case JSON_TRUE:
  case JSON_FALSE:
    return "a boolean";
  case JSON_NULL:
    return "null";
  }
  return "something else";
}

static int case_is_js_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* JavaScript's Number(string) for the strings encodeValue passes it (already
 * trimmed and lower-cased). Returns 0 when the result would be NaN. */
static int case_js_number(const char *s, double *out) {
  size_t n = strlen(s);
  if (n == 0) {
    *out = 0; /* Number("") is 0 */
    return 1;
  }
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b')) {
    int base = s[1] == 'x' ? 16 : s[1] == 'o' ? 8 : 2;
    if (!s[2]) return 0;
    double v = 0;
    for (const char *p = s + 2; *p; p++) {
      int d = isdigit((unsigned char)*p) ? *p - '0' : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10 : 99;
      if (d >= base) return 0;
      v = v * base + d;
    }
    *out = v;
    return 1;
  }
  /* [+-]? (digits [. digits?] | . digits) ([e] [+-]? digits)? */
  const char *p = s;
  if (*p == '+' || *p == '-') p++;
  size_t intd = 0, fracd = 0;
  while (isdigit((unsigned char)*p)) p++, intd++;
  if (*p == '.') {
    p++;
    while (isdigit((unsigned char)*p)) p++, fracd++;
  }
  if (intd + fracd == 0) return 0;
  if (*p == 'e') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return 0;
    while (isdigit((unsigned char)*p)) p++;
  }
  if (*p) return 0;
  *out = strtod(s, NULL);
  return 1;
}

int case_encode_value(const json_t *v, case_word t, uint32_t *out, char *err, size_t errlen) {
  if (json_is_string(v)) {
    const char *raw = json_string_value(v);
    size_t n = strlen(raw);
    while (n && case_is_js_space(raw[n - 1])) n--;
    size_t b = 0;
    while (b < n && case_is_js_space(raw[b])) b++;
    char s[96];
    if (n - b >= sizeof s) {
      snprintf(err, errlen, "cannot encode the string \"%.40s...\" as %s", raw, case_word_name(t));
      return -1;
    }
    for (size_t i = b; i < n; i++) s[i - b] = (char)tolower((unsigned char)raw[i]);
    s[n - b] = 0;
    size_t len = n - b;
    if (len >= 3 && len <= 10 && s[0] == '0' && s[1] == 'x' &&
        strspn(s + 2, "0123456789abcdef") == len - 2) {
      *out = (uint32_t)strtoul(s + 2, NULL, 16);
      return 0;
    }
    if (t == CASE_F32) {
      if (!strcmp(s, "inf") || !strcmp(s, "+inf") || !strcmp(s, "infinity")) {
        *out = 0x7f800000u;
        return 0;
      }
      if (!strcmp(s, "-inf") || !strcmp(s, "-infinity")) {
        *out = 0xff800000u;
        return 0;
      }
      if (!strcmp(s, "nan")) {
        *out = 0x7fc00000u;
        return 0;
      }
      if (!strcmp(s, "-0")) {
        *out = 0x80000000u;
        return 0;
      }
      double d;
      if (case_js_number(s, &d)) {
        *out = case_f32_bits(d);
        return 0;
      }
    }
    snprintf(err, errlen, "cannot encode the string \"%s\" as %s%s", raw, case_word_name(t),
             t == CASE_F32 ? "" : " (only \"0x...\" strings are raw bits for integer words)");
    return -1;
  }
  if (!json_is_number(v)) {
    snprintf(err, errlen, "expected a number or a string, not %s", case_json_type(v));
    return -1;
  }
  double d = json_number_value(v);
  if (t == CASE_F32) {
    *out = case_f32_bits(d);
    return 0;
  }
  if (!isfinite(d) || d != trunc(d) || d < -2147483648.0 || d > 4294967295.0) {
    snprintf(err, errlen, "%.17g is not a%s %s (an integer from -2147483648 to 4294967295)", d,
             t == CASE_I32 ? "n" : "", case_word_name(t));
    return -1;
  }
  *out = case_to_uint32(d);
  return 0;
}

uint32_t case_lcg_next(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

/* ---------------------------------------------------------- field access */

static void case_append(case_path *p, const char *s) {
  size_t n = strlen(p->s), k = strlen(s);
  if (n + k >= sizeof p->s) k = sizeof p->s - 1 - n; /* long paths are cut, not overrun */
  memcpy(p->s + n, s, k);
  p->s[n + k] = 0;
}

case_path case_key(const char *base, const char *key) {
  case_path p;
  p.s[0] = 0;
  case_append(&p, base);
  if (*base) case_append(&p, ".");
  case_append(&p, key);
  return p;
}

case_path case_index(const char *base, size_t i) {
  case_path p;
  char num[32];
  p.s[0] = 0;
  case_append(&p, base);
  snprintf(num, sizeof num, "[%zu]", i);
  case_append(&p, num);
  return p;
}

/* JSON numbers are read as doubles (as JavaScript reads them), which hold
 * every integer up to 2^53 exactly and no field needs more: a larger
 * maximum is taken as 2^53, so that the conversion below is always exact
 * (a double of 2^64 has no uint64_t). */
#define CASE_EXACT_MAX ((uint64_t)1 << 53)

/* A non-negative integer no larger than max. */
int case_uint(case_ctx *x, const json_t *v, const char *at, uint64_t max, uint64_t *out) {
  if (!json_is_number(v))
    return case_fail(x, at, "expected a non-negative integer, not %s", case_json_type(v));
  double d = json_number_value(v);
  if (!(d >= 0) || d != trunc(d))
    return case_fail(x, at, "expected a non-negative integer, not %.17g", d);
  if (max > CASE_EXACT_MAX) max = CASE_EXACT_MAX;
  /* every digit up to 10^20 (2^64 is 18446744073709551616), then exponents */
  if (d > (double)max)
    return case_fail(x, at, d < 1e20 ? "%.0f is too large (at most %llu)"
                                     : "%.17g is too large (at most %llu)",
                     d, (unsigned long long)max);
  *out = (uint64_t)d;
  return 0;
}

int case_opt_uint(case_ctx *x, const json_t *obj, const char *base, const char *key,
                         uint64_t max, uint64_t dflt, uint64_t *out, int *present) {
  const json_t *v = json_object_get(obj, key);
  if (present) *present = v != NULL;
  if (!v) {
    *out = dflt;
    return 0;
  }
  return case_uint(x, v, case_key(base, key).s, max, out);
}

int case_string(case_ctx *x, const json_t *v, const char *at, const char **out) {
  if (!json_is_string(v)) return case_fail(x, at, "expected a string, not %s", case_json_type(v));
  *out = json_string_value(v);
  return 0;
}

const json_t *case_required(case_ctx *x, const json_t *obj, const char *base,
                                   const char *key) {
  const json_t *v = json_object_get(obj, key);
  if (!v) case_fail(x, base, "missing required field \"%s\"", key);
  return v;
}

int case_bound(const case_buffer *b) {
  return b->kind != CASE_KIND_NONE || b->is_texture || b->is_sampler;
}

static int case_find_buffer(const case_file *c, const char *name, size_t *out) {
  for (size_t i = 0; i < c->nbuffers; i++)
    if (c->buffers[i].name && !strcmp(c->buffers[i].name, name)) {
      *out = i;
      return 1;
    }
  return 0;
}

/* ------------------------------------------------------------- buffers */

/* kit.mjs recordOf: "f32*3" is three f32 words. */
int case_record(case_ctx *x, const json_t *type, const char *at, case_buffer *b) {
  const json_t *one[1] = {type};
  size_t n = 1;
  if (json_is_array(type)) {
    n = json_array_size(type);
  } else if (!json_is_string(type)) {
    return case_fail(x, at, "expected a word type (\"u32\", \"i32\", \"f32\") or a list of "
                            "them, not %s", case_json_type(type));
  }
  size_t cap = 0, len = 0;
  case_word *rec = NULL;
  for (size_t i = 0; i < n; i++) {
    const json_t *t = json_is_array(type) ? json_array_get(type, i) : one[0];
    case_path p = json_is_array(type) ? case_index(at, i) : case_key("", at);
    if (!json_is_string(t)) {
      free(rec);
      return case_fail(x, p.s, "expected a word type string, not %s", case_json_type(t));
    }
    const char *s = json_string_value(t);
    char name[16];
    unsigned long reps = 1;
    const char *star = strchr(s, '*');
    size_t nl = star ? (size_t)(star - s) : strlen(s);
    if (star) {
      const char *r = star + 1;
      if (!*r || strspn(r, "0123456789") != strlen(r) || strlen(r) > 7) {
        free(rec);
        return case_fail(x, p.s, "bad repeat in \"%s\" (expected TYPE*N)", s);
      }
      reps = strtoul(r, NULL, 10);
    }
    if (nl >= sizeof name) nl = sizeof name - 1;
    memcpy(name, s, nl);
    name[nl] = 0;
    case_word w;
    if (!strcmp(name, "u32"))
      w = CASE_U32;
    else if (!strcmp(name, "i32"))
      w = CASE_I32;
    else if (!strcmp(name, "f32"))
      w = CASE_F32;
    else if (!strcmp(name, "pad"))
      w = CASE_PAD;
    else {
      free(rec);
      return case_fail(x, p.s, "bad word type \"%s\" (u32, i32, f32 or pad, optionally *N)", s);
    }
    if (len + reps > (1u << 20)) {
      free(rec);
      return case_fail(x, p.s, "record of more than %u words", 1u << 20);
    }
    if (len + reps > cap) {
      cap = (len + reps) * 2;
      case_word *nr = realloc(rec, cap * sizeof *nr);
      if (!nr) {
        free(rec);
        return case_nomem(x, p.s);
      }
      rec = nr;
    }
    for (unsigned long k = 0; k < reps; k++) rec[len++] = w;
  }
  if (len == 0) {
    free(rec);
    return case_fail(x, at, "empty record type");
  }
  b->rec = rec;
  b->rec_len = len;
  return 0;
}

/* One generated word of a fill / iota / lcg part (kit.mjs genValue). */
static int case_gen(case_ctx *x, const json_t *part, const char *at, case_buffer *b, uint64_t at0,
                    uint64_t cnt) {
  const json_t *fill = json_object_get(part, "fill");
  const json_t *iota = json_object_get(part, "iota");
  const json_t *lcg = json_object_get(part, "lcg");
  char msg[200];
  if (fill) {
    uint32_t cache[4];
    int have[4] = {0, 0, 0, 0};
    for (uint64_t k = 0; k < cnt; k++) {
      uint64_t idx = at0 + k;
      case_word t = b->rec[idx % b->rec_len];
      if (!have[t]) {
        if (case_encode_value(fill, t, &cache[t], msg, sizeof msg))
          return case_fail(x, case_key(at, "fill").s, "%s (word %llu is %s)", msg,
                           (unsigned long long)idx, case_word_name(t));
        have[t] = 1;
      }
      b->init[idx] = cache[t];
    }
    return 0;
  }
  if (iota) {
    case_path ip = case_key(at, "iota");
    if (!json_is_object(iota)) return case_fail(x, ip.s, "expected an object {start, step}");
    double start = 0, step = 1;
    const json_t *s = json_object_get(iota, "start"), *d = json_object_get(iota, "step");
    if (s && !json_is_number(s))
      return case_fail(x, case_key(ip.s, "start").s, "expected a number, not %s",
                       case_json_type(s));
    if (d && !json_is_number(d))
      return case_fail(x, case_key(ip.s, "step").s, "expected a number, not %s",
                       case_json_type(d));
    if (s) start = json_number_value(s);
    if (d) step = json_number_value(d);
    for (uint64_t k = 0; k < cnt; k++) {
      uint64_t idx = at0 + k;
      double prod = (double)k * step;
      double v = start + prod;
      if (b->rec[idx % b->rec_len] == CASE_F32) {
        b->init[idx] = case_f32_bits(v);
      } else {
        /* kit.mjs: (((v % 2^32) + 2^32) % 2^32) >>> 0, which for a negative
         * fraction differs from truncating first. */
        double m = fmod(fmod(v, 4294967296.0) + 4294967296.0, 4294967296.0);
        b->init[idx] = case_to_uint32(m);
      }
    }
    return 0;
  }
  if (lcg) {
    case_path lp = case_key(at, "lcg");
    if (!json_is_object(lcg)) return case_fail(x, lp.s, "expected an object {seed, min, max}");
    const json_t *js = json_object_get(lcg, "seed"), *jmin = json_object_get(lcg, "min"),
                 *jmax = json_object_get(lcg, "max"), *jint = json_object_get(lcg, "integer");
    if (js && !json_is_number(js))
      return case_fail(x, case_key(lp.s, "seed").s, "expected a number, not %s",
                       case_json_type(js));
    if (jmin && !json_is_number(jmin))
      return case_fail(x, case_key(lp.s, "min").s, "expected a number, not %s",
                       case_json_type(jmin));
    if (jmax && !json_is_number(jmax))
      return case_fail(x, case_key(lp.s, "max").s, "expected a number, not %s",
                       case_json_type(jmax));
    if (jint && !json_is_boolean(jint))
      return case_fail(x, case_key(lp.s, "integer").s, "expected true or false, not %s",
                       case_json_type(jint));
    /* any number, as kit.mjs's `seed >>> 0` (ToUint32 is defined for all) */
    uint32_t state = case_to_uint32(js ? json_number_value(js) : 1);
    int integer = jint && json_is_true(jint);
    for (uint64_t k = 0; k < cnt; k++) {
      uint64_t idx = at0 + k;
      uint32_t xw = case_lcg_next(&state);
      case_word t = b->rec[idx % b->rec_len];
      if (t == CASE_F32) {
        double lo = jmin ? json_number_value(jmin) : 0, hi = jmax ? json_number_value(jmax) : 1;
        double v = lo + (hi - lo) * ((double)(xw >> 8) / 16777216.0);
        b->init[idx] = case_f32_bits(integer ? floor(v) : v);
        continue;
      }
      if (!jmin && !jmax) {
        b->init[idx] = xw;
        continue;
      }
      double lo = jmin ? json_number_value(jmin) : 0;
      if (!jmax || !(json_number_value(jmax) > lo))
        return case_fail(x, lp.s, "integer words need \"max\" greater than \"min\" (word %llu "
                                  "is %s)", (unsigned long long)idx, case_word_name(t));
      double hi = json_number_value(jmax);
      b->init[idx] = case_to_uint32(lo + fmod((double)xw, hi - lo));
    }
    return 0;
  }
  return case_fail(x, at, "unknown init part: expected one of \"data\", \"fill\", \"iota\", "
                          "\"lcg\"");
}

int case_init_part(case_ctx *x, const json_t *part, const char *at, case_buffer *b) {
  if (!json_is_object(part))
    return case_fail(x, at, "expected an init part object, not %s", case_json_type(part));
  uint64_t at0, n = b->words;
  if (case_opt_uint(x, part, at, "at", n, 0, &at0, NULL)) return -1;
  const json_t *data = json_object_get(part, "data");
  if (data) {
    case_path dp = case_key(at, "data");
    if (!json_is_array(data)) return case_fail(x, dp.s, "expected a list, not %s", case_json_type(data));
    size_t m = json_array_size(data);
    for (size_t j = 0; j < m; j++) {
      uint64_t idx = at0 + j;
      case_path vp = case_index(dp.s, j);
      if (idx >= n)
        return case_fail(x, vp.s, "past the end of buffer '%s' (word %llu of %llu)", b->name,
                         (unsigned long long)idx, (unsigned long long)n);
      char msg[200];
      case_word t = b->rec[idx % b->rec_len];
      if (case_encode_value(json_array_get(data, j), t, &b->init[idx], msg, sizeof msg))
        return case_fail(x, vp.s, "%s (word %llu is %s)", msg, (unsigned long long)idx,
                         case_word_name(t));
    }
    return 0;
  }
  uint64_t cnt;
  if (case_opt_uint(x, part, at, "count", n, n - at0, &cnt, NULL)) return -1;
  if (cnt > n - at0)
    return case_fail(x, at, "words [%llu, %llu) go past the end of buffer '%s' (%llu words)",
                     (unsigned long long)at0, (unsigned long long)(at0 + cnt), b->name,
                     (unsigned long long)n);
  return case_gen(x, part, at, b, at0, cnt);
}

/* lockstep's texture extension of a buffer entry: "texture": {"format",
 * "size": [w, h, layers], "dimension", "mipLevelCount", "viewDimension",
 * "access": "sampled" | "write-only" | "read-only" | "read-write",
 * "sampleType"}. The entry's kind stays "none" for runners without
 * textures; its words are the texels of level 0. */
static int case_texture(case_ctx *x, const json_t *jt, const char *at, case_buffer *b) {
  if (!json_is_object(jt)) return case_fail(x, at, "expected an object, not %s", case_json_type(jt));
  const json_t *v;
  const char *s;
  if (!(v = case_required(x, jt, at, "format"))) return -1;
  if (case_string(x, v, case_key(at, "format").s, &s)) return -1;
  if (!(b->tex_format = ls_texture_format_from_name(s)))
    return case_fail(x, case_key(at, "format").s, "texture format \"%s\" is not one lockstep holds", s);
  if (!(v = case_required(x, jt, at, "size"))) return -1;
  case_path sp = case_key(at, "size");
  if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3)
    return case_fail(x, sp.s, "expected [width, height, depthOrArrayLayers]");
  for (size_t k = 0; k < 3; k++) {
    uint64_t u = 1;
    if (k < json_array_size(v) && case_uint(x, json_array_get(v, k), case_index(sp.s, k).s, 16384, &u))
      return -1;
    b->tex_size[k] = (uint32_t)u;
  }
  b->tex_dim = LS_TEXTURE_DIMENSION_2D;
  if ((v = json_object_get(jt, "dimension"))) {
    if (case_string(x, v, case_key(at, "dimension").s, &s)) return -1;
    if (!strcmp(s, "1d")) b->tex_dim = LS_TEXTURE_DIMENSION_1D;
    else if (!strcmp(s, "3d")) b->tex_dim = LS_TEXTURE_DIMENSION_3D;
    else if (strcmp(s, "2d"))
      return case_fail(x, case_key(at, "dimension").s, "bad dimension \"%s\" (1d, 2d or 3d)", s);
  }
  uint64_t u;
  if (case_opt_uint(x, jt, at, "mipLevelCount", 32, 1, &u, NULL)) return -1;
  b->tex_levels = (uint32_t)u;
  b->tex_view_dim = b->tex_dim == LS_TEXTURE_DIMENSION_1D   ? LS_VIEW_DIMENSION_1D
                    : b->tex_dim == LS_TEXTURE_DIMENSION_3D ? LS_VIEW_DIMENSION_3D
                    : b->tex_size[2] > 1                     ? LS_VIEW_DIMENSION_2D_ARRAY
                                                             : LS_VIEW_DIMENSION_2D;
  if ((v = json_object_get(jt, "viewDimension"))) {
    static const char *const vd[] = {"", "1d", "2d", "2d-array", "cube", "cube-array", "3d"};
    if (case_string(x, v, case_key(at, "viewDimension").s, &s)) return -1;
    size_t k = 1;
    while (k < 7 && strcmp(vd[k], s)) k++;
    if (k == 7) return case_fail(x, case_key(at, "viewDimension").s, "bad viewDimension \"%s\"", s);
    b->tex_view_dim = (ls_view_dimension)k;
  }
  if (!(v = case_required(x, jt, at, "access"))) return -1;
  if (case_string(x, v, case_key(at, "access").s, &s)) return -1;
  if (!strcmp(s, "sampled")) b->tex_binding = LS_BINDING_SAMPLED_TEXTURE;
  else if (!strcmp(s, "write-only")) b->tex_binding = LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE;
  else if (!strcmp(s, "read-only")) b->tex_binding = LS_BINDING_READ_ONLY_STORAGE_TEXTURE;
  else if (!strcmp(s, "read-write")) b->tex_binding = LS_BINDING_READ_WRITE_STORAGE_TEXTURE;
  else
    return case_fail(x, case_key(at, "access").s,
                     "bad access \"%s\" (sampled, write-only, read-only or read-write)", s);
  /* the default sample type follows the format: uint or sint where it
   * allows them, else unfilterable-float (every float format allows it) */
  const uint32_t st = ls_texture_format_sample_types(b->tex_format);
  b->tex_sample = st & (1u << LS_SAMPLE_UINT)   ? LS_SAMPLE_UINT
                  : st & (1u << LS_SAMPLE_SINT) ? LS_SAMPLE_SINT
                                                : LS_SAMPLE_UNFILTERABLE_FLOAT;
  if ((v = json_object_get(jt, "sampleType"))) {
    static const char *const st[] = {"float", "unfilterable-float", "depth", "sint", "uint"};
    if (case_string(x, v, case_key(at, "sampleType").s, &s)) return -1;
    size_t k = 0;
    while (k < 5 && strcmp(st[k], s)) k++;
    if (k == 5) return case_fail(x, case_key(at, "sampleType").s, "bad sampleType \"%s\"", s);
    b->tex_sample = (ls_texture_sample_type)k;
  }
  if ((v = json_object_get(jt, "initLevels"))) {
    if (case_string(x, v, case_key(at, "initLevels").s, &s)) return -1;
    if (strcmp(s, "all") && strcmp(s, "base"))
      return case_fail(x, case_key(at, "initLevels").s, "bad initLevels \"%s\" (base or all)", s);
    b->tex_all_levels = !strcmp(s, "all");
  }
  if (case_opt_uint(x, jt, at, "sampleCount", 4, 1, &u, NULL)) return -1;
  if (u != 1 && u != 4)
    return case_fail(x, case_key(at, "sampleCount").s, "sampleCount is 1 or 4, not %llu",
                     (unsigned long long)u);
  b->tex_samples = (uint32_t)u;
  if (b->tex_samples > 1 && b->tex_binding != LS_BINDING_SAMPLED_TEXTURE)
    return case_fail(x, case_key(at, "sampleCount").s,
                     "a multisampled texture is bound as a sampled texture (access \"sampled\")");
  b->is_texture = 1;
  return 0;
}

uint64_t case_texture_level_bytes(const case_buffer *b, uint32_t level) {
  uint64_t w = b->tex_size[0] >> level, h = b->tex_size[1] >> level, d = b->tex_size[2];
  if (b->tex_dim == LS_TEXTURE_DIMENSION_3D) d >>= level;
  if (b->tex_dim == LS_TEXTURE_DIMENSION_1D) h = 1;
  return (w ? w : 1) * (h ? h : 1) * (d ? d : 1) * ls_texture_format_texel_bytes(b->tex_format);
}

/* One of names[0..n) at obj.key, or dflt when absent; -1 on error. */
int case_enum(case_ctx *x, const json_t *obj, const char *at, const char *key,
                     const char *const *names, int n, int dflt, int *out) {
  const json_t *v = json_object_get(obj, key);
  *out = dflt;
  if (!v) return 0;
  const char *s;
  if (case_string(x, v, case_key(at, key).s, &s)) return -1;
  for (int k = 0; k < n; k++)
    if (names[k] && !strcmp(names[k], s)) {
      *out = k;
      return 0;
    }
  char list[256] = "";
  for (int k = 0; k < n; k++)
    if (names[k]) {
      if (*list) strncat(list, ", ", sizeof list - strlen(list) - 1);
      strncat(list, names[k], sizeof list - strlen(list) - 1);
    }
  return case_fail(x, case_key(at, key).s, "bad %s \"%s\" (%s)", key, s, list);
}

/* An optional number at obj.key into *out. */
int case_opt_float(case_ctx *x, const json_t *obj, const char *at, const char *key,
                          float *out) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_number(v))
    return case_fail(x, case_key(at, key).s, "expected a number, not %s", case_json_type(v));
  *out = (float)json_number_value(v);
  return 0;
}

/* lockstep's sampler extension of a buffer entry: "sampler": a
 * GPUSamplerDescriptor (addressModeU/V/W, magFilter, minFilter,
 * mipmapFilter, lodMinClamp, lodMaxClamp, compare, maxAnisotropy) and the
 * layout entry's "type" (filtering, non-filtering or comparison; default
 * comparison when "compare" is given, else filtering). */
int case_sampler(case_ctx *x, const json_t *js, const char *at, case_buffer *b) {
  if (!json_is_object(js)) return case_fail(x, at, "expected an object, not %s", case_json_type(js));
  static const ls_sampler_desc dflt = LS_SAMPLER_DESC_DEFAULT;
  ls_sampler_desc *d = &b->smp_desc;
  *d = dflt;
  static const char *const am[] = {"clamp-to-edge", "repeat", "mirror-repeat"};
  static const char *const fm[] = {"nearest", "linear"};
  static const char *const cf[] = {NULL, "never", "less", "equal", "less-equal", "greater",
                                   "not-equal", "greater-equal", "always"};
  static const char *const ty[] = {"filtering", "non-filtering", "comparison"};
  int k[8];
  if (case_enum(x, js, at, "addressModeU", am, 3, 0, &k[0]) ||
      case_enum(x, js, at, "addressModeV", am, 3, 0, &k[1]) ||
      case_enum(x, js, at, "addressModeW", am, 3, 0, &k[2]) ||
      case_enum(x, js, at, "magFilter", fm, 2, 0, &k[3]) ||
      case_enum(x, js, at, "minFilter", fm, 2, 0, &k[4]) ||
      case_enum(x, js, at, "mipmapFilter", fm, 2, 0, &k[5]) ||
      case_enum(x, js, at, "compare", cf, 9, 0, &k[6]))
    return -1;
  if (case_enum(x, js, at, "type", ty, 3, k[6] ? 2 : 0, &k[7])) return -1;
  d->address_mode_u = (ls_address_mode)k[0];
  d->address_mode_v = (ls_address_mode)k[1];
  d->address_mode_w = (ls_address_mode)k[2];
  d->mag_filter = (ls_filter_mode)k[3];
  d->min_filter = (ls_filter_mode)k[4];
  d->mipmap_filter = (ls_filter_mode)k[5];
  d->compare = (ls_compare_function)k[6];
  b->smp_binding = (ls_binding_type)(LS_BINDING_FILTERING_SAMPLER + k[7]);
  uint64_t u;
  if (case_opt_float(x, js, at, "lodMinClamp", &d->lod_min_clamp) ||
      case_opt_float(x, js, at, "lodMaxClamp", &d->lod_max_clamp) ||
      case_opt_uint(x, js, at, "maxAnisotropy", 65535, 1, &u, NULL))
    return -1;
  d->max_anisotropy = (uint16_t)u;
  d->label = b->name;
  b->is_sampler = 1;
  return 0;
}

static int case_buffer_parse(case_ctx *x, case_file *c, size_t i, const json_t *jb) {
  case_path at = case_index("buffers", i);
  case_buffer *b = &c->buffers[i];
  if (!json_is_object(jb)) return case_fail(x, at.s, "expected an object, not %s", case_json_type(jb));
  const json_t *v;
  const char *s;
  if (!(v = case_required(x, jb, at.s, "name"))) return -1;
  if (case_string(x, v, case_key(at.s, "name").s, &s)) return -1;
  if (!*s) return case_fail(x, case_key(at.s, "name").s, "empty name");
  size_t dup;
  if (case_find_buffer(c, s, &dup))
    return case_fail(x, case_key(at.s, "name").s, "duplicate buffer name '%s' (also buffers[%zu])",
                     s, dup);
  if (!(b->name = case_strdup(s))) return case_nomem(x, at.s);
  if (!(v = case_required(x, jb, at.s, "kind"))) return -1;
  if (case_string(x, v, case_key(at.s, "kind").s, &s)) return -1;
  if (!strcmp(s, "uniform"))
    b->kind = CASE_KIND_UNIFORM;
  else if (!strcmp(s, "storage"))
    b->kind = CASE_KIND_STORAGE;
  else if (!strcmp(s, "read-only-storage"))
    b->kind = CASE_KIND_READ_ONLY_STORAGE;
  else if (!strcmp(s, "none"))
    b->kind = CASE_KIND_NONE;
  else
    return case_fail(x, case_key(at.s, "kind").s, "bad kind \"%s\" (uniform, storage, "
                                                  "read-only-storage or none)", s);
  uint64_t u;
  if (case_opt_uint(x, jb, at.s, "group", UINT32_MAX, 0, &u, NULL)) return -1;
  b->group = (uint32_t)u;
  int has_binding;
  if (case_opt_uint(x, jb, at.s, "binding", UINT32_MAX, 0, &u, &has_binding)) return -1;
  b->binding = (uint32_t)u;
  const json_t *jt = json_object_get(jb, "texture");
  if (jt) {
    if (b->kind != CASE_KIND_NONE)
      return case_fail(x, case_key(at.s, "kind").s,
                       "a texture has kind \"none\" (other runners see an unbound buffer)");
    if (case_texture(x, jt, case_key(at.s, "texture").s, b)) return -1;
  }
  const json_t *js = json_object_get(jb, "sampler");
  if (js) {
    if (b->kind != CASE_KIND_NONE || jt)
      return case_fail(x, case_key(at.s, "sampler").s,
                       "a sampler has kind \"none\" and no \"texture\"");
    if (case_sampler(x, js, case_key(at.s, "sampler").s, b)) return -1;
  }
  if (case_bound(b)) {
    if (!has_binding)
      return case_fail(x, at.s, "missing required field \"binding\" (buffer '%s' has kind %s)",
                       b->name, s);
    for (size_t k = 0; k < i; k++) {
      const case_buffer *o = &c->buffers[k];
      if (case_bound(o) && o->group == b->group && o->binding == b->binding)
        return case_fail(x, at.s, "buffers '%s' and '%s' are both at @group(%u) @binding(%u)",
                         o->name, b->name, b->group, b->binding);
    }
  }
  if (!(v = case_required(x, jb, at.s, "type"))) return -1;
  if (case_record(x, v, case_key(at.s, "type").s, b)) return -1;
  b->type = json_incref((json_t *)v);
  if (!(v = case_required(x, jb, at.s, "count"))) return -1;
  case_path cp = case_key(at.s, "count");
  if (!json_is_number(v) || json_number_value(v) < 1 ||
      json_number_value(v) != trunc(json_number_value(v)))
    return case_fail(x, cp.s, "expected a positive integer");
  if (json_number_value(v) > (double)CASE_MAX_WORDS ||
      (uint64_t)json_number_value(v) * b->rec_len > CASE_MAX_WORDS)
    return case_fail(x, cp.s, "buffer '%s' is too large (at most %llu words)", b->name,
                     (unsigned long long)CASE_MAX_WORDS);
  b->count = (uint64_t)json_number_value(v);
  b->words = b->count * b->rec_len;
  if (b->is_texture) {
    uint64_t bytes = 0;
    for (uint32_t lv = 0; lv < (b->tex_all_levels ? b->tex_levels : 1); lv++)
      bytes += case_texture_level_bytes(b, lv);
    if (bytes % 4)
      return case_fail(x, cp.s, "texture '%s' (%ux%ux%u %s) is %llu bytes, not a whole number of "
                       "4-byte words", b->name, b->tex_size[0], b->tex_size[1], b->tex_size[2],
                       ls_texture_format_name(b->tex_format), (unsigned long long)bytes);
    if (b->words * 4 != bytes)
      return case_fail(x, cp.s, "texture '%s' (%ux%ux%u %s) holds %llu words, not %llu", b->name,
                       b->tex_size[0], b->tex_size[1], b->tex_size[2],
                       ls_texture_format_name(b->tex_format), (unsigned long long)(bytes / 4),
                       (unsigned long long)b->words);
  }
  if (case_opt_uint(x, jb, at.s, "bindOffset", UINT64_MAX / 2, 0, &b->bind_offset,
                    &b->has_bind_offset) ||
      case_opt_uint(x, jb, at.s, "bindSize", UINT64_MAX / 2, 0, &b->bind_size, &b->has_bind_size) ||
      case_opt_uint(x, jb, at.s, "logicalCount", b->count, 0, &b->logical_count,
                    &b->has_logical_count))
    return -1;
  b->init = calloc(b->words, sizeof *b->init);
  if (!b->init) {
    x->nomem = 1;
    return case_fail(x, at.s, "out of memory for buffer '%s' (%llu words)", b->name,
                     (unsigned long long)b->words);
  }
  const json_t *init = json_object_get(jb, "init");
  b->has_init = init != NULL;
  if (init && b->is_texture && b->tex_samples > 1)
    return case_fail(x, case_key(at.s, "init").s,
                     "texture '%s' is multisampled: nothing can be copied into it (WebGPU fills "
                     "one only by rendering), so it has no \"init\"", b->name);
  if (init) {
    case_path ip = case_key(at.s, "init");
    if (json_is_array(init)) {
      for (size_t k = 0; k < json_array_size(init); k++)
        if (case_init_part(x, json_array_get(init, k), case_index(ip.s, k).s, b)) return -1;
    } else if (case_init_part(x, init, ip.s, b)) {
      return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------ pipelines */

static int case_pipeline_parse(case_ctx *x, case_file *c, case_pipeline *p, const char *name,
                               const json_t *jp) {
  case_path at = case_key("pipelines", name);
  if (!(p->name = case_strdup(name))) return case_nomem(x, at.s);
  if (!json_is_object(jp)) return case_fail(x, at.s, "expected an object, not %s", case_json_type(jp));
  const json_t *v = json_object_get(jp, "entryPoint");
  const char *s;
  if (v) {
    if (case_string(x, v, case_key(at.s, "entryPoint").s, &s)) return -1;
    if (!(p->entry = case_strdup(s))) return case_nomem(x, at.s);
  }
  const json_t *consts = json_object_get(jp, "constants");
  if (consts) {
    case_path kp = case_key(at.s, "constants");
    if (!json_is_object(consts)) return case_fail(x, kp.s, "expected an object, not %s",
                                                  case_json_type(consts));
    size_t n = json_object_size(consts);
    p->constants = calloc(n ? n : 1, sizeof *p->constants);
    if (!p->constants) return case_nomem(x, kp.s);
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)consts, key, val) {
      case_path vp = case_key(kp.s, key);
      double d;
      if (json_is_number(val))
        d = json_number_value(val);
      else if (json_is_boolean(val))
        d = json_is_true(val) ? 1 : 0; /* as WebIDL turns a boolean into a double */
      else
        return case_fail(x, vp.s, "expected a number, not %s", case_json_type(val));
      char *k = case_strdup(key);
      if (!k) return case_nomem(x, vp.s);
      p->constants[p->nconstants].key = k;
      p->constants[p->nconstants].value = d;
      p->nconstants++;
    }
  }
  const json_t *bufs = json_object_get(jp, "buffers");
  if (bufs) {
    case_path bp = case_key(at.s, "buffers");
    if (!json_is_array(bufs)) return case_fail(x, bp.s, "expected a list of buffer names, not %s",
                                               case_json_type(bufs));
    size_t n = json_array_size(bufs);
    p->buffers = calloc(n ? n : 1, sizeof *p->buffers);
    if (!p->buffers) return case_nomem(x, bp.s);
    for (size_t k = 0; k < n; k++) {
      case_path ep = case_index(bp.s, k);
      if (case_string(x, json_array_get(bufs, k), ep.s, &s)) return -1;
      size_t idx;
      if (!case_find_buffer(c, s, &idx)) return case_fail(x, ep.s, "no buffer named '%s'", s);
      if (!case_bound(&c->buffers[idx]))
        return case_fail(x, ep.s, "buffer '%s' has kind none and cannot be bound", s);
      for (size_t m = 0; m < p->nbuffers; m++)
        if (p->buffers[m] == idx) return case_fail(x, ep.s, "buffer '%s' is listed twice", s);
      p->buffers[p->nbuffers++] = idx;
    }
  } else {
    p->buffers = calloc(c->nbuffers ? c->nbuffers : 1, sizeof *p->buffers);
    if (!p->buffers) return case_nomem(x, at.s);
    for (size_t k = 0; k < c->nbuffers; k++)
      if (case_bound(&c->buffers[k])) p->buffers[p->nbuffers++] = k;
  }
  return 0;
}

static int case_find_pipeline(const case_file *c, const char *name, size_t *out) {
  for (size_t i = 0; i < c->npipelines; i++)
    if (!strcmp(c->pipelines[i].name, name)) {
      *out = i;
      return 1;
    }
  return 0;
}

static int case_dispatch_parse(case_ctx *x, case_file *c, size_t i, const json_t *jd) {
  case_path at = case_index("dispatches", i);
  case_dispatch *d = &c->dispatches[i];
  if (!json_is_object(jd)) return case_fail(x, at.s, "expected an object, not %s", case_json_type(jd));
  const json_t *v;
  const char *s;
  if (!(v = case_required(x, jd, at.s, "pipeline"))) return -1;
  if (case_string(x, v, case_key(at.s, "pipeline").s, &s)) return -1;
  if (!case_find_pipeline(c, s, &d->pipeline))
    return case_fail(x, case_key(at.s, "pipeline").s, "no pipeline named '%s'", s);
  const json_t *im = json_object_get(jd, "immediates");
  if (im) {
    case_path ip = case_key(at.s, "immediates");
    if (!json_is_array(im) || json_array_size(im) < 1 || json_array_size(im) > 64)
      return case_fail(x, ip.s, "expected a list of 1 to 64 u32 words");
    for (size_t k = 0; k < json_array_size(im); k++) {
      uint64_t u;
      if (case_uint(x, json_array_get(im, k), case_index(ip.s, k).s, UINT32_MAX, &u)) return -1;
      d->immediates[k] = (uint32_t)u;
    }
    d->nimmediates = (uint32_t)json_array_size(im);
  }
  const json_t *wg = json_object_get(jd, "workgroups"), *ind = json_object_get(jd, "indirect");
  if (wg && ind) return case_fail(x, at.s, "both \"workgroups\" and \"indirect\" given");
  if (!wg && !ind) return case_fail(x, at.s, "missing \"workgroups\" or \"indirect\"");
  if (wg) {
    case_path wp = case_key(at.s, "workgroups");
    if (!json_is_array(wg) || json_array_size(wg) < 1 || json_array_size(wg) > 3)
      return case_fail(x, wp.s, "expected a list of 1 to 3 workgroup counts");
    for (int k = 0; k < 3; k++) {
      uint64_t u = 1;
      if ((size_t)k < json_array_size(wg) &&
          case_uint(x, json_array_get(wg, (size_t)k), case_index(wp.s, (size_t)k).s, UINT32_MAX,
                    &u))
        return -1;
      d->workgroups[k] = (uint32_t)u;
    }
    return 0;
  }
  case_path ip = case_key(at.s, "indirect");
  if (!json_is_object(ind)) return case_fail(x, ip.s, "expected an object {buffer, offset}");
  d->indirect = 1;
  if (!(v = case_required(x, ind, ip.s, "buffer"))) return -1;
  if (case_string(x, v, case_key(ip.s, "buffer").s, &s)) return -1;
  if (!case_find_buffer(c, s, &d->buffer))
    return case_fail(x, case_key(ip.s, "buffer").s, "no buffer named '%s'", s);
  if (c->buffers[d->buffer].is_texture || c->buffers[d->buffer].is_sampler)
    return case_fail(x, case_key(ip.s, "buffer").s, "'%s' is a %s, not a buffer", s,
                     c->buffers[d->buffer].is_sampler ? "sampler" : "texture");
  c->buffers[d->buffer].indirect = 1;
  return case_opt_uint(x, ind, ip.s, "offset", UINT64_MAX / 2, 0, &d->offset, NULL);
}

/* -------------------------------------------------------------- compare */

int case_rule_parse(case_ctx *x, const json_t *v, const char *at, int in_list,
                           case_range *out, uint64_t nwords) {
  memset(out, 0, sizeof *out);
  out->rule.ftz = 1;
  out->from = 0;
  out->to = nwords;
  const char *mode;
  if (json_is_string(v)) {
    if (in_list) return case_fail(x, at, "expected a rule object with \"range\"");
    mode = json_string_value(v);
  } else if (json_is_object(v)) {
    const json_t *m = json_object_get(v, "mode");
    if (!m) return case_fail(x, at, "missing \"mode\" (exact, float or ignore)");
    if (case_string(x, m, case_key(at, "mode").s, &mode)) return -1;
  } else {
    return case_fail(x, at, "expected a rule (\"exact\", {\"mode\": ...} or a list of ranges), "
                            "not %s", case_json_type(v));
  }
  if (!strcmp(mode, "exact"))
    out->rule.mode = CASE_RULE_EXACT;
  else if (!strcmp(mode, "float"))
    out->rule.mode = CASE_RULE_FLOAT;
  else if (!strcmp(mode, "ignore"))
    out->rule.mode = CASE_RULE_IGNORE;
  else
    return case_fail(x, json_is_object(v) ? case_key(at, "mode").s : at,
                     "bad mode \"%s\" (exact, float or ignore)", mode);
  if (!json_is_object(v)) return 0;
  static const char *const bounds[3] = {"ulp", "abs", "rel"};
  for (int k = 0; k < 3; k++) {
    const json_t *b = json_object_get(v, bounds[k]);
    if (!b) continue;
    if (!json_is_number(b) || !(json_number_value(b) >= 0))
      return case_fail(x, case_key(at, bounds[k]).s, "expected a non-negative number");
    double d = json_number_value(b);
    if (k == 0) out->rule.has_ulp = 1, out->rule.ulp = d;
    if (k == 1) out->rule.has_abs = 1, out->rule.abs = d;
    if (k == 2) out->rule.has_rel = 1, out->rule.rel = d;
  }
  const json_t *ftz = json_object_get(v, "ftz");
  if (ftz) {
    if (!json_is_boolean(ftz)) return case_fail(x, case_key(at, "ftz").s, "expected true or false");
    out->rule.ftz = json_is_true(ftz);
  }
  const json_t *range = json_object_get(v, "range");
  if (range) {
    case_path rp = case_key(at, "range");
    if (!in_list) return case_fail(x, rp.s, "a range is only allowed in a list of rules");
    if (!json_is_array(range) || json_array_size(range) != 2)
      return case_fail(x, rp.s, "expected [from, to) as a list of two word indices");
    if (case_uint(x, json_array_get(range, 0), case_index(rp.s, 0).s, nwords, &out->from) ||
        case_uint(x, json_array_get(range, 1), case_index(rp.s, 1).s, nwords, &out->to))
      return -1;
    if (out->from > out->to)
      return case_fail(x, rp.s, "[%llu, %llu) ends before it begins", (unsigned long long)out->from,
                       (unsigned long long)out->to);
  }
  return 0;
}

int case_compare_parse(case_ctx *x, case_file *c, const json_t *jc) {
  if (!json_is_object(jc)) return case_fail(x, "compare", "expected an object, not %s",
                                            case_json_type(jc));
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)jc, key, v) {
    case_path at = case_key("compare", key);
    size_t bi;
    if (!case_find_buffer(c, key, &bi))
      return case_fail(x, at.s, "no %s named '%s'", c->plan ? "readback" : "buffer", key);
    case_buffer *b = &c->buffers[bi];
    size_t n = json_is_array(v) ? json_array_size(v) : 1;
    b->compare.ranges = calloc(n ? n : 1, sizeof *b->compare.ranges);
    if (!b->compare.ranges) return case_nomem(x, at.s);
    if (json_is_array(v)) {
      for (size_t k = 0; k < n; k++)
        if (case_rule_parse(x, json_array_get(v, k), case_index(at.s, k).s, 1,
                            &b->compare.ranges[k], b->words))
          return -1;
    } else if (case_rule_parse(x, v, at.s, 0, &b->compare.ranges[0], b->words)) {
      return -1;
    }
    b->compare.count = n;
  }
  return 0;
}

const case_rule *case_rule_at(const case_compare *c, uint64_t i) {
  static const case_rule exact = {CASE_RULE_EXACT, 0, 0, 0, 0, 0, 0, 1};
  for (size_t k = c->count; k-- > 0;)
    if (i >= c->ranges[k].from && i < c->ranges[k].to) return &c->ranges[k].rule;
  return &exact;
}

/* ----------------------------------------------------------- extensions */

int case_extensions(case_ctx *x, case_file *c, const json_t *root) {
  const json_t *dev = json_object_get(root, "device");
  if (dev) {
    if (!json_is_object(dev)) return case_fail(x, "device", "expected an object, not %s",
                                               case_json_type(dev));
    const json_t *rl = json_object_get(dev, "requiredLimits");
    if (rl) {
      if (!json_is_object(rl))
        return case_fail(x, "device.requiredLimits", "expected an object, not %s",
                         case_json_type(rl));
      size_t n = json_object_size(rl);
      c->limits = calloc(n ? n : 1, sizeof *c->limits);
      if (!c->limits) return case_nomem(x, "device.requiredLimits");
      const char *key;
      json_t *v;
      json_object_foreach((json_t *)rl, key, v) {
        case_path at = case_key("device.requiredLimits", key);
        uint64_t u;
        if (case_uint(x, v, at.s, (uint64_t)1 << 53, &u)) return -1;
        char *k = case_strdup(key);
        if (!k) return case_nomem(x, at.s);
        c->limits[c->nlimits].name = k;
        c->limits[c->nlimits].value = u;
        c->nlimits++;
      }
    }
    const json_t *rf = json_object_get(dev, "requiredFeatures");
    if (rf) {
      if (!json_is_array(rf))
        return case_fail(x, "device.requiredFeatures", "expected an array of feature names, not %s",
                         case_json_type(rf));
      size_t n = json_array_size(rf);
      c->features = calloc(n ? n : 1, sizeof *c->features);
      if (!c->features) return case_nomem(x, "device.requiredFeatures");
      for (size_t i = 0; i < n; i++) {
        char at[64];
        snprintf(at, sizeof at, "device.requiredFeatures[%zu]", i);
        const char *s;
        if (case_string(x, json_array_get(rf, i), at, &s)) return -1;
        if (!(c->features[c->nfeatures] = case_strdup(s))) return case_nomem(x, at);
        c->nfeatures++;
      }
    }
  }
  const json_t *ad = json_object_get(root, "adapter");
  if (ad) {
    if (!json_is_object(ad)) return case_fail(x, "adapter", "expected an object, not %s",
                                              case_json_type(ad));
    const json_t *p = json_object_get(ad, "profile");
    const char *s;
    if (p) {
      if (case_string(x, p, "adapter.profile", &s)) return -1;
      if (!(c->profile = case_strdup(s))) return case_nomem(x, "adapter");
    }
    uint64_t w;
    if (case_opt_uint(x, ad, "adapter", "subgroupSize", 64, 0, &w, NULL)) return -1;
    c->subgroup_size = (uint32_t)w;
  }
  return 0;
}

/* ---------------------------------------------------------------- files */

/* The shader path relative to the case file's folder, as the user would
 * type it from the current folder. */
char *case_join(const char *file, const char *rel) {
  if (rel[0] == '/') return case_strdup(rel);
  const char *slash = strrchr(file, '/');
  if (!slash) return case_strdup(rel);
  size_t d = (size_t)(slash - file) + 1;
  char *s = malloc(d + strlen(rel) + 1);
  if (!s) return NULL;
  memcpy(s, file, d);
  strcpy(s + d, rel);
  return s;
}

char *case_basename_noext(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  char *s = case_strdup(b);
  if (s) {
    size_t n = strlen(s);
    if (n > 5 && !strcmp(s + n - 5, ".json")) s[n - 5] = 0;
  }
  return s;
}

int case_parse(const char *text, size_t len, const char *path, int read_shader, case_file *c,
               char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  case_ctx xx = {path, err, errlen, 0}, *x = &xx;
  if (err && errlen) err[0] = 0;
  c->path = case_strdup(path);
  c->text = malloc(len + 1);
  if (!c->path || !c->text) {
    case_nomem(x, "");
    return CASE_NO_MEMORY;
  }
  memcpy(c->text, text, len);
  c->text[len] = 0;
  c->text_len = len;

  if (cli_text_without_nul(text, len, path, "a case file's JSON text", err, errlen)) return -1;
  json_error_t je;
  /* Every number as a double, as JavaScript reads JSON. */
  json_t *root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &je);
  if (!root) {
    if (json_error_code(&je) == json_error_out_of_memory) {
      case_nomem(x, "");
      return CASE_NO_MEMORY;
    }
    snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, je.line, je.column, je.text);
    return -1;
  }
  int rc = -1;
  const json_t *v;
  const char *s;
  if (!json_is_object(root)) {
    case_fail(x, "", "expected a JSON object at the top, not %s", case_json_type(root));
    goto out;
  }
  if (!(v = case_required(x, root, "", "format"))) goto out;
  if (case_string(x, v, "format", &s)) goto out;
  const int v2 = !strcmp(s, "wgsl-compute-case/2");
  if (!v2 && strcmp(s, "wgsl-compute-case/1")) {
    case_fail(x, "format", "\"%s\" is not \"wgsl-compute-case/1\" or \"wgsl-compute-case/2\"", s);
    goto out;
  }
  v = json_object_get(root, "name");
  if (v) {
    if (case_string(x, v, "name", &s)) goto out;
    c->name = case_strdup(s);
  } else {
    c->name = case_basename_noext(path);
  }
  if (!c->name) {
    case_nomem(x, "name");
    goto out;
  }
  v = json_object_get(root, "title");
  if (v) {
    if (case_string(x, v, "title", &s)) goto out;
    if (!(c->title = case_strdup(s))) {
      case_nomem(x, "title");
      goto out;
    }
  }

  if (v2) {
    rc = case2_parse(x, c, root, read_shader);
    goto out;
  }
  if (!(v = case_required(x, root, "", "buffers"))) goto out;
  if (!json_is_array(v)) {
    case_fail(x, "buffers", "expected a list, not %s", case_json_type(v));
    goto out;
  }
  c->buffers = calloc(json_array_size(v) + 1, sizeof *c->buffers);
  if (!c->buffers) {
    case_nomem(x, "buffers");
    goto out;
  }
  for (size_t i = 0; i < json_array_size(v); i++) {
    c->nbuffers = i + 1; /* what case_free must release, even half built */
    if (case_buffer_parse(x, c, i, json_array_get(v, i))) goto out;
  }

  if (!(v = case_required(x, root, "", "pipelines"))) goto out;
  if (!json_is_object(v)) {
    case_fail(x, "pipelines", "expected an object mapping names to pipelines, not %s",
              case_json_type(v));
    goto out;
  }
  c->pipelines = calloc(json_object_size(v) + 1, sizeof *c->pipelines);
  if (!c->pipelines) {
    case_nomem(x, "pipelines");
    goto out;
  }
  {
    const char *key;
    json_t *jp;
    json_object_foreach((json_t *)v, key, jp) {
      c->npipelines++;
      if (case_pipeline_parse(x, c, &c->pipelines[c->npipelines - 1], key, jp)) goto out;
    }
  }

  if (!(v = case_required(x, root, "", "dispatches"))) goto out;
  if (!json_is_array(v)) {
    case_fail(x, "dispatches", "expected a list, not %s", case_json_type(v));
    goto out;
  }
  c->dispatches = calloc(json_array_size(v) + 1, sizeof *c->dispatches);
  if (!c->dispatches) {
    case_nomem(x, "dispatches");
    goto out;
  }
  c->ndispatches = json_array_size(v);
  for (size_t i = 0; i < c->ndispatches; i++)
    if (case_dispatch_parse(x, c, i, json_array_get(v, i))) goto out;
  /* WebGPU forbids an indirect buffer that the same dispatch binds as
   * writable storage; say so in the case's terms. */
  for (size_t i = 0; i < c->ndispatches; i++) {
    const case_dispatch *d = &c->dispatches[i];
    const case_pipeline *p = &c->pipelines[d->pipeline];
    for (size_t k = 0; d->indirect && k < p->nbuffers; k++)
      if (p->buffers[k] == d->buffer && c->buffers[d->buffer].kind == CASE_KIND_STORAGE) {
        case_fail(x, case_index("dispatches", i).s,
                  "buffer '%s' holds the indirect arguments and pipeline '%s' binds it as "
                  "writable storage; list the pipeline's \"buffers\" without it",
                  c->buffers[d->buffer].name, p->name);
        goto out;
      }
  }

  if (!(v = case_required(x, root, "", "readback"))) goto out;
  if (!json_is_array(v)) {
    case_fail(x, "readback", "expected a list of buffer names, not %s", case_json_type(v));
    goto out;
  }
  c->readback = calloc(json_array_size(v) + 1, sizeof *c->readback);
  if (!c->readback) {
    case_nomem(x, "readback");
    goto out;
  }
  for (size_t i = 0; i < json_array_size(v); i++) {
    case_path at = case_index("readback", i);
    size_t bi;
    if (case_string(x, json_array_get(v, i), at.s, &s)) goto out;
    if (!case_find_buffer(c, s, &bi)) {
      case_fail(x, at.s, "no buffer named '%s'", s);
      goto out;
    }
    if (c->buffers[bi].is_sampler) {
      case_fail(x, at.s, "'%s' is a sampler: it holds nothing to read back", s);
      goto out;
    }
    if (c->buffers[bi].is_texture && c->buffers[bi].tex_samples > 1) {
      case_fail(x, at.s, "'%s' is a multisampled texture, which cannot be copied out", s);
      goto out;
    }
    for (size_t k = 0; k < c->nreadback; k++)
      if (c->readback[k] == bi) {
        case_fail(x, at.s, "buffer '%s' is listed twice", s);
        goto out;
      }
    c->readback[c->nreadback++] = bi;
  }

  v = json_object_get(root, "compare");
  if (v && case_compare_parse(x, c, v)) goto out;
  if (case_extensions(x, c, root)) goto out;

  if (!(v = case_required(x, root, "", "shader"))) goto out;
  if (case_string(x, v, "shader", &s)) goto out;
  if (!(c->shader_path = case_join(path, s))) {
    case_nomem(x, "shader");
    goto out;
  }
  if (read_shader) {
    char msg[512];
    int why;
    c->shader_code = cli_read_file(c->shader_path, &c->shader_len, &why, msg, sizeof msg);
    if (!c->shader_code) {
      x->nomem = why == CLI_READ_NO_MEMORY;
      case_fail(x, "shader", "%s", msg);
      goto out;
    }
    if (cli_text_without_nul(c->shader_code, c->shader_len, c->shader_path, "WGSL text", msg,
                             sizeof msg)) {
      case_fail(x, "shader", "%s", msg);
      goto out;
    }
  }
  rc = 0;
out:
  json_decref(root);
  return rc && x->nomem ? CASE_NO_MEMORY : rc;
}

int case_load(const char *path, case_file *c, char *err, size_t errlen) {
  size_t len;
  int why;
  char *text = cli_read_file(path, &len, &why, err, errlen);
  if (!text) {
    memset(c, 0, sizeof *c);
    return why == CLI_READ_NO_MEMORY ? CASE_NO_MEMORY : -1;
  }
  int rc = case_parse(text, len, path, 1, c, err, errlen);
  free(text);
  return rc;
}

void case_free(case_file *c) {
  if (!c) return;
  for (size_t i = 0; i < c->nbuffers; i++) {
    case_buffer *b = &c->buffers[i];
    free(b->name);
    json_decref(b->type);
    free(b->rec);
    free(b->init);
    free(b->compare.ranges);
  }
  free(c->buffers);
  for (size_t i = 0; i < c->npipelines; i++) {
    case_pipeline *p = &c->pipelines[i];
    free(p->name);
    free(p->entry);
    for (size_t k = 0; k < p->nconstants; k++) free((char *)p->constants[k].key);
    free(p->constants);
    free(p->buffers);
  }
  free(c->pipelines);
  free(c->dispatches);
  free(c->readback);
  for (size_t i = 0; i < c->nlimits; i++) free((char *)c->limits[i].name);
  free(c->limits);
  for (size_t i = 0; i < c->nfeatures; i++) free(c->features[i]);
  free(c->features);
  free(c->profile);
  free(c->path);
  free(c->name);
  free(c->title);
  free(c->text);
  free(c->shader_path);
  free(c->shader_code);
  case2_free(c->plan);
  memset(c, 0, sizeof *c);
}
