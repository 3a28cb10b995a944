/*
 * report.c — the sanitizer's findings as JSON, for `lockstep run --check
 * --json` and ls_device_check_findings_json. The text form is made when a
 * finding is created (check.c), while the program's source is still at hand.
 *
 * Format (docs/sanitizer.md): {"format": "lockstep-check/1", "findings":
 * [{"id", "severity", "message", "file", "line", "column", "entryPoint",
 * "dispatch", "variable", "group", "binding", "offset", "accessSize",
 * "bindingSize", "logicalSize", "texel", "textureSize", "textureLevels",
 * "count", "access", "invocations": [...],
 * "other": {...}}], "dropped": N}.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct chk_buf {
  char *s;
  size_t n, cap;
  int failed;
} chk_buf;

static void chk_put(chk_buf *b, const char *s, size_t k) {
  if (b->failed) return;
  if (b->n + k + 1 > b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 1024;
    while (nc < b->n + k + 1) nc *= 2;
    char *p = realloc(b->s, nc);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->s = p;
    b->cap = nc;
  }
  memcpy(b->s + b->n, s, k);
  b->n += k;
  b->s[b->n] = 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void chk_putf(chk_buf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  chk_put(b, tmp, (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
}

static void chk_str(chk_buf *b, const char *s) {
  if (!s) {
    chk_put(b, "null", 4);
    return;
  }
  chk_put(b, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') {
      char e[2] = {'\\', (char)*p};
      chk_put(b, e, 2);
    } else if (*p == '\n') {
      chk_put(b, "\\n", 2);
    } else if (*p < 0x20) {
      chk_putf(b, "\\u%04x", *p);
    } else {
      chk_put(b, (const char *)p, 1);
    }
  }
  chk_put(b, "\"", 1);
}

char *chk_json_escape_append(char *buf, size_t *len, size_t *cap, const char *s) {
  chk_buf b = {buf, *len, *cap, 0};
  chk_str(&b, s);
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  *len = b.n;
  *cap = b.cap;
  return b.s;
}

static void chk_inv_json(chk_buf *b, const ls_check_invocation *v) {
  chk_putf(b,
           "{\"global\": [%u, %u, %u], \"local\": [%u, %u, %u], \"workgroup\": [%u, %u, %u], "
           "\"localIndex\": %u}",
           v->global_id[0], v->global_id[1], v->global_id[2], v->local_id[0], v->local_id[1],
           v->local_id[2], v->workgroup_id[0], v->workgroup_id[1], v->workgroup_id[2],
           v->local_index);
}

static const char *chk_acc(ls_check_access_type a) {
  return a == LS_CHECK_WRITE ? "write" : a == LS_CHECK_ATOMIC ? "atomic" : "read";
}

static void chk_u64(chk_buf *b, const char *key, uint64_t v) {
  if (v == UINT64_MAX) chk_putf(b, ", \"%s\": null", key);
  else chk_putf(b, ", \"%s\": %llu", key, (unsigned long long)v);
}

char *chk_findings_json(const chk_state *s) {
  chk_buf b = {0};
  const char *head = "{\n  \"format\": \"lockstep-check/1\",\n  \"findings\": [";
  chk_put(&b, head, strlen(head));
  for (size_t i = 0; i < chk_finding_count(s); i++) {
    const ls_check_finding *f = chk_finding(s, i);
    chk_put(&b, i ? ",\n    {" : "\n    {", i ? 7 : 6);
    chk_put(&b, "\"id\": ", 6);
    chk_str(&b, f->id);
    chk_put(&b, ", \"severity\": ", 14);
    chk_str(&b, f->severity == LS_CHECK_ERROR     ? "error"
                : f->severity == LS_CHECK_WARNING ? "warning"
                                                  : "note");
    chk_put(&b, ", \"message\": ", 13);
    chk_str(&b, f->message);
    chk_put(&b, ", \"file\": ", 10);
    chk_str(&b, f->file);
    chk_putf(&b, ", \"line\": %u, \"column\": %u", f->first.line, f->first.column);
    chk_put(&b, ", \"entryPoint\": ", 16);
    chk_str(&b, f->entry_point);
    chk_putf(&b, ", \"dispatch\": %u", f->dispatch);
    if (f->variable) {
      chk_put(&b, ", \"variable\": ", 14);
      chk_str(&b, f->variable);
      chk_putf(&b, ", \"space\": \"%s\"",
               f->workgroup_memory ? "workgroup" : f->texel ? "texture"
                                                 : f->group != UINT32_MAX ? "buffer" : "private");
      if (f->group != UINT32_MAX) chk_putf(&b, ", \"group\": %u, \"binding\": %u", f->group, f->binding);
      chk_u64(&b, "offset", f->offset);
      chk_putf(&b, ", \"accessSize\": %u", f->access_size);
      chk_u64(&b, "bindingSize", f->binding_size);
      if (f->kind == LS_CHECK_BEYOND_LOGICAL) chk_u64(&b, "logicalSize", f->logical_size);
      if (f->texel)
        chk_putf(&b, ", \"texel\": [%lld, %lld, %lld, %u], \"textureSize\": [%u, %u, %u], "
                     "\"textureLevels\": %u",
                 (long long)(int32_t)f->texel_coord[0], (long long)(int32_t)f->texel_coord[1],
                 (long long)(int32_t)f->texel_coord[2], f->texel_coord[3], f->texture_size[0],
                 f->texture_size[1], f->texture_size[2], f->texture_levels);
    }
    chk_putf(&b, ", \"count\": %llu, \"access\": \"%s\"", (unsigned long long)f->count,
             chk_acc(f->first.access));
    chk_put(&b, ", \"invocations\": [", 18);
    for (uint32_t k = 0; k < f->ninvocations; k++) {
      if (k) chk_put(&b, ", ", 2);
      chk_inv_json(&b, &f->invocations[k]);
    }
    chk_put(&b, "]", 1);
    if (f->has_second) {
      chk_putf(&b, ", \"other\": {\"line\": %u, \"column\": %u, \"access\": \"%s\", \"invocation\": ",
               f->second.line, f->second.column, chk_acc(f->second.access));
      chk_inv_json(&b, &f->second.invocation);
      chk_put(&b, "}", 1);
    }
    chk_put(&b, "}", 1);
  }
  chk_putf(&b, "%s],\n  \"dropped\": %llu\n}\n", chk_finding_count(s) ? "\n  " : "",
           (unsigned long long)chk_dropped(s));
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}
