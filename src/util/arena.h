/*
 * arena.h — bump allocator for everything the compiler makes for one module
 * (tokens, syntax tree, types, strings). Freed all at once with the module.
 * Allocation failure sets a flag instead of aborting; callers check
 * arena_failed() at phase boundaries and report LS_OUT_OF_MEMORY.
 */
#ifndef LS_UTIL_ARENA_H
#define LS_UTIL_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena {
  arena_block *head;
  size_t total;     /* bytes handed out */
  size_t limit;     /* 0 = unlimited; else allocation fails past it */
  int failed;
} arena;

void arena_init(arena *a, size_t limit);
void arena_free(arena *a);
/* Zeroed memory, 16-byte aligned; NULL (and a->failed set) on failure. */
void *arena_alloc(arena *a, size_t size);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);
/* Grows a dynamic array held in the arena (old contents copied). */
void *arena_grow(arena *a, void *old, size_t old_count, size_t new_count, size_t elem);
static inline int arena_failed(const arena *a) { return a->failed; }

#endif
