/*
 * result.c — result files (wgsl-compute-result/1) for `lockstep run`:
 * writing what a run read back (--out), reading a reference (--expect), and
 * comparing words with the case's rules exactly as the peers' kit.mjs
 * compareWords does. A reference may be compact for large buffers: the word
 * count, a SHA-256 of the words and a few sampled words.
 */
#include "case.h"

#include "cli_exit.h"
#include "cli_io.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

/* ---------------------------------------------------------- word values */

/* Number::toString of JavaScript, for the shortest digits of an f32:
 * digits "d1d2..dk" times 10^(n-k). */
static void result_js_number(int neg, const char *digits, int n, char *buf, size_t len) {
  int k = (int)strlen(digits);
  char out[64];
  size_t o = 0;
  if (neg) out[o++] = '-';
  if (k <= n && n <= 21) {
    for (int i = 0; i < k; i++) out[o++] = digits[i];
    for (int i = k; i < n; i++) out[o++] = '0';
  } else if (0 < n && n <= 21) {
    for (int i = 0; i < n; i++) out[o++] = digits[i];
    out[o++] = '.';
    for (int i = n; i < k; i++) out[o++] = digits[i];
  } else if (-6 < n && n <= 0) {
    out[o++] = '0';
    out[o++] = '.';
    for (int i = 0; i < -n; i++) out[o++] = '0';
    for (int i = 0; i < k; i++) out[o++] = digits[i];
  } else {
    out[o++] = digits[0];
    if (k > 1) {
      out[o++] = '.';
      for (int i = 1; i < k; i++) out[o++] = digits[i];
    }
    o += (size_t)snprintf(out + o, sizeof out - o, "e%c%d", n - 1 >= 0 ? '+' : '-',
                          n - 1 >= 0 ? n - 1 : 1 - n);
  }
  out[o] = 0;
  snprintf(buf, len, "%s", out);
}

static void result_f32_text(uint32_t w, char *buf, size_t len) {
  float f;
  memcpy(&f, &w, 4);
  if (isnan(f)) {
    snprintf(buf, len, "NaN");
    return;
  }
  if (isinf(f)) {
    snprintf(buf, len, f > 0 ? "Infinity" : "-Infinity");
    return;
  }
  if (f == 0) {
    snprintf(buf, len, signbit(f) ? "-0" : "0");
    return;
  }
  /* The fewest significant digits that read back as the same f32. */
  char tmp[40];
  for (int p = 1; p <= 9; p++) {
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, (double)f);
    if (strtof(tmp, NULL) == f) break;
  }
  int neg = tmp[0] == '-';
  char digits[16];
  int k = 0;
  const char *s = tmp + neg;
  for (; *s && *s != 'e'; s++)
    if (*s >= '0' && *s <= '9' && k < 15) digits[k++] = *s;
  digits[k] = 0;
  int exp = *s == 'e' ? atoi(s + 1) : 0;
  while (k > 1 && digits[k - 1] == '0') digits[--k] = 0;
  result_js_number(neg, digits, exp + 1, buf, len);
}

void result_word_text(uint32_t w, case_word t, char *buf, size_t len) {
  switch (t) {
  case CASE_F32:
    result_f32_text(w, buf, len);
    break;
  case CASE_I32:
    snprintf(buf, len, "%d", (int32_t)w);
    break;
  default:
    snprintf(buf, len, "%u", w);
    break;
  }
}

/* ----------------------------------------------------------- comparison */

static int64_t result_ord(uint32_t w) {
  return (w & 0x80000000u) ? -(int64_t)(w & 0x7fffffffu) : (int64_t)(w & 0x7fffffffu);
}

uint64_t result_ulp_distance(uint32_t a, uint32_t b) {
  int64_t d = result_ord(a) - result_ord(b);
  return (uint64_t)(d < 0 ? -d : d);
}

/* The smallest normal f32, 2^-126: below it WGSL may flush to zero. */
#define RESULT_MIN_NORMAL 1.1754943508222875e-38

static int result_float_close(uint32_t ew, uint32_t gw, const case_rule *rule) {
  double r = case_f32_value(ew), g = case_f32_value(gw);
  if (isnan(r) || isnan(g)) return isnan(r) && isnan(g);
  if (!isfinite(r) || !isfinite(g)) return r == g;
  if (rule->ftz) {
    if (fabs(r) < RESULT_MIN_NORMAL) r = 0;
    if (fabs(g) < RESULT_MIN_NORMAL) g = 0;
  }
  if (r == g) return 1; /* +0 == -0 too */
  double d = fabs(r - g);
  if (rule->has_abs && d <= rule->abs) return 1;
  if (rule->has_rel && d <= rule->rel * fabs(r)) return 1;
  if (rule->has_ulp &&
      (double)result_ulp_distance(case_f32_bits(r), case_f32_bits(g)) <= rule->ulp)
    return 1;
  return 0;
}

int result_word_matches(uint32_t expected, uint32_t got, case_word t, const case_rule *r) {
  if (t == CASE_PAD || r->mode == CASE_RULE_IGNORE) return 1;
  if (r->mode == CASE_RULE_FLOAT && t == CASE_F32) return result_float_close(expected, got, r);
  return expected == got;
}

static void result_rule_text(const case_rule *r, case_word t, char *buf, size_t len) {
  if (r->mode != CASE_RULE_FLOAT || t != CASE_F32) {
    snprintf(buf, len, "exact");
    return;
  }
  size_t o = (size_t)snprintf(buf, len, "float");
  const char *sep = ": ";
  if (r->has_ulp && o < len) o += (size_t)snprintf(buf + o, len - o, "%sulp %g", sep, r->ulp), sep = ", ";
  if (r->has_abs && o < len) o += (size_t)snprintf(buf + o, len - o, "%sabs %g", sep, r->abs), sep = ", ";
  if (r->has_rel && o < len) o += (size_t)snprintf(buf + o, len - o, "%srel %g", sep, r->rel), sep = ", ";
  if (!r->ftz && o < len) snprintf(buf + o, len - o, "%sno ftz", sep);
}

static void result_report(FILE *out, const case_buffer *b, uint64_t i, uint32_t e, uint32_t g,
                          const case_rule *r) {
  case_word t = b->rec[i % b->rec_len];
  char ev[48], gv[48], rt[96];
  result_word_text(e, t, ev, sizeof ev);
  result_word_text(g, t, gv, sizeof gv);
  result_rule_text(r, t, rt, sizeof rt);
  fprintf(out, "  %s[%llu] %s (%s): expected %s (0x%08x), got %s (0x%08x)", b->name,
          (unsigned long long)i, case_word_name(t), rt, ev, e, gv, g);
  if (t == CASE_F32 && r->mode == CASE_RULE_FLOAT)
    fprintf(out, ", %llu ulp apart", (unsigned long long)result_ulp_distance(e, g));
  fputc('\n', out);
}

static void result_hex(const uint8_t *h, char *out) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", h[i]);
}

uint64_t result_compare(const case_buffer *b, const uint32_t *got, const result_buffer *ref,
                        FILE *out, int max_report) {
  uint64_t n = b->words, bad = 0, checked = 0;
  int shown = 0;
  if (ref->words != n) {
    fprintf(out, "expect: %s: the reference has %llu words, this run read back %llu\n", b->name,
            (unsigned long long)ref->words, (unsigned long long)n);
    return 1;
  }
  if (!ref->compact) {
    for (uint64_t i = 0; i < n; i++) {
      case_word t = b->rec[i % b->rec_len];
      const case_rule *r = case_rule_at(&b->compare, i);
      if (t == CASE_PAD || r->mode == CASE_RULE_IGNORE) continue;
      checked++;
      if (result_word_matches(ref->hex[i], got[i], t, r)) continue;
      if (bad++ == 0) fprintf(out, "expect: %s differs:\n", b->name);
      if (shown < max_report) {
        result_report(out, b, i, ref->hex[i], got[i], r);
        shown++;
      }
    }
    if (bad)
      fprintf(out, "  %s: %llu of %llu compared words differ\n", b->name, (unsigned long long)bad,
              (unsigned long long)checked);
    return bad;
  }
  /* Compact reference: the sampled words with the rules, then the hash,
   * which decides only when every word is compared exactly. */
  for (size_t s = 0; s < ref->nsamples; s++) {
    uint64_t i = ref->sample_index[s];
    case_word t = b->rec[i % b->rec_len];
    const case_rule *r = case_rule_at(&b->compare, i);
    if (result_word_matches(ref->sample_word[s], got[i], t, r)) continue;
    if (bad++ == 0) fprintf(out, "expect: %s differs:\n", b->name);
    if (shown < max_report) {
      result_report(out, b, i, ref->sample_word[s], got[i], r);
      shown++;
    }
  }
  if (ref->has_sha) {
    uint8_t h[32];
    result_sha256_words(got, n, h);
    if (memcmp(h, ref->sha, 32)) {
      int decisive = 1;
      for (size_t k = 0; k < b->compare.count; k++)
        if (b->compare.ranges[k].rule.mode != CASE_RULE_EXACT &&
            b->compare.ranges[k].from < b->compare.ranges[k].to)
          decisive = 0;
      for (size_t k = 0; k < b->rec_len; k++)
        if (b->rec[k] == CASE_PAD) decisive = 0;
      char eh[65], gh[65];
      result_hex(ref->sha, eh);
      result_hex(h, gh);
      if (decisive) {
        if (bad++ == 0) fprintf(out, "expect: %s differs:\n", b->name);
        fprintf(out, "  %s: SHA-256 of the %llu words differs: expected %s, got %s\n", b->name,
                (unsigned long long)n, eh, gh);
      } else {
        fprintf(out, "expect: note: %s: SHA-256 differs (informative only: its rule is not exact "
                     "or it has pad words)\n", b->name);
      }
    }
  }
  return bad;
}

/* --------------------------------------------------------------- SHA-256 */

void result_sha256_bytes(const void *data, size_t n, uint8_t out[32]) {
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, n, data);
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}

void result_sha256_words(const uint32_t *words, uint64_t n, uint8_t out[32]) {
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  uint8_t chunk[4096];
  size_t k = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t w = words[i];
    chunk[k++] = (uint8_t)w;
    chunk[k++] = (uint8_t)(w >> 8);
    chunk[k++] = (uint8_t)(w >> 16);
    chunk[k++] = (uint8_t)(w >> 24);
    if (k == sizeof chunk) {
      sha256_update(&ctx, k, chunk);
      k = 0;
    }
  }
  if (k) sha256_update(&ctx, k, chunk);
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
}

/* --------------------------------------------------------------- writing */

static void result_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", f);
    else if (*p == '\t')
      fputs("\\t", f);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static void result_type(FILE *f, const json_t *type) {
  if (json_is_string(type)) {
    result_json_string(f, json_string_value(type));
    return;
  }
  fputc('[', f);
  for (size_t i = 0; i < json_array_size(type); i++) {
    if (i) fputs(", ", f);
    const json_t *t = json_array_get(type, i);
    result_json_string(f, json_is_string(t) ? json_string_value(t) : "?");
  }
  fputc(']', f);
}

void result_write(FILE *f, const case_file *c, uint32_t *const *words, const result_impl *impl,
                  const result_message *msgs, size_t nmsgs) {
  uint8_t h[32];
  char hx[65];
  fputs("{\n  \"format\": \"wgsl-compute-result/1\",\n  \"case\": ", f);
  result_json_string(f, c->name);
  result_sha256_bytes(c->text, c->text_len, h);
  result_hex(h, hx);
  fprintf(f, ",\n  \"caseSha256\": \"%s\"", hx);
  if (c->shader_code) {
    result_sha256_bytes(c->shader_code, c->shader_len, h);
    result_hex(h, hx);
    fprintf(f, ",\n  \"shaderSha256\": \"%s\"", hx);
  }
  fputs(",\n  \"implementation\": { \"name\": \"lockstep\", \"version\": ", f);
  result_json_string(f, impl->version);
  fprintf(f, ", \"subgroupSize\": %u, \"threads\": %u, \"profile\": ", impl->subgroup_size,
          impl->threads);
  result_json_string(f, impl->profile);
  fputs(" }", f);
  if (nmsgs) {
    fputs(",\n  \"compilationMessages\": [\n", f);
    for (size_t i = 0; i < nmsgs; i++) {
      fputs("    { \"type\": ", f);
      result_json_string(f, msgs[i].type);
      fprintf(f, ", \"line\": %u, \"column\": %u, \"message\": ", msgs[i].line, msgs[i].column);
      result_json_string(f, msgs[i].message);
      fputs(i + 1 < nmsgs ? " },\n" : " }\n", f);
    }
    fputs("  ]", f);
  }
  fputs(",\n  \"buffers\": {", f);
  for (size_t r = 0; r < c->nreadback; r++) {
    const case_buffer *b = &c->buffers[c->readback[r]];
    const uint32_t *w = words[r];
    fputs(r ? ",\n    " : "\n    ", f);
    result_json_string(f, b->name);
    fputs(": {\n      \"type\": ", f);
    result_type(f, b->type);
    fprintf(f, ",\n      \"count\": %llu,\n      \"values\": [", (unsigned long long)b->count);
    for (uint64_t i = 0; i < b->words; i++) {
      char v[48];
      case_word t = b->rec[i % b->rec_len];
      result_word_text(w[i], t, v, sizeof v);
      if (i) fputs(", ", f);
      if (t == CASE_F32 && (v[0] == 'N' || v[0] == 'I' || v[1] == 'I'))
        fprintf(f, "\"%s\"", v); /* NaN and the infinities are strings in JSON */
      else
        fputs(v, f);
    }
    fputs("],\n      \"hex\": [", f);
    for (uint64_t i = 0; i < b->words; i++) fprintf(f, i ? ", \"0x%08x\"" : "\"0x%08x\"", w[i]);
    fputs("]\n    }", f);
  }
  fputs(c->nreadback ? "\n  }\n}\n" : "}\n}\n", f);
}

/* --------------------------------------------------------------- reading */

static int result_parse_hex_word(const char *s, uint32_t *out) {
  if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return 0;
  size_t n = strlen(s + 2);
  if (n < 1 || n > 8 || strspn(s + 2, "0123456789abcdefABCDEF") != n) return 0;
  *out = (uint32_t)strtoul(s + 2, NULL, 16);
  return 1;
}

static int result_fail(char *err, size_t errlen, const char *path, const char *at,
                       const char *what) {
  snprintf(err, errlen, "%s: %s: %s", path, at, what);
  return -1;
}

static int result_nomem(char *err, size_t errlen, const char *path, const char *at) {
  result_fail(err, errlen, path, at, "out of memory");
  return CASE_NO_MEMORY;
}

static int result_parse_buffer(const char *path, const char *name, const json_t *jb,
                               result_buffer *rb, char *err, size_t errlen) {
  char at[300];
  snprintf(at, sizeof at, "buffers.%s", name);
  if (!json_is_object(jb)) return result_fail(err, errlen, path, at, "expected an object");
  const json_t *hex = json_object_get(jb, "hex");
  if (hex) {
    if (!json_is_array(hex))
      return result_fail(err, errlen, path, at, "\"hex\" must be a list of \"0x...\" strings");
    size_t n = json_array_size(hex);
    rb->hex = malloc((n ? n : 1) * sizeof *rb->hex);
    if (!rb->hex) return result_nomem(err, errlen, path, at);
    for (size_t i = 0; i < n; i++)
      if (!result_parse_hex_word(json_string_value(json_array_get(hex, i)), &rb->hex[i])) {
        snprintf(err, errlen, "%s: %s.hex[%zu]: expected a \"0x...\" word of 1 to 8 hex digits",
                 path, at, i);
        return -1;
      }
    rb->words = n;
    return 0;
  }
  const json_t *words = json_object_get(jb, "words");
  if (!words)
    return result_fail(err, errlen, path, at,
                       "expected \"hex\" (every word) or the compact form (\"words\", "
                       "\"sha256\", \"samples\")");
  double d = json_is_number(words) ? json_number_value(words) : -1;
  if (!(d >= 0) || d != trunc(d) || d > 9007199254740992.0)
    return result_fail(err, errlen, path, at, "\"words\" must be a non-negative integer");
  rb->compact = 1;
  rb->words = (uint64_t)d;
  const json_t *sha = json_object_get(jb, "sha256");
  if (sha) {
    const char *s = json_string_value(sha);
    if (!s || strlen(s) != 64 || strspn(s, "0123456789abcdefABCDEF") != 64)
      return result_fail(err, errlen, path, at, "\"sha256\" must be 64 hex digits");
    for (int i = 0; i < 32; i++) {
      char two[3] = {s[2 * i], s[2 * i + 1], 0};
      rb->sha[i] = (uint8_t)strtoul(two, NULL, 16);
    }
    rb->has_sha = 1;
  }
  const json_t *samples = json_object_get(jb, "samples");
  if (samples) {
    if (!json_is_object(samples))
      return result_fail(err, errlen, path, at, "\"samples\" must map word indices to \"0x...\"");
    size_t n = json_object_size(samples);
    rb->sample_index = malloc((n ? n : 1) * sizeof *rb->sample_index);
    rb->sample_word = malloc((n ? n : 1) * sizeof *rb->sample_word);
    if (!rb->sample_index || !rb->sample_word)
      return result_nomem(err, errlen, path, at);
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)samples, key, v) {
      char *end;
      errno = 0;
      unsigned long long idx = strtoull(key, &end, 10);
      if (!*key || *end || errno || idx >= rb->words || key[0] == '-' || key[0] == '+') {
        snprintf(err, errlen, "%s: %s.samples.%s: not a word index below %llu", path, at, key,
                 (unsigned long long)rb->words);
        return -1;
      }
      if (!result_parse_hex_word(json_string_value(v), &rb->sample_word[rb->nsamples])) {
        snprintf(err, errlen, "%s: %s.samples.%s: expected a \"0x...\" word", path, at, key);
        return -1;
      }
      rb->sample_index[rb->nsamples++] = idx;
    }
  }
  if (!rb->has_sha && !rb->nsamples)
    return result_fail(err, errlen, path, at, "the compact form needs \"sha256\" or \"samples\"");
  return 0;
}

int result_parse(const char *text, size_t len, const char *path, result_file *r, char *err,
                 size_t errlen) {
  memset(r, 0, sizeof *r);
  if (cli_text_without_nul(text, len, path, "a result file's JSON text", err, errlen)) return -1;
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &je);
  if (!root) {
    if (json_error_code(&je) == json_error_out_of_memory) {
      snprintf(err, errlen, "%s: out of memory", path);
      return CASE_NO_MEMORY;
    }
    snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, je.line, je.column, je.text);
    return -1;
  }
  int rc = -1;
  const char *fmt = json_string_value(json_object_get(root, "format"));
  if (!fmt || strcmp(fmt, "wgsl-compute-result/1")) {
    result_fail(err, errlen, path, "format", "expected \"wgsl-compute-result/1\"");
    goto out;
  }
  const char *cn = json_string_value(json_object_get(root, "case"));
  if (cn && !(r->case_name = strdup(cn))) {
    rc = result_nomem(err, errlen, path, "case");
    goto out;
  }
  const json_t *bufs = json_object_get(root, "buffers");
  if (!json_is_object(bufs)) {
    result_fail(err, errlen, path, "buffers", "expected an object of buffers");
    goto out;
  }
  r->buffers = calloc(json_object_size(bufs) + 1, sizeof *r->buffers);
  if (!r->buffers) {
    rc = result_nomem(err, errlen, path, "buffers");
    goto out;
  }
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)bufs, key, v) {
    result_buffer *rb = &r->buffers[r->nbuffers++];
    if (!(rb->name = strdup(key))) {
      rc = result_nomem(err, errlen, path, "buffers");
      goto out;
    }
    if ((rc = result_parse_buffer(path, key, v, rb, err, errlen))) goto out;
  }
  rc = 0;
out:
  json_decref(root);
  return rc;
}

int result_load(const char *path, result_file *r, char *err, size_t errlen) {
  size_t len;
  int why;
  char *text = cli_read_file(path, &len, &why, err, errlen);
  if (!text) {
    memset(r, 0, sizeof *r);
    return why == CLI_READ_NO_MEMORY ? CASE_NO_MEMORY : -1;
  }
  int rc = result_parse(text, len, path, r, err, errlen);
  free(text);
  return rc;
}

void result_free(result_file *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nbuffers; i++) {
    result_buffer *b = &r->buffers[i];
    free(b->name);
    free(b->hex);
    free(b->sample_index);
    free(b->sample_word);
  }
  free(r->buffers);
  free(r->case_name);
  memset(r, 0, sizeof *r);
}

const result_buffer *result_find(const result_file *r, const char *name) {
  for (size_t i = 0; i < r->nbuffers; i++)
    if (!strcmp(r->buffers[i].name, name)) return &r->buffers[i];
  return NULL;
}

/* `--expect PATH`: loads the reference and compares every read-back buffer
 * with the case's rules, printing the first differences. An exit status:
 * CLI_OK all match, CLI_MISMATCH some differ, CLI_BAD_INPUT the reference
 * cannot be read or lacks a buffer, CLI_FAILED memory ran out. */
int result_expect(const case_file *c, uint32_t *const *words, const char *path) {
  result_file ref;
  char err[1024];
  int e = result_load(path, &ref, err, sizeof err);
  if (e) {
    fprintf(stderr, "lockstep: %s\n", err);
    result_free(&ref);
    return e == CASE_NO_MEMORY ? CLI_FAILED : CLI_BAD_INPUT;
  }
  if (ref.case_name && strcmp(ref.case_name, c->name))
    fprintf(stderr, "%s: warning: the reference is for case '%s', this is '%s'\n", path,
            ref.case_name, c->name);
  size_t differ = 0;
  for (size_t r = 0; r < c->nreadback; r++) {
    const case_buffer *b = &c->buffers[c->readback[r]];
    const result_buffer *rb = result_find(&ref, b->name);
    if (!rb) {
      fprintf(stderr, "%s: buffers: no buffer '%s' (case %s reads it back)\n", path, b->name,
              c->path);
      result_free(&ref);
      return CLI_BAD_INPUT;
    }
    if (result_compare(b, words[r], rb, stdout, 5)) differ++;
  }
  result_free(&ref);
  if (differ) {
    printf("expect: %zu of %zu read-back buffers differ from %s\n", differ, c->nreadback, path);
    return CLI_MISMATCH;
  }
  printf("expect: all %zu read-back buffers match\n", c->nreadback);
  return CLI_OK;
}
