/*
 * ptrmap.h — a map from pointers to pointers (open addressing, at most half
 * full), for the analyses that must remember a fact per syntax-tree node or
 * per type so that they visit each only once: the lowering gate's types
 * found fine (wgsl/support.c), the root variable of each pointer `let`
 * (wgsl/uniformity.c, wgsl/sema_alias.c). A zeroed ptrmap is empty.
 */
#ifndef LS_UTIL_PTRMAP_H
#define LS_UTIL_PTRMAP_H

#include <stddef.h>

typedef struct ptrmap {
  const void **keys; /* NULL = empty slot */
  void **vals;
  size_t n, cap;
} ptrmap;

/* Whether key is in the map; *val (when not NULL) gets its value. */
int ptrmap_get(const ptrmap *m, const void *key, void **val);
/* Adds key (not NULL) or replaces its value; 0 when memory ran out (the map
 * is unchanged, so a caller that only memoises just goes on slower). */
int ptrmap_put(ptrmap *m, const void *key, void *val);
void ptrmap_free(ptrmap *m);

#endif
