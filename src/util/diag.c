/* diag.c — collecting and printing diagnostics (see diag.h). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag_list *d) { memset(d, 0, sizeof *d); }

void diag_free(diag_list *d) {
  for (size_t i = 0; i < d->count; i++) free(d->items[i].message);
  free(d->items);
  memset(d, 0, sizeof *d);
}

void diag_add(diag_list *d, diag_severity sev, src_span span, const char *fmt, ...) {
  size_t max = d->max_errors ? d->max_errors : 100;
  if (sev == DIAG_ERROR) d->errors++;
  if (d->count >= max) return;
  if (d->count == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 8;
    diag *n = realloc(d->items, cap * sizeof *n);
    if (!n) return;
    d->items = n;
    d->cap = cap;
  }
  va_list ap;
  va_start(ap, fmt);
  char tmp[1024];
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  diag *g = &d->items[d->count++];
  g->severity = sev;
  g->span = span;
  g->message = strdup(tmp);
}

void diag_line_col(const char *src, size_t len, uint32_t off, uint32_t *line, uint32_t *col) {
  uint32_t l = 1, c = 1;
  if (off > len) off = (uint32_t)len;
  for (uint32_t i = 0; i < off; i++) {
    if (src[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

uint32_t diag_count_lines(const char *src, size_t len) {
  uint32_t n = 1;
  for (const char *q = src, *end = src + len; (q = memchr(q, '\n', (size_t)(end - q))); q++) n++;
  return n;
}

void diag_line_starts(const char *src, size_t len, uint32_t *out) {
  uint32_t n = 0;
  out[n++] = 0;
  for (const char *q = src, *end = src + len; (q = memchr(q, '\n', (size_t)(end - q))); q++)
    out[n++] = (uint32_t)(q - src) + 1;
}

void diag_line_col_in(const uint32_t *starts, uint32_t nlines, size_t len, uint32_t off,
                      uint32_t *line, uint32_t *col) {
  if (off > len) off = (uint32_t)len;
  uint32_t lo = 0, hi = nlines; /* the last start <= off is in [lo, hi) */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= off) lo = mid;
    else hi = mid;
  }
  *line = lo + 1;
  *col = off - starts[lo] + 1;
}

static void append(char **buf, size_t *n, size_t *cap, const char *s, size_t k) {
  if (!*buf && *cap) return; /* an earlier allocation failed */
  if (*n + k + 1 > *cap) {
    size_t nc = (*cap ? *cap * 2 : 256);
    while (nc < *n + k + 1) nc *= 2;
    char *p = realloc(*buf, nc);
    if (!p) {
      free(*buf);
      *buf = NULL;
      *cap = 1;
      return;
    }
    *buf = p;
    *cap = nc;
  }
  memcpy(*buf + *n, s, k);
  *n += k;
  (*buf)[*n] = 0;
}

static const char *sev_name(diag_severity s) {
  return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

void diag_format_one(const diag *g, const char *src, size_t len, const char *filename,
                     char **buf, size_t *n, size_t *cap) {
  uint32_t line, col;
  diag_line_col(src, len, g->span.start, &line, &col);
  char head[1400];
  int k = snprintf(head, sizeof head, "%s:%u:%u %s: %s\n", filename ? filename : "<input>",
                   line, col, sev_name(g->severity), g->message);
  append(buf, n, cap, head, (size_t)k < sizeof head ? (size_t)k : sizeof head - 1);
  if (!src || g->span.start > len) return;
  size_t ls = g->span.start;
  while (ls > 0 && src[ls - 1] != '\n') ls--;
  size_t le = g->span.start;
  while (le < len && src[le] != '\n') le++;
  if (le - ls > 300) return; /* a minified line: the position says enough */
  append(buf, n, cap, "  ", 2);
  for (size_t i = ls; i < le; i++) append(buf, n, cap, src[i] == '\t' ? " " : &src[i], 1);
  append(buf, n, cap, "\n  ", 3);
  for (size_t i = ls; i < g->span.start; i++) append(buf, n, cap, " ", 1);
  size_t end = g->span.end > g->span.start ? g->span.end : g->span.start + 1;
  if (end > le) end = le > g->span.start ? le : g->span.start + 1;
  for (size_t i = g->span.start; i < end; i++) append(buf, n, cap, "^", 1);
  append(buf, n, cap, "\n", 1);
}

char *diag_format(const diag_list *d, const char *src, size_t len, const char *filename) {
  char *buf = NULL;
  size_t n = 0, cap = 0;
  append(&buf, &n, &cap, "", 0);
  for (size_t i = 0; i < d->count; i++) diag_format_one(&d->items[i], src, len, filename, &buf, &n, &cap);
  if (d->errors > d->count) {
    char tmp[96];
    int k = snprintf(tmp, sizeof tmp, "(%zu more errors not shown)\n", d->errors - d->count);
    append(&buf, &n, &cap, tmp, (size_t)k);
  }
  return buf;
}
