/* ptrmap.c — pointer-to-pointer map (see ptrmap.h). */
#include "ptrmap.h"

#include <stdint.h>
#include <stdlib.h>

static size_t ptrmap_slot(const void *key, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)key;
  x ^= x >> 29;
  x *= 0x9e3779b97f4a7c15u;
  return (size_t)(x >> 32) & (cap - 1);
}

int ptrmap_get(const ptrmap *m, const void *key, void **val) {
  if (!m->cap) return 0;
  for (size_t h = ptrmap_slot(key, m->cap); m->keys[h]; h = (h + 1) & (m->cap - 1))
    if (m->keys[h] == key) {
      if (val) *val = m->vals[h];
      return 1;
    }
  return 0;
}

static void ptrmap_insert(ptrmap *m, const void *key, void *val) {
  size_t h = ptrmap_slot(key, m->cap);
  while (m->keys[h] && m->keys[h] != key) h = (h + 1) & (m->cap - 1);
  if (!m->keys[h]) m->n++;
  m->keys[h] = key;
  m->vals[h] = val;
}

int ptrmap_put(ptrmap *m, const void *key, void *val) {
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    const void **keys = calloc(cap, sizeof *keys);
    void **vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
      free(keys);
      free(vals);
      return 0;
    }
    ptrmap old = *m;
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    m->n = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i]) ptrmap_insert(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
  }
  ptrmap_insert(m, key, val);
  return 1;
}

void ptrmap_free(ptrmap *m) {
  free(m->keys);
  free(m->vals);
  m->keys = NULL;
  m->vals = NULL;
  m->n = m->cap = 0;
}
