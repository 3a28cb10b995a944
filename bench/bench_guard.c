/*
 * bench_guard.c — the seed lesson's guarded kernel (datos[i] *= 0.99 behind
 * `if (gid.x >= params.conteo) { return; }`) on 3,000,001 floats: lockstep's
 * time per dispatch through the public API, next to a native C loop doing
 * the same work in the same process. Figures are ratios to that baseline
 * (the machine is noisy; absolute times are printed for reference only).
 *
 *   bench_guard [n] [repetitions]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "lockstep.h"

/* The native baseline, kept out of line so the compiler cannot fold it
 * into the timing loop. */
__attribute__((noinline)) static void native(float *d, unsigned n, unsigned conteo) {
  for (unsigned i = 0; i < n; i++) {
    if (i >= conteo) continue;
    d[i] = d[i] * 0.99f;
  }
}

/* Median seconds per dispatch for one adapter configuration. */
static double run_lockstep(unsigned n, int reps, unsigned width, unsigned threads, float *check) {
  ls_adapter_options ao = {.struct_size = sizeof ao, .subgroup_size = width, .threads = threads};
  char err[256];
  ls_adapter *ad = ls_adapter_create(&ao, err, sizeof err);
  if (!ad) {
    fprintf(stderr, "bench_guard: %s\n", err);
    exit(1);
  }
  ls_status st;
  ls_device *dev = ls_adapter_create_device(ad, NULL, &st, err, sizeof err);
  if (!dev) {
    fprintf(stderr, "bench_guard: %s\n", err);
    exit(1);
  }
  ls_device_set_error_callback(dev, bench_fail, "bench_guard");
  ls_buffer_desc pd = {.size = 16, .usage = LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST};
  ls_buffer_desc dd = {.size = (uint64_t)n * 4,
                       .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST |
                                LS_BUFFER_USAGE_COPY_SRC};
  ls_buffer *params = ls_device_create_buffer(dev, &pd);
  ls_buffer *datos = ls_device_create_buffer(dev, &dd);
  uint32_t conteo[4] = {n, 0, 0, 0};
  ls_queue_write_buffer(dev, params, 0, conteo, sizeof conteo);
  float *init = malloc((size_t)n * 4);
  for (unsigned i = 0; i < n; i++) init[i] = (float)(i % 1000);
  ls_queue_write_buffer(dev, datos, 0, init, (size_t)n * 4);
  ls_shader_module_desc sd = {.code = bench_guard_kernel, .label = "guard.wgsl"};
  ls_shader_module *mod = ls_device_create_shader_module(dev, &sd);
  ls_compute_pipeline_desc cd = {.module = mod, .entry_point = "main"};
  ls_compute_pipeline *pipe = ls_device_create_compute_pipeline(dev, &cd);
  ls_bind_group_layout *bgl = ls_compute_pipeline_get_bind_group_layout(pipe, 0);
  ls_bind_group_entry e[2] = {{0, params, 0, LS_WHOLE_SIZE}, {1, datos, 0, LS_WHOLE_SIZE}};
  ls_bind_group *bg = ls_device_create_bind_group(dev, &(ls_bind_group_desc){.layout = bgl, .entries = e, .entry_count = 2});
  uint32_t groups = (n + 63) / 64;
  double *t = malloc(sizeof *t * (size_t)reps);
  for (int r = -1; r < reps; r++) { /* one warm-up run */
    double t0 = bench_now();
    ls_command_encoder *enc = ls_device_create_command_encoder(dev, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, pipe);
    ls_compute_pass_set_bind_group(pass, 0, bg, NULL, 0);
    ls_compute_pass_dispatch_workgroups(pass, groups, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    ls_queue_submit(dev, &cb, 1);
    ls_command_buffer_release(cb);
    double t1 = bench_now();
    if (r >= 0) t[r] = t1 - t0;
  }
  if (check) ls_queue_read_buffer(dev, datos, 0, check, (size_t)n * 4);
  double m = bench_median(t, reps);
  free(t);
  free(init);
  ls_bind_group_release(bg);
  ls_bind_group_layout_release(bgl);
  ls_compute_pipeline_release(pipe);
  ls_shader_module_release(mod);
  ls_buffer_release(params);
  ls_buffer_release(datos);
  ls_device_release(dev);
  ls_adapter_release(ad);
  return m;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3000001u;
  int reps = argc > 2 ? atoi(argv[2]) : 15;
  if (reps < 1) reps = 1;
  float *d = malloc((size_t)n * 4), *want = malloc((size_t)n * 4), *got = malloc((size_t)n * 4);
  for (unsigned i = 0; i < n; i++) d[i] = (float)(i % 1000);
  double *t = malloc(sizeof *t * (size_t)reps);
  for (int r = -1; r < reps; r++) {
    double t0 = bench_now();
    native(d, n, n);
    double t1 = bench_now();
    if (r >= 0) t[r] = t1 - t0;
  }
  double base = bench_median(t, reps);
  free(t);
  /* the same arithmetic once, to check lockstep's output */
  for (unsigned i = 0; i < n; i++) want[i] = (float)(i % 1000) * 0.99f;

  printf("guarded seed kernel, n = %u (%u workgroups of 64), median of %d runs\n", n,
         (n + 63) / 64, reps);
  printf("native C loop (1 thread): %.3f ms per pass\n\n", base * 1e3);
  printf("%-10s %-8s %12s %16s\n", "W", "threads", "ms/dispatch", "x native C");
  const unsigned widths[] = {8, 32, 64};
  int bad = 0;
  for (unsigned th = 1; th <= 2; th++) {
    for (int w = 0; w < 3; w++) {
      double m = run_lockstep(n, reps, widths[w], th, got);
      /* after reps + 1 dispatches each word was multiplied reps + 1 times;
       * compare the first dispatch's arithmetic by recomputing */
      float x;
      int ok = 1;
      for (unsigned i = 0; i < n && ok; i += 997) {
        x = (float)(i % 1000);
        for (int k = 0; k <= reps; k++) x = x * 0.99f;
        if (memcmp(&x, &got[i], 4)) ok = 0;
      }
      if (!ok) bad = 1;
      printf("%-10u %-8u %12.3f %16.2f%s\n", widths[w], th, m * 1e3, m / base,
             ok ? "" : "  (WRONG RESULT)");
    }
  }
  free(d);
  free(want);
  free(got);
  return bad;
}
