/*
 * bench_prof.c — what the SIMT profiler costs: the seed guard kernel
 * (datos[i] *= 0.99 behind `if (gid.x >= params.conteo) { return; }`) on
 * 3,000,001 floats, timed plain and with ls_profiler_attach on the same
 * device configuration, at several widths and thread counts. The figure is
 * the ratio profiled / plain (target: within 2x); absolute times are
 * printed for reference.
 *
 *   bench_prof [n] [repetitions]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "lockstep.h"

/* Median seconds per dispatch, profiled or not. */
static double run(unsigned n, int reps, unsigned width, unsigned threads, int profiled) {
  ls_adapter_options ao = {sizeof ao, NULL, width, threads, 0};
  char err[256];
  ls_adapter *a = ls_adapter_create(&ao, err, sizeof err);
  ls_status st;
  ls_device *d = a ? ls_adapter_create_device(a, NULL, &st, err, sizeof err) : NULL;
  if (!d) {
    fprintf(stderr, "bench_prof: %s\n", err);
    exit(1);
  }
  ls_device_set_error_callback(d, bench_fail, "bench_prof");
  ls_profiler *p = NULL;
  if (profiled && !(p = ls_profiler_attach(d, NULL, err, sizeof err))) {
    fprintf(stderr, "bench_prof: %s\n", err);
    exit(1);
  }
  unsigned groups = (n + 63) / 64;
  uint64_t words = (uint64_t)groups * 64;
  ls_buffer_desc ub = {16, LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST, "params"};
  ls_buffer_desc sb = {words * 4, LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST, "datos"};
  ls_buffer *bu = ls_device_create_buffer(d, &ub), *bs = ls_device_create_buffer(d, &sb);
  uint32_t params[4] = {n, 0, 0, 0};
  ls_queue_write_buffer(d, bu, 0, params, 16);
  ls_shader_module_desc md = {bench_guard_kernel, "guard.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &md);
  ls_compute_pipeline_desc pd = {m, "main", NULL, 0, NULL, NULL};
  ls_compute_pipeline *pl = ls_device_create_compute_pipeline(d, &pd);
  ls_bind_group_layout *bgl = ls_compute_pipeline_get_bind_group_layout(pl, 0);
  ls_bind_group_entry be[2] = {{0, bu, 0, LS_WHOLE_SIZE}, {1, bs, 0, LS_WHOLE_SIZE}};
  ls_bind_group *bg = ls_device_create_bind_group(d, bgl, be, 2);
  double *t = malloc(sizeof *t * (size_t)reps);
  for (int r = 0; r < reps; r++) {
    ls_command_encoder *enc = ls_device_create_command_encoder(d);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc);
    ls_compute_pass_set_pipeline(pass, pl);
    ls_compute_pass_set_bind_group(pass, 0, bg);
    ls_compute_pass_dispatch_workgroups(pass, groups, 1, 1);
    ls_compute_pass_end(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc);
    double t0 = bench_now();
    ls_queue_submit(d, &cb, 1);
    t[r] = bench_now() - t0;
  }
  if (p && ls_profiler_dispatch_count(p) != (size_t)reps) {
    fprintf(stderr, "bench_prof: the profiler saw %zu dispatches, not %d\n",
            ls_profiler_dispatch_count(p), reps);
    exit(1);
  }
  double med = bench_median(t, reps);
  free(t);
  ls_bind_group_destroy(bg);
  ls_bind_group_layout_destroy(bgl);
  ls_compute_pipeline_destroy(pl);
  ls_shader_module_destroy(m);
  ls_buffer_destroy(bu);
  ls_buffer_destroy(bs);
  ls_profiler_destroy(p);
  ls_device_destroy(d);
  ls_adapter_destroy(a);
  return med;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3000001;
  int reps = argc > 2 ? atoi(argv[2]) : 9;
  if (reps < 1) reps = 1;
  printf("bench_prof: guard kernel, n = %u, median of %d dispatches\n", n, reps);
  printf("%4s %7s %12s %12s %8s\n", "W", "threads", "plain ms", "profiled ms", "ratio");
  static const unsigned widths[] = {8, 32, 64};
  static const unsigned threads[] = {1, 4};
  for (size_t w = 0; w < 3; w++)
    for (size_t k = 0; k < 2; k++) {
      double plain = run(n, reps, widths[w], threads[k], 0);
      double prof = run(n, reps, widths[w], threads[k], 1);
      printf("%4u %7u %12.2f %12.2f %7.2fx\n", widths[w], threads[k], plain * 1e3, prof * 1e3,
             prof / plain);
    }
  return 0;
}
