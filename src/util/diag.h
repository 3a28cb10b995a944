/*
 * diag.h — diagnostics with source spans. Every phase of the compiler (lexer,
 * parser, resolver, pipeline creation) reports through a diag_list; spans are
 * byte offsets, turned into line:column only when a message is printed.
 */
#ifndef LS_UTIL_DIAG_H
#define LS_UTIL_DIAG_H

#include <stddef.h>
#include <stdint.h>

typedef struct src_span {
  uint32_t start, end; /* byte offsets, half-open */
} src_span;

typedef enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_severity;

typedef struct diag {
  diag_severity severity;
  src_span span;
  char *message; /* malloc'd */
} diag;

typedef struct diag_list {
  diag *items;
  size_t count, cap;
  size_t errors;
  size_t max_errors; /* 0 = 100; later errors are counted, not stored */
} diag_list;

void diag_init(diag_list *d);
void diag_free(diag_list *d);
#if defined(__GNUC__)
#define DIAG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DIAG_PRINTF(a, b)
#endif
void diag_add(diag_list *d, diag_severity sev, src_span span, const char *fmt, ...)
    DIAG_PRINTF(4, 5);
#define diag_error(d, span, ...) diag_add((d), DIAG_ERROR, (span), __VA_ARGS__)
#define diag_warning(d, span, ...) diag_add((d), DIAG_WARNING, (span), __VA_ARGS__)
#define diag_note(d, span, ...) diag_add((d), DIAG_NOTE, (span), __VA_ARGS__)

/* 1-based line and column (column counts bytes) of byte offset off. */
void diag_line_col(const char *src, size_t len, uint32_t off, uint32_t *line, uint32_t *col);
/* The same for many offsets of one text: a table of line starts, built once
 * (diag_line_starts writes starts[i] = the byte offset of line i + 1 into
 * out, which has room for diag_count_lines(src, len) entries), then a
 * binary search per offset, so that a listing or a report with a line per
 * instruction costs n log n however its spans are ordered. */
uint32_t diag_count_lines(const char *src, size_t len);
void diag_line_starts(const char *src, size_t len, uint32_t *out);
void diag_line_col_in(const uint32_t *starts, uint32_t nlines, size_t len, uint32_t off,
                      uint32_t *line, uint32_t *col);

/* Formats every diagnostic as
 *   file:line:col error: message
 *     <source line>
 *         ^^^^
 * into a malloc'd string (NULL on allocation failure). */
char *diag_format(const diag_list *d, const char *src, size_t len, const char *filename);
/* One diagnostic, same format, appended to a growable buffer. */
void diag_format_one(const diag *g, const char *src, size_t len, const char *filename,
                     char **buf, size_t *len_out, size_t *cap);

#endif
