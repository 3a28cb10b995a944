/*
 * strbuf.c — strbuf_printf (strbuf.h): formats in place, and when the text
 * does not fit, grows the buffer to the next power-of-two multiple that
 * holds it and formats again.
 */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void strbuf_printf(strbuf *b, const char *fmt, ...) {
  if (b->failed) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int k = b->s ? vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap) : vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      b->failed = 1;
      return;
    }
    if (b->s && (size_t)k < b->cap - b->n) {
      b->n += (size_t)k;
      return;
    }
    size_t cap = b->cap ? b->cap * 2 : 1024;
    while (cap - b->n <= (size_t)k) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->failed = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
}
