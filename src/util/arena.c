/* arena.c — the bump allocator behind every compiler phase (see arena.h). */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

struct arena_block {
  arena_block *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
};

void arena_init(arena *a, size_t limit) {
  memset(a, 0, sizeof *a);
  a->limit = limit;
}

void arena_free(arena *a) {
  arena_block *b = a->head;
  while (b) {
    arena_block *n = b->next;
    free(b);
    b = n;
  }
  a->head = NULL;
  a->total = 0;
}

void *arena_alloc(arena *a, size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (size == 0) size = 16;
  if (a->failed || (a->limit && a->total + size > a->limit)) {
    a->failed = 1;
    return NULL;
  }
  arena_block *b = a->head;
  if (!b || b->cap - b->used < size) {
    size_t cap = size > 65536 ? size : 65536;
    b = malloc(sizeof *b + cap);
    if (!b) {
      a->failed = 1;
      return NULL;
    }
    b->used = 0;
    b->cap = cap;
    b->next = a->head;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += size;
  a->total += size;
  memset(p, 0, size);
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void *arena_grow(arena *a, void *old, size_t old_count, size_t new_count, size_t elem) {
  void *p = arena_alloc(a, new_count * elem);
  if (p && old) memcpy(p, old, old_count * elem);
  return p;
}
