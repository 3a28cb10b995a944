/*
 * bench_suite.c — the benchmark suite's C side: each workload of
 * bench/suite/ (and the seed kernel of tests/kernels/000_guard.wgsl) run on
 * lockstep through the public API at W = 8, 32 and 64 on one thread, and
 * as a native C loop doing the same work, repetitions alternating between
 * the four so that a change in the machine's load falls on all of them.
 * bench/suite.mjs drives it (and Dawn, through bench/node/suite_dawn.mjs)
 * and prints the table; see docs/performance.md.
 *
 *   bench_suite spec                  the workloads as JSON (for Dawn's side)
 *   bench_suite run [--reps K] [--only a,b] [--impl a,b] [--out DIR] [--threads N]
 *       one JSON line per workload and implementation: wall and CPU time
 *       of every timed repetition (ms); with --out, each implementation's
 *       output buffer as DIR/<workload>.<impl>.bin for the comparison.
 *       --impl keeps those implementations (lockstep-w8, lockstep-w32,
 *       lockstep-w64, native), to profile one width alone.
 *       --threads gives lockstep N worker threads (1 by default; the
 *       native loops stay on one), for the suite's thread scaling.
 *   bench_suite isa                   the interpreter variants this CPU runs
 *                                     (LOCKSTEP_ISA picks one; bench/isa_ab.mjs)
 *   bench_suite exec CMD [ARGS...]
 *       runs CMD and prints its wall time and CPU time (user + system, from
 *       wait4's rusage, in microseconds rather than /usr/bin/time's
 *       hundredths) as JSON, for the small job as a process.
 */
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#ifndef LS_SOURCE_DIR
#define LS_SOURCE_DIR "."
#endif

enum { R_RO, R_RW, R_UNIFORM, R_TEXTURE, R_SAMPLER };
enum { I_ZERO, I_MOD1000, I_LCG_UNIT, I_LCG_U32, I_IOTA1, I_COUNT, I_LCG_BYTES };
static const char *const kind_names[] = {"read-only-storage", "storage", "uniform", "texture",
                                         "sampler"};
static const char *const init_names[] = {"zero",    "mod1000", "lcg_unit", "lcg_u32",
                                         "iota1",   "count",   "lcg_bytes"};

typedef struct {
  int kind, init;
  uint32_t seed;
  uint64_t size; /* bytes; a texture is 512x512 rgba8unorm */
  int reset;     /* rewritten before every repetition (the kernel changes it) */
  uint32_t count; /* I_COUNT: the value of word 0 */
} bench_res;

typedef void (*native_fn)(void *const *bufs);

typedef struct {
  const char *name, *file;
  bench_res res[3];
  int nres, out; /* resource index of the compared output */
  uint32_t gx, gy;
  uint32_t wg_invocations; /* Dawn's compatibility mode needs a limit above 128 */
  int subgroups;           /* needs the "subgroups" feature (Dawn here has none) */
  native_fn native;
} bench_workload;

#define SEED_N 3000001u
#define MM 512u
#define RED_N (4u << 20)
#define COL_N (1u << 20)
#define TEX 512u

/* ---------------------------------------------------------------- native C */
/* Each does what its kernel does, in the kernel's order of operations (so
 * the outputs can be compared bit for bit); noinline so that the timing loop
 * cannot absorb them. */

__attribute__((noinline)) static void nat_seed(void *const *b) {
  const uint32_t conteo = ((const uint32_t *)b[0])[0];
  float *d = b[1];
  for (uint32_t i = 0; i < SEED_N; i++) {
    if (i >= conteo) continue;
    d[i] = d[i] * 0.99f;
  }
}

__attribute__((noinline)) static void nat_matmul(void *const *b) {
  const float *x = b[0], *y = b[1];
  float *z = b[2];
  for (uint32_t r = 0; r < MM; r++)
    for (uint32_t c = 0; c < MM; c++) {
      float sum = 0.0f;
      for (uint32_t k = 0; k < MM; k++) sum += x[r * MM + k] * y[k * MM + c];
      z[r * MM + c] = sum;
    }
}

__attribute__((noinline)) static void nat_reduce(void *const *b) {
  const float *src = b[0];
  float *out = b[1], s[256];
  for (uint32_t g = 0; g < RED_N / 256; g++) {
    memcpy(s, src + (size_t)g * 256, sizeof s);
    for (uint32_t k = 128; k > 0; k >>= 1)
      for (uint32_t i = 0; i < k; i++) s[i] += s[i + k];
    out[g] = s[0];
  }
}

__attribute__((noinline)) static void nat_histogram(void *const *b) {
  const uint32_t *src = b[0];
  uint32_t *bins = b[1];
  for (uint32_t g = 0; g < RED_N / 256; g++) {
    uint32_t h[256] = {0};
    for (uint32_t i = 0; i < 256; i++) h[src[g * 256 + i] & 255u]++;
    for (uint32_t i = 0; i < 256; i++) bins[i] += h[i];
  }
}

__attribute__((noinline)) static void nat_mandelbrot(void *const *b) {
  uint32_t *out = b[0];
  for (uint32_t py = 0; py < 512; py++)
    for (uint32_t px = 0; px < 512; px++) {
      const float cx = -2.0f + 3.0f * (float)px / 512.0f;
      const float cy = -1.5f + 3.0f * (float)py / 512.0f;
      float x = 0.0f, y = 0.0f;
      uint32_t i = 0;
      while (!(i >= 256u || x * x + y * y > 4.0f)) {
        const float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
      }
      out[py * 512 + px] = i;
    }
}

__attribute__((noinline)) static void nat_collatz(void *const *b) {
  const uint32_t *src = b[0];
  uint32_t *steps = b[1];
  for (uint32_t i = 0; i < COL_N; i++) {
    uint32_t n = src[i], s = 0;
    while (!(n <= 1u || s >= 64u)) {
      n = (n & 1u) == 1u ? 3u * n + 1u : n >> 1;
      s++;
    }
    steps[i] = s;
  }
}

__attribute__((noinline)) static void nat_subgroup(void *const *b) {
  const uint32_t *src = b[0];
  uint32_t *sums = b[1];
  for (uint32_t g = 0; g < RED_N / 256; g++) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < 256; i++) s += src[g * 256 + i];
    sums[g] = s;
  }
}

/* WebGPU's bilinear filter with clamp-to-edge, in f32 (bench_sample's). */
__attribute__((noinline)) static void nat_sample(void *const *b) {
  const uint8_t *px = b[0];
  float *out = b[2];
  const int n = TEX;
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      const float u = ((float)x + 0.3f) / 512.0f * n - 0.5f, v = ((float)y + 0.7f) / 512.0f * n - 0.5f;
      const float fu = floorf(u), fv = floorf(v), a = u - fu, c = v - fv;
      int i0 = (int)fu, j0 = (int)fv, i1 = i0 + 1, j1 = j0 + 1;
      i0 = i0 < 0 ? 0 : i0 > n - 1 ? n - 1 : i0;
      i1 = i1 < 0 ? 0 : i1 > n - 1 ? n - 1 : i1;
      j0 = j0 < 0 ? 0 : j0 > n - 1 ? n - 1 : j0;
      j1 = j1 < 0 ? 0 : j1 > n - 1 ? n - 1 : j1;
      float sum = 0.0f;
      for (int ch = 0; ch < 4; ch++) {
        const float t00 = (float)px[(j0 * n + i0) * 4 + ch] / 255.0f;
        const float t10 = (float)px[(j0 * n + i1) * 4 + ch] / 255.0f;
        const float t01 = (float)px[(j1 * n + i0) * 4 + ch] / 255.0f;
        const float t11 = (float)px[(j1 * n + i1) * 4 + ch] / 255.0f;
        sum += (1 - a) * (1 - c) * t00 + a * (1 - c) * t10 + (1 - a) * c * t01 + a * c * t11;
      }
      out[y * n + x] = sum;
    }
}

/* ---------------------------------------------------------------- the table */
static const bench_workload workloads[] = {
    {"seed", "tests/kernels/000_guard.wgsl",
     {{R_UNIFORM, I_COUNT, 0, 16, 0, SEED_N}, {R_RW, I_MOD1000, 0, SEED_N * 4ull, 1, 0}},
     2, 1, (SEED_N + 63) / 64, 1, 64, 0, nat_seed},
    {"matmul_naive", "bench/suite/matmul_naive.wgsl",
     {{R_RO, I_LCG_UNIT, 1, MM * MM * 4, 0, 0}, {R_RO, I_LCG_UNIT, 2, MM * MM * 4, 0, 0},
      {R_RW, I_ZERO, 0, MM * MM * 4, 0, 0}},
     3, 2, MM / 16, MM / 16, 256, 0, nat_matmul},
    {"matmul_tiled", "bench/suite/matmul_tiled.wgsl",
     {{R_RO, I_LCG_UNIT, 1, MM * MM * 4, 0, 0}, {R_RO, I_LCG_UNIT, 2, MM * MM * 4, 0, 0},
      {R_RW, I_ZERO, 0, MM * MM * 4, 0, 0}},
     3, 2, MM / 16, MM / 16, 256, 0, nat_matmul},
    {"reduce", "bench/suite/reduce.wgsl",
     {{R_RO, I_LCG_UNIT, 3, RED_N * 4ull, 0, 0}, {R_RW, I_ZERO, 0, RED_N / 256 * 4, 0, 0}},
     2, 1, RED_N / 256, 1, 256, 0, nat_reduce},
    {"histogram", "bench/suite/histogram.wgsl",
     {{R_RO, I_LCG_U32, 4, RED_N * 4ull, 0, 0}, {R_RW, I_ZERO, 0, 256 * 4, 1, 0}},
     2, 1, RED_N / 256, 1, 256, 0, nat_histogram},
    {"mandelbrot", "bench/suite/mandelbrot.wgsl", {{R_RW, I_ZERO, 0, 512 * 512 * 4, 0, 0}},
     1, 0, 512 / 16, 512 / 16, 256, 0, nat_mandelbrot},
    {"collatz", "bench/suite/collatz.wgsl",
     {{R_RO, I_IOTA1, 0, COL_N * 4ull, 0, 0}, {R_RW, I_ZERO, 0, COL_N * 4ull, 0, 0}},
     2, 1, COL_N / 64, 1, 64, 0, nat_collatz},
    {"subgroup_add", "bench/suite/subgroup_add.wgsl",
     {{R_RO, I_LCG_U32, 5, RED_N * 4ull, 0, 0}, {R_RW, I_ZERO, 0, RED_N / 256 * 4, 0, 0}},
     2, 1, RED_N / 256, 1, 256, 1, nat_subgroup},
    {"sample", "bench/suite/sample.wgsl",
     {{R_TEXTURE, I_LCG_BYTES, 6, TEX * TEX * 4, 0, 0}, {R_SAMPLER, I_ZERO, 0, 0, 0, 0},
      {R_RW, I_ZERO, 0, TEX * TEX * 4, 0, 0}},
     3, 2, TEX / 8, TEX / 8, 64, 0, nat_sample},
};
enum { NWORK = sizeof workloads / sizeof workloads[0] };

/* The initial contents of a resource; the same formulas are in
 * bench/node/suite_dawn.mjs. */
static void fill(const bench_res *r, void *p) {
  uint32_t *w = p, s = r->seed;
  const uint64_t words = r->size / 4;
  memset(p, 0, r->size);
  for (uint64_t i = 0; i < words; i++) {
    switch (r->init) {
    case I_MOD1000: ((float *)p)[i] = (float)(i % 1000); break;
    case I_LCG_UNIT:
      s = s * 1664525u + 1013904223u;
      ((float *)p)[i] = (float)(s >> 8) * (1.0f / 16777216.0f);
      break;
    case I_LCG_U32:
      s = s * 1664525u + 1013904223u;
      w[i] = s;
      break;
    case I_IOTA1: w[i] = (uint32_t)i + 1; break;
    case I_COUNT: w[i] = i == 0 ? r->count : 0; break;
    default: break;
    }
  }
  if (r->init == I_LCG_BYTES) bench_lcg_bytes(p, r->size, s);
}

static char *read_text(const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", LS_SOURCE_DIR, rel);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "bench_suite: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) exit(1);
  s[n] = 0;
  fclose(f);
  return s;
}

static void print_spec(void) {
  printf("{\"root\": \"%s\", \"workloads\": [\n", LS_SOURCE_DIR);
  for (int i = 0; i < NWORK; i++) {
    const bench_workload *wl = &workloads[i];
    printf("  {\"name\": \"%s\", \"file\": \"%s\", \"groups\": [%u, %u], \"invocations\": %u, "
           "\"subgroups\": %s, \"out\": %d, \"resources\": [",
           wl->name, wl->file, wl->gx, wl->gy, wl->wg_invocations, wl->subgroups ? "true" : "false",
           wl->out);
    for (int k = 0; k < wl->nres; k++) {
      const bench_res *r = &wl->res[k];
      printf("%s{\"kind\": \"%s\", \"init\": \"%s\", \"seed\": %u, \"size\": %llu, \"reset\": %s, "
             "\"count\": %u}",
             k ? ", " : "", kind_names[r->kind], init_names[r->init], r->seed,
             (unsigned long long)r->size, r->reset ? "true" : "false", r->count);
    }
    printf("]}%s\n", i + 1 < NWORK ? "," : "");
  }
  printf("]}\n");
}

/* ---------------------------------------------------------------- lockstep */
typedef struct {
  ls_adapter *ad;
  ls_device *dev;
  ls_buffer *buf[3];
  ls_texture *tex;
  ls_texture_view *view;
  ls_sampler *smp;
  ls_shader_module *mod;
  ls_compute_pipeline *pipe;
  ls_bind_group_layout *bgl;
  ls_bind_group *bg;
} bench_ls;

static uint32_t ls_threads = 1; /* --threads */

static void ls_open(bench_ls *L, const bench_workload *wl, unsigned width, void *const *init,
                    const char *code) {
  memset(L, 0, sizeof *L);
  ls_adapter_options ao = {.struct_size = sizeof ao, .subgroup_size = width, .threads = ls_threads};
  char err[256];
  ls_status st;
  L->ad = ls_adapter_create(&ao, err, sizeof err);
  const char *feat[] = {"subgroups"};
  ls_device_desc dd = {.struct_size = sizeof dd, .required_features = feat,
                       .required_feature_count = wl->subgroups ? 1 : 0};
  L->dev = L->ad ? ls_adapter_create_device(L->ad, &dd, &st, err, sizeof err) : NULL;
  if (!L->dev) {
    fprintf(stderr, "bench_suite: %s\n", err);
    exit(1);
  }
  ls_device_set_error_callback(L->dev, bench_fail, "bench_suite");
  ls_bind_group_entry e[3];
  memset(e, 0, sizeof e);
  for (int k = 0; k < wl->nres; k++) {
    const bench_res *r = &wl->res[k];
    e[k].binding = (uint32_t)k;
    if (r->kind == R_TEXTURE) {
      L->view = bench_rgba8_texture(L->dev, TEX, init[k], &L->tex);
      e[k].texture_view = L->view;
    } else if (r->kind == R_SAMPLER) {
      L->smp = bench_linear_sampler(L->dev);
      e[k].sampler = L->smp;
    } else {
      ls_buffer_desc bd = {.size = r->size,
                           .usage = (r->kind == R_UNIFORM ? LS_BUFFER_USAGE_UNIFORM
                                                          : LS_BUFFER_USAGE_STORAGE) |
                                    LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC};
      L->buf[k] = ls_device_create_buffer(L->dev, &bd);
      ls_queue_write_buffer(L->dev, L->buf[k], 0, init[k], r->size);
      e[k].buffer = L->buf[k];
      e[k].size = LS_WHOLE_SIZE;
    }
  }
  ls_shader_module_desc sd = {.code = code, .label = wl->file};
  L->mod = ls_device_create_shader_module(L->dev, &sd);
  ls_compute_pipeline_desc cd = {.module = L->mod, .entry_point = "main"};
  L->pipe = ls_device_create_compute_pipeline(L->dev, &cd);
  L->bgl = ls_compute_pipeline_get_bind_group_layout(L->pipe, 0);
  L->bg = ls_device_create_bind_group(
      L->dev, &(ls_bind_group_desc){.layout = L->bgl, .entries = e, .entry_count = (size_t)wl->nres});
}

/* Resets what the kernel changes (untimed), then encodes, submits and waits
 * for one dispatch (timed). */
static void ls_once(bench_ls *L, const bench_workload *wl, void *const *init, double *wall,
                    double *cpu) {
  for (int k = 0; k < wl->nres; k++)
    if (wl->res[k].reset) ls_queue_write_buffer(L->dev, L->buf[k], 0, init[k], wl->res[k].size);
  ls_queue_wait_idle(L->dev);
  struct timespec c0, c1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  const double t0 = bench_now();
  ls_command_encoder *enc = ls_device_create_command_encoder(L->dev, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, L->pipe);
  ls_compute_pass_set_bind_group(pass, 0, L->bg, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, wl->gx, wl->gy, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  ls_queue_submit(L->dev, &cb, 1);
  ls_command_buffer_release(cb);
  *wall = bench_now() - t0;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  *cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
}

static void ls_close(bench_ls *L) {
  ls_bind_group_release(L->bg);
  ls_bind_group_layout_release(L->bgl);
  ls_compute_pipeline_release(L->pipe);
  ls_shader_module_release(L->mod);
  for (int k = 0; k < 3; k++)
    if (L->buf[k]) ls_buffer_release(L->buf[k]);
  if (L->view) ls_texture_view_release(L->view);
  if (L->tex) ls_texture_release(L->tex);
  if (L->smp) ls_sampler_release(L->smp);
  ls_device_release(L->dev);
  ls_adapter_release(L->ad);
}

/* ---------------------------------------------------------------- the run */
enum { NIMPL = 4 }; /* lockstep W = 8, 32, 64, native C */
static const char *const impl_names[NIMPL] = {"lockstep-w8", "lockstep-w32", "lockstep-w64",
                                              "native"};
static const unsigned impl_width[NIMPL] = {8, 32, 64, 0};

static void write_out(const char *dir, const char *wl, const char *impl, const void *p,
                      uint64_t n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.%s.bin", dir, wl, impl);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n) {
    fprintf(stderr, "bench_suite: cannot write %s\n", path);
    exit(1);
  }
  fclose(f);
}

static void print_times(const char *wl, const char *impl, const double *wall, const double *cpu,
                        int reps) {
  printf("{\"workload\": \"%s\", \"impl\": \"%s\", \"wall_ms\": [", wl, impl);
  for (int r = 0; r < reps; r++) printf("%s%.4f", r ? ", " : "", wall[r] * 1e3);
  printf("], \"cpu_ms\": [");
  for (int r = 0; r < reps; r++) printf("%s%.4f", r ? ", " : "", cpu[r] * 1e3);
  printf("]}\n");
  fflush(stdout);
}

static int selected(const char *only, const char *name) {
  if (!only) return 1;
  const size_t n = strlen(name);
  for (const char *p = only; *p;) {
    const char *e = strchr(p, ',');
    const size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

/* --impl: the implementations run (all when NULL) */
static const char *impl_only;

static void run_workload(const bench_workload *wl, int reps, const char *dir) {
  void *init[3] = {0}, *host[3] = {0};
  for (int k = 0; k < wl->nres; k++) {
    const uint64_t n = wl->res[k].size ? wl->res[k].size : 4;
    init[k] = malloc(n);
    host[k] = malloc(n);
    fill(&wl->res[k], init[k]);
    memcpy(host[k], init[k], n);
  }
  char *code = read_text(wl->file);
  bench_ls L[3];
  int on[NIMPL];
  for (int i = 0; i < NIMPL; i++) on[i] = selected(impl_only, impl_names[i]);
  for (int i = 0; i < 3; i++)
    if (on[i]) ls_open(&L[i], wl, impl_width[i], init, code);
  double *wall = calloc((size_t)reps * NIMPL, sizeof *wall), *cpu = calloc((size_t)reps * NIMPL, sizeof *cpu);
  /* one warm-up of each, then the repetitions, the order rotating */
  for (int r = -1; r < reps; r++)
    for (int j = 0; j < NIMPL; j++) {
      const int i = (j + (r < 0 ? 0 : r)) % NIMPL;
      if (!on[i]) continue;
      double tw, tc;
      if (i < 3) {
        ls_once(&L[i], wl, init, &tw, &tc);
      } else {
        for (int k = 0; k < wl->nres; k++)
          if (wl->res[k].reset || k == wl->out) memcpy(host[k], init[k], wl->res[k].size);
        struct timespec c0, c1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        const double t0 = bench_now();
        wl->native(host);
        tw = bench_now() - t0;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        tc = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
      }
      if (r >= 0) {
        wall[i * reps + r] = tw;
        cpu[i * reps + r] = tc;
      }
    }
  const uint64_t osize = wl->res[wl->out].size;
  void *got = malloc(osize);
  for (int i = 0; i < NIMPL; i++) {
    if (!on[i]) continue;
    print_times(wl->name, impl_names[i], wall + i * reps, cpu + i * reps, reps);
    if (!dir) continue;
    if (i < 3) {
      ls_queue_read_buffer(L[i].dev, L[i].buf[wl->out], 0, got, osize);
      write_out(dir, wl->name, impl_names[i], got, osize);
    } else {
      write_out(dir, wl->name, impl_names[i], host[wl->out], osize);
    }
  }
  for (int i = 0; i < 3; i++)
    if (on[i]) ls_close(&L[i]);
  for (int k = 0; k < wl->nres; k++) {
    free(init[k]);
    free(host[k]);
  }
  free(got);
  free(wall);
  free(cpu);
  free(code);
}

/* The small job as a process: fork, exec, wait4. */
static int exec_timed(char **cmd) {
  const double t0 = bench_now();
  const pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    execvp(cmd[0], cmd);
    fprintf(stderr, "bench_suite: cannot run %s\n", cmd[0]);
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) return 1;
  const double wall = bench_now() - t0;
  const double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                     ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
  printf("{\"wall_ms\": %.3f, \"cpu_ms\": %.3f, \"status\": %d}\n", wall * 1e3, cpu * 1e3,
         WIFEXITED(status) ? WEXITSTATUS(status) : 128);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "exec")) return exec_timed(argv + 2);
  if (argc > 1 && !strcmp(argv[1], "isa")) {
    static const char *const all[] = {"sse2", "avx2", "avx512"};
    for (int k = 0; k < 3; k++)
      if (ls_isa_available(all[k])) printf("%s%s", k ? " " : "", all[k]);
    printf("\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "spec")) {
    print_spec();
    return 0;
  }
  if (argc < 2 || strcmp(argv[1], "run")) {
    fprintf(stderr, "usage: bench_suite spec | isa | run [--reps K] [--only a,b] [--impl a,b] [--out DIR] [--threads N] | exec CMD...\n");
    return 2;
  }
  int reps = 3;
  const char *only = NULL, *dir = NULL;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
    else if (!strcmp(argv[i], "--impl") && i + 1 < argc) impl_only = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      const int t = atoi(argv[++i]);
      if (t < 1 || t > 256) {
        fprintf(stderr, "bench_suite: --threads must be 1 to 256\n");
        return 2;
      }
      ls_threads = (uint32_t)t;
    }
    else {
      fprintf(stderr, "bench_suite: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (reps < 1 || reps > 1000) {
    fprintf(stderr, "bench_suite: --reps must be 1 to 1000\n");
    return 2;
  }
  for (int i = 0; i < NWORK; i++)
    if (selected(only, workloads[i].name)) run_workload(&workloads[i], reps, dir);
  return 0;
}
