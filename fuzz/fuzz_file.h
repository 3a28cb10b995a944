/*
 * fuzz_file.h — the one file reader of the fuzz drivers and the corpus
 * tools (fuzz/corpus_run.c, fuzz/fuzz_verify.c, tests/tools/verify_corpus.c):
 * the whole of a regular file, with a NUL after the last byte. The corpus
 * is files in folders: anything else (a device such as /dev/zero that a
 * case names as its shader, a pipe) is skipped rather than read without
 * end. Header-only, since each tool is built on its own.
 */
#ifndef LOCKSTEP_FUZZ_FILE_H
#define LOCKSTEP_FUZZ_FILE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The contents of path (malloc'd, *len bytes plus a NUL), or NULL when it
 * is not a regular file, cannot be opened or memory runs out. */
static inline char *fz_read_file(const char *path, size_t *len) {
  *len = 0;
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = (n + 4096 + 1) * 2;
      char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t k = fread(buf + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0) break;
  }
  fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

#endif
