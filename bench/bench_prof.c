/*
 * bench_prof.c — what the SIMT profiler costs: the seed guard kernel
 * (datos[i] *= 0.99 behind `if (gid.x >= params.conteo) { return; }`) on
 * 3,000,001 floats, timed plain and with ls_profiler_attach on the same
 * device configuration, at several widths and thread counts. The figure is
 * the ratio profiled / plain (target: within 2x); absolute times are
 * printed for reference.
 *
 * The two devices are set up side by side and their dispatches alternate
 * (plain, profiled, plain, ...), so a change in the machine's load falls
 * on both: the ratio of the medians is the figure, and the spread of the
 * pairwise ratios (quartiles, extremes) says how far to trust it.
 *
 *   bench_prof [n] [pairs] [W] [kernel]
 *
 * W: only that width (0 = all). kernel: "guard" (default); "loop", the
 * same work as a grid-stride loop over 64 workgroups (n / 4096 trips per
 * lane), where the profiler also follows every loop back edge; or
 * "sample", the suite's sampling kernel (one bilinear textureSampleLevel
 * per invocation over a 512x512 rgba8unorm texture, 8x8 workgroups; n is
 * not used), where every request is a texel event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "lockstep.h"

static const char *const loop_kernel =
    "struct Params { conteo: u32 };\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
    "  for (var i = gid.x; i < params.conteo; i += 4096u) {\n"
    "    datos[i] = datos[i] * 0.99;\n"
    "  }\n"
    "}\n";

enum { K_GUARD, K_LOOP, K_SAMPLE };
#define TEX 512u

/* One device with the kernel's pipeline and buffers, profiled or not. */
typedef struct setup {
  ls_adapter *a;
  ls_device *d;
  ls_profiler *p;
  ls_buffer *bu, *bs;
  ls_texture *tex;
  ls_texture_view *view;
  ls_sampler *smp;
  ls_shader_module *m;
  ls_compute_pipeline *pl;
  ls_bind_group_layout *bgl;
  ls_bind_group *bg;
  unsigned groups, groups_y;
} setup;

/* The sampling kernel's bindings: a texture of pseudo-random texels, a
 * linear sampler, the output buffer. */
static void setup_sample(setup *s) {
  uint8_t *texels = malloc((size_t)TEX * TEX * 4);
  if (!texels) exit(1);
  bench_lcg_bytes(texels, (size_t)TEX * TEX * 4, 6);
  s->view = bench_rgba8_texture(s->d, TEX, texels, &s->tex);
  free(texels);
  s->smp = bench_linear_sampler(s->d);
  ls_buffer_desc ob = {.size = (uint64_t)TEX * TEX * 4, .usage = LS_BUFFER_USAGE_STORAGE, .label = "out"};
  s->bs = ls_device_create_buffer(s->d, &ob);
  s->groups = s->groups_y = TEX / 8;
}

static void setup_create(setup *s, unsigned n, unsigned width, unsigned threads, int profiled,
                         int kernel) {
  const int loop = kernel == K_LOOP;
  memset(s, 0, sizeof *s);
  ls_adapter_options ao = {sizeof ao, NULL, width, threads, 0};
  char err[256];
  s->a = ls_adapter_create(&ao, err, sizeof err);
  ls_status st;
  s->d = s->a ? ls_adapter_create_device(s->a, NULL, &st, err, sizeof err) : NULL;
  if (!s->d) {
    fprintf(stderr, "bench_prof: %s\n", err);
    exit(1);
  }
  ls_device_set_error_callback(s->d, bench_fail, "bench_prof");
  if (profiled && !(s->p = ls_profiler_attach(s->d, NULL, err, sizeof err))) {
    fprintf(stderr, "bench_prof: %s\n", err);
    exit(1);
  }
  const char *code;
  ls_bind_group_entry be[3];
  memset(be, 0, sizeof be);
  uint32_t nbe;
  if (kernel == K_SAMPLE) {
    setup_sample(s);
    code = bench_sample_kernel;
    be[0].binding = 0;
    be[0].texture_view = s->view;
    be[1].binding = 1;
    be[1].sampler = s->smp;
    be[2] = (ls_bind_group_entry){2, s->bs, 0, LS_WHOLE_SIZE};
    nbe = 3;
  } else {
    s->groups = loop ? 64 : (n + 63) / 64;
    s->groups_y = 1;
    uint64_t words = loop ? (uint64_t)n : (uint64_t)s->groups * 64;
    ls_buffer_desc ub = {.size = 16, .usage = LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST, .label = "params"};
    ls_buffer_desc sb = {.size = words * 4, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST, .label = "datos"};
    s->bu = ls_device_create_buffer(s->d, &ub);
    s->bs = ls_device_create_buffer(s->d, &sb);
    uint32_t params[4] = {n, 0, 0, 0};
    ls_queue_write_buffer(s->d, s->bu, 0, params, 16);
    code = loop ? loop_kernel : bench_guard_kernel;
    be[0] = (ls_bind_group_entry){0, s->bu, 0, LS_WHOLE_SIZE};
    be[1] = (ls_bind_group_entry){1, s->bs, 0, LS_WHOLE_SIZE};
    nbe = 2;
  }
  ls_shader_module_desc md = {.code = code, .label = "bench_prof.wgsl"};
  s->m = ls_device_create_shader_module(s->d, &md);
  ls_compute_pipeline_desc pd = {.module = s->m, .entry_point = "main"};
  s->pl = ls_device_create_compute_pipeline(s->d, &pd);
  s->bgl = ls_compute_pipeline_get_bind_group_layout(s->pl, 0);
  s->bg = ls_device_create_bind_group(s->d, &(ls_bind_group_desc){.layout = s->bgl, .entries = be, .entry_count = nbe});
}

/* Seconds for one dispatch, submit to completion. */
static double setup_dispatch(setup *s) {
  ls_command_encoder *enc = ls_device_create_command_encoder(s->d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, s->pl);
  ls_compute_pass_set_bind_group(pass, 0, s->bg, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, s->groups, s->groups_y, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  double t0 = bench_now();
  ls_queue_submit(s->d, &cb, 1);
  const double t = bench_now() - t0;
  ls_command_buffer_release(cb);
  return t;
}

static void setup_destroy(setup *s) {
  ls_bind_group_release(s->bg);
  ls_bind_group_layout_release(s->bgl);
  ls_compute_pipeline_release(s->pl);
  ls_shader_module_release(s->m);
  if (s->bu) ls_buffer_release(s->bu);
  ls_buffer_release(s->bs);
  if (s->view) ls_texture_view_release(s->view);
  if (s->tex) ls_texture_release(s->tex);
  if (s->smp) ls_sampler_release(s->smp);
  ls_profiler_destroy(s->p);
  ls_device_release(s->d);
  ls_adapter_release(s->a);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3000001;
  int reps = argc > 2 ? atoi(argv[2]) : 15;
  unsigned only = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
  const char *kname = argc > 4 ? argv[4] : "guard";
  const int kernel = !strcmp(kname, "loop") ? K_LOOP : !strcmp(kname, "sample") ? K_SAMPLE : K_GUARD;
  if (reps < 1) reps = 1;
  static const char *const knames[] = {"guard", "grid-stride loop", "sampling (512x512)"};
  printf("bench_prof: %s kernel, n = %u, %d alternating pairs of dispatches\n", knames[kernel],
         kernel == K_SAMPLE ? TEX * TEX : n, reps);
  printf("%4s %7s %10s %12s %7s   %s\n", "W", "threads", "plain ms", "profiled ms", "ratio",
         "pairwise ratios: quartiles [extremes]");
  static const unsigned widths[] = {8, 32, 64};
  static const unsigned threads[] = {1, 4};
  double *tp = malloc(sizeof *tp * (size_t)reps), *tq = malloc(sizeof *tq * (size_t)reps);
  double *rt = malloc(sizeof *rt * (size_t)reps);
  if (!tp || !tq || !rt) return 1;
  for (size_t w = 0; w < 3; w++) {
    if (only && widths[w] != only) continue;
    for (size_t k = 0; k < 2; k++) {
      setup plain, prof;
      setup_create(&plain, n, widths[w], threads[k], 0, kernel);
      setup_create(&prof, n, widths[w], threads[k], 1, kernel);
      setup_dispatch(&plain); /* warm: first touch of the buffers, the pools */
      setup_dispatch(&prof);
      for (int r = 0; r < reps; r++) {
        tp[r] = setup_dispatch(&plain);
        tq[r] = setup_dispatch(&prof);
        rt[r] = tq[r] / tp[r];
      }
      if (ls_profiler_dispatch_count(prof.p) != (size_t)reps + 1) {
        fprintf(stderr, "bench_prof: the profiler saw %zu dispatches, not %d\n",
                ls_profiler_dispatch_count(prof.p), reps + 1);
        return 1;
      }
      double mp = bench_median(tp, reps), mq = bench_median(tq, reps);
      bench_median(rt, reps); /* sorts */
      printf("%4u %7u %10.2f %12.2f %6.2fx   %.2f %.2f %.2f [%.2f %.2f]\n", widths[w],
             threads[k], mp * 1e3, mq * 1e3, mq / mp, rt[reps / 4], rt[reps / 2],
             rt[(3 * reps) / 4], rt[0], rt[reps - 1]);
      fflush(stdout);
      setup_destroy(&prof);
      setup_destroy(&plain);
    }
  }
  free(tp);
  free(tq);
  free(rt);
  return 0;
}
