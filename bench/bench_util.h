/*
 * bench_util.h — what every benchmark in bench/ shares: the seed lesson's
 * guarded kernel, a monotonic clock, the median of repeated timings, and an
 * error callback that stops the benchmark (a figure measured after an error
 * would mean nothing).
 */
#ifndef LS_BENCH_UTIL_H
#define LS_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lockstep.h"

/* Lesson 000: datos[i] *= 0.99 behind the guard against params.conteo. */
static const char *const bench_guard_kernel =
    "struct Params { conteo: u32 };\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
    "  if (gid.x >= params.conteo) { return; }\n"
    "  datos[gid.x] = datos[gid.x] * 0.99;\n"
    "}\n";

static inline double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int bench_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts v and returns its median. */
static inline double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp);
  return v[n / 2];
}

/* ls_device_set_error_callback(dev, bench_fail, "bench_name") */
static inline void bench_fail(void *user, ls_error_type type, const char *msg) {
  (void)type;
  fprintf(stderr, "%s: %s\n", user ? (const char *)user : "bench", msg);
  exit(1);
}

#endif
