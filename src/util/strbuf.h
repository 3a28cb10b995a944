/*
 * strbuf.h — a growing, NUL-terminated text buffer written with printf
 * formats: the bytecode disassembler (ir/ir.c) and the compiled tier's C
 * generator (vm/jit_emit.c) build their text with it. Out of memory sets
 * failed and drops what follows; the caller frees s.
 */
#ifndef LS_UTIL_STRBUF_H
#define LS_UTIL_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
  char *s;
  size_t n, cap;
  int failed;
} strbuf;

void strbuf_printf(strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
