/*
 * jscache.c — file access for the loader in index.js, the code cache of the binding's
 * own JavaScript: read the cache file, check it, hand its sources to V8, and
 * stat the modules it was made from.
 *
 * Why in C: importing the package is most of a small job, and on the
 * virtual machines it runs on, bytes moved and pages touched for the first
 * time are most of an import's cost (a page fault costs 11 to 14 us there;
 * mapping a page already in the page cache, 0.5 to 6 us; reading the 250 KB
 * cache with read() costs 0.25 ms, and so does a checksum done one word
 * after another). Node's readFileSync reads into a new, unmapped buffer (a
 * fault per page), and each module's source became a string on V8's young
 * heap. Here the file is mapped, the pages V8 reads at once (the header,
 * the index, the code) populated in one step, the checksum runs four
 * independent lanes, and the bundle's source, ASCII, becomes an external
 * string over the mapped bytes: V8 reads it in place, only when it
 * compiles a function the cache lacks or prints a stack, and the heap
 * holds only its header. A mapping a source string points into is never
 * unmapped (the modules' code lives as long as the process); a cache that
 * is refused is unmapped with its ArrayBuffer.
 *
 * The checksum covers the code, not the source: V8 trusts cached code
 * (damaged code stops the process), while the source is text V8 parses,
 * a copy of lib/'s files, which the loader checks by size and times as
 * Node checks none of the files it loads.
 *
 * The mapping is private, of a file that index.js only ever replaces
 * (a new file renamed over it), so the bytes cannot change under V8. Only
 * someone truncating the cache file in place, which nothing of lockstep
 * does, could take pages away (SIGBUS): the same trust as in the addon
 * beside it.
 *
 * External strings are Node-API's node_api_create_external_string_latin1,
 * stable in newer Node and experimental in Node 20, where the addon looks it
 * up at run time instead of compiling against the experimental API; without
 * it (or for a source that is not ASCII) the string is a copy, as before.
 */
#include "addon.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

/* the cache is a few hundred KiB; anything far larger is not ours */
#define JC_MAX_FILE (64u << 20)

typedef napi_status (*jc_external_latin1_fn)(napi_env env, char *str, size_t length,
                                             napi_finalize finalize, void *hint,
                                             napi_value *result, bool *copied);

/* A cache file mapped by readCache. `pinned` once a source string points
 * into it. */
typedef struct jc_region {
  char *base;
  size_t len;
  int pinned;
  struct jc_region *next;
} jc_region;

static jc_region *g_regions; /* main thread only */

static void region_finalize(napi_env env, void *data, void *hint) {
  jc_region *r = hint;
  if (r->pinned) return; /* strings still read it: kept for the process */
  for (jc_region **p = &g_regions; *p; p = &(*p)->next) {
    if (*p == r) {
      *p = r->next;
      break;
    }
  }
  munmap(r->base, r->len);
  free(r);
}

static uint64_t checksum_of(const unsigned char *p, size_t n);

/* readCache(path, magic): the cache file, checked, or undefined when it is
 * absent, unreadable, not ours or damaged (the loader then compiles from
 * source). The file is `magic`, a line "<index length> <checked length>
 * <checksum>", the index (JSON) and the blob, whose first <checked length>
 * bytes (the code) the checksum covers; the answer is [the file as an
 * ArrayBuffer over a private mapping, the index's text, the blob's
 * offset]. */
ND_FN(read_cache) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  char *path = nd_get_str(env, argv[0]);
  char *magic = nd_get_str(env, argv[1]);
  napi_value out = nd_undefined(env);
  int fd = path && magic ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  struct stat st;
  jc_region *r = NULL;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
      st.st_size > JC_MAX_FILE || !(r = calloc(1, sizeof *r)))
    goto done;
  r->len = (size_t)st.st_size;
  r->base = mmap(NULL, r->len, PROT_READ, MAP_PRIVATE, fd, 0);
  if (r->base == MAP_FAILED) goto done;
  size_t m = strlen(magic), at = m;
  char *end;
  /* the header line ends inside the file (strtoull stops at its end) */
  if (r->len < m + 4 || memcmp(r->base, magic, m) != 0 ||
      !memchr(r->base + m, '\n', r->len - m < 64 ? r->len - m : 64))
    goto unmap;
  unsigned long long index_len = strtoull(r->base + at, &end, 10);
  if (end == r->base + at || *end != ' ') goto unmap;
  unsigned long long checked = strtoull(end + 1, &end, 10);
  if (*end != ' ') goto unmap;
  unsigned long long sum = strtoull(end + 1, &end, 16);
  if (*end != '\n') goto unmap;
  at = (size_t)(end + 1 - r->base);
  if (index_len > r->len - at) goto unmap;
  size_t blob = at + (size_t)index_len;
  if (checked > r->len - blob) goto unmap;
  /* one call for the pages read now; a kernel without it faults them in */
  madvise(r->base, blob + (size_t)checked, MADV_POPULATE_READ);
  if (checksum_of((const unsigned char *)r->base + blob, (size_t)checked) != sum) goto unmap;
  napi_value ab, text, off;
  if (napi_create_external_arraybuffer(env, r->base, r->len, region_finalize, r, &ab) != napi_ok)
    goto unmap;
  r->next = g_regions;
  g_regions = r;
  const char *base = r->base;
  r = NULL; /* the ArrayBuffer's now */
  napi_create_string_utf8(env, base + at, (size_t)index_len, &text);
  napi_create_double(env, (double)blob, &off);
  napi_create_array_with_length(env, 3, &out);
  napi_set_element(env, out, 0, ab);
  napi_set_element(env, out, 1, text);
  napi_set_element(env, out, 2, off);
  goto done;
unmap:
  munmap(r->base, r->len);
done:
  free(r);
  if (fd >= 0) close(fd);
  free(path);
  free(magic);
  return out;
}

static jc_region *region_of(const char *p, size_t len) {
  for (jc_region *r = g_regions; r; r = r->next)
    if (p >= r->base && len <= r->len && (size_t)(p - r->base) <= r->len - len) return r;
  return NULL;
}

/* source(uint8Array, offset, length, ascii): those bytes (UTF-8) as a
 * string; an external one, read in place, when the writer found them ASCII
 * (`ascii`: checking here would read every page), they lie inside a
 * mapping of readCache's and Node offers external strings. */
ND_FN(source) {
  static jc_external_latin1_fn external;
  static int looked;
  napi_value argv[4];
  if (!nd_args(env, info, 4, argv)) return NULL;
  size_t n = 0;
  void *data = NULL;
  if (!nd_get_bytes(env, argv[0], &data, &n))
    return nd_throw(env, "ERR_INVALID_ARG_TYPE", "source: a Uint8Array");
  double off = nd_get_f64(env, argv[1]), len = nd_get_f64(env, argv[2]);
  if (!(off >= 0 && len >= 0 && off + len <= (double)n))
    return nd_throw(env, "ERR_OUT_OF_RANGE", "source: [%g, %g + %g) is outside the %zu bytes", off, off,
                    len, n);
  char *p = (char *)data + (size_t)off;
  size_t l = (size_t)len;
  if (!looked) {
    looked = 1;
    external = (jc_external_latin1_fn)dlsym(RTLD_DEFAULT, "node_api_create_external_string_latin1");
  }
  napi_value s;
  jc_region *r = external && nd_get_bool(env, argv[3]) ? region_of(p, l) : NULL;
  if (r) {
    bool copied = false;
    if (external(env, p, l, NULL, NULL, &s, &copied) == napi_ok) {
      if (!copied) r->pinned = 1;
      return s;
    }
  }
  if (napi_create_string_utf8(env, p, l, &s) != napi_ok) return NULL;
  return s;
}

/* statFiles(dir, names): a Float64Array of [size, mtime, ctime] per file of
 * dir (times in ms), -1 for one that cannot be stat'ed: what the cache
 * records of each module (one call, no fs.Stats objects). The ctime
 * matters: npm packs files with one fixed mtime, so two versions of a
 * module of the same size would look alike by size and mtime, but no
 * one can set a ctime, and extracting, copying or editing a file gives it
 * a new one. */
ND_FN(stat_files) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  uint32_t count = 0;
  char *dir = nd_get_str(env, argv[0]);
  if (!dir || napi_get_array_length(env, argv[1], &count) != napi_ok) {
    free(dir);
    return nd_throw(env, "ERR_INVALID_ARG_TYPE", "statFiles: a folder and an array of names");
  }
  napi_value ab, out;
  double *v;
  if (napi_create_arraybuffer(env, (size_t)count * 3 * sizeof(double), (void **)&v, &ab) != napi_ok) {
    free(dir);
    return NULL;
  }
  char path[4096];
  for (uint32_t i = 0; i < count; i++) {
    napi_value e;
    napi_get_element(env, argv[1], i, &e);
    char *name = nd_get_str(env, e);
    struct stat st;
    if (name && (size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path &&
        stat(path, &st) == 0) {
      v[3 * i] = (double)st.st_size;
      v[3 * i + 1] = (double)st.st_mtim.tv_sec * 1e3 + (double)st.st_mtim.tv_nsec / 1e6;
      v[3 * i + 2] = (double)st.st_ctim.tv_sec * 1e3 + (double)st.st_ctim.tv_nsec / 1e6;
    } else {
      v[3 * i] = v[3 * i + 1] = v[3 * i + 2] = -1;
    }
    free(name);
  }
  free(dir);
  napi_create_typedarray(env, napi_float64_array, (size_t)count * 3, ab, 0, &out);
  return out;
}

/* checksum(uint8Array): 16 hex digits over the bytes: V8 stops the process
 * (not an exception) on damaged cached code, so the loader checks the
 * cache before handing it over, and a checksum in JavaScript or node:crypto
 * would cost more than the cache saves. Four lanes of eight bytes, each
 * mixed by a multiply and a rotate, so that the multiplies overlap; not
 * cryptographic (whoever can write the cache can replace the addon). */
static uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0xff51afd7ed558ccdu;
  return (h << 31) | (h >> 33);
}

static uint64_t checksum_of(const unsigned char *p, size_t n) {
  uint64_t lane[4] = {0x9e3779b97f4a7c15u ^ n, 0xbf58476d1ce4e5b9u, 0x94d049bb133111ebu, 0x2545f4914f6cdd1du};
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint64_t w[4];
    memcpy(w, p + i, 32);
    for (int k = 0; k < 4; k++) lane[k] = mix(lane[k], w[k]);
  }
  uint64_t h = lane[0];
  for (int k = 1; k < 4; k++) h = mix(h, lane[k]);
  for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53u;
  return h ^ (h >> 33);
}

ND_FN(checksum) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  size_t n = 0;
  void *data = NULL;
  if (!nd_get_bytes(env, argv[0], &data, &n))
    return nd_throw(env, "ERR_INVALID_ARG_TYPE", "checksum: a Uint8Array");
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)checksum_of(data, n));
  return nd_str(env, hex);
}

const nd_export nd_exports_jscache[] = {
  {"readCache", read_cache},
  {"source", source},
  {"statFiles", stat_files},
  {"checksum", checksum},
  {NULL, NULL},
};
