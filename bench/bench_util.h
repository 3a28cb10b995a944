/*
 * bench_util.h — what every benchmark in bench/ shares: the seed lesson's
 * guarded kernel and the sampling kernel with its texture and sampler, a
 * monotonic clock, the median of repeated timings, and an error callback
 * that stops the benchmark (a figure measured after an error would mean
 * nothing).
 */
#ifndef LS_BENCH_UTIL_H
#define LS_BENCH_UTIL_H

#include <stdint.h>
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

/* One bilinear textureSampleLevel per invocation over a 512x512 texture,
 * 8x8 workgroups (bench/suite/sample.wgsl). */
static const char *const bench_sample_kernel =
    "@group(0) @binding(0) var tex: texture_2d<f32>;\n"
    "@group(0) @binding(1) var smp: sampler;\n"
    "@group(0) @binding(2) var<storage, read_write> out: array<f32>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  let uv = (vec2f(g.xy) + vec2f(0.3, 0.7)) / 512.0;\n"
    "  let c = textureSampleLevel(tex, smp, uv, 0.0);\n"
    "  out[g.y * 512u + g.x] = c.r + c.g + c.b + c.a;\n"
    "}\n";

/* n pseudo-random bytes: the top byte of each step of a 32-bit LCG. */
static inline void bench_lcg_bytes(uint8_t *p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = (uint8_t)(seed >> 24);
  }
}

/* An n x n rgba8unorm texture holding px (n * n * 4 bytes, rows packed),
 * and its default view. */
static inline ls_texture_view *bench_rgba8_texture(ls_device *d, uint32_t n, const void *px,
                                                   ls_texture **tex) {
  ls_texture_desc td = {0};
  td.size = (ls_extent3d){n, n, 1};
  td.format = LS_FORMAT_RGBA8UNORM;
  td.usage = LS_TEXTURE_USAGE_TEXTURE_BINDING | LS_TEXTURE_USAGE_COPY_DST;
  *tex = ls_device_create_texture(d, &td);
  ls_texel_copy_texture_info dst = {*tex, 0, {0, 0, 0}, LS_ASPECT_ALL};
  ls_texel_copy_buffer_layout lay = {0, n * 4, n};
  ls_queue_write_texture(d, &dst, px, (size_t)n * n * 4, &lay, &td.size);
  return ls_texture_create_view(*tex, NULL);
}

/* WebGPU's default sampler with linear filtering (clamp to edge). */
static inline ls_sampler *bench_linear_sampler(ls_device *d) {
  ls_sampler_desc sd = LS_SAMPLER_DESC_DEFAULT;
  sd.mag_filter = sd.min_filter = LS_FILTER_LINEAR;
  return ls_device_create_sampler(d, &sd);
}

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
