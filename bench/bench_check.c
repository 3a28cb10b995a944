/*
 * bench_check.c — what the sanitizer costs: the same dispatch run unchecked
 * and under ls_device_enable_checks, on the seed lesson's guarded kernel
 * (3,000,001 floats) and on a workgroup-memory tree reduction (64 floats per
 * workgroup, a barrier per step). Prints the median time of each and the
 * ratio checked / unchecked (the target is 3x or less).
 *
 *   bench_check [repetitions] [threads] [kernel]
 *
 * kernel: "guard" or "reduce" runs only that one (shorter, so that old and
 * new builds can be interleaved more finely on a noisy machine). With
 * BENCH_TIMES set, every repetition's time goes to stderr as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "lockstep.h"

static const char *reduce_src =
    "var<workgroup> part: array<f32, 64>;\n"
    "@group(0) @binding(0) var<uniform> params: vec4u;\n"
    "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> sumas: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) gid: vec3u,\n"
    "        @builtin(workgroup_id) wid: vec3u) {\n"
    "  part[li] = select(0.0, datos[gid.x], gid.x < params.x);\n"
    "  workgroupBarrier();\n"
    "  for (var s = 32u; s > 0u; s = s / 2u) {\n"
    "    if (li < s) { part[li] = part[li] + part[li + s]; }\n"
    "    workgroupBarrier();\n"
    "  }\n"
    "  if (li == 0u) { sumas[wid.x] = part[0]; }\n"
    "}\n";

/* Median seconds per dispatch of src over n floats, checked or not. */
static double run(const char *src, unsigned n, int reps, unsigned threads, int checked,
                  size_t *findings) {
  ls_adapter_options ao;
  memset(&ao, 0, sizeof ao);
  ao.struct_size = sizeof ao;
  ao.threads = threads;
  ls_adapter *a = ls_adapter_create(&ao, NULL, 0);
  ls_device *d = a ? ls_adapter_create_device(a, NULL, NULL, NULL, 0) : NULL;
  if (!d) {
    fprintf(stderr, "bench_check: no device\n");
    exit(1);
  }
  ls_device_set_error_callback(d, bench_fail, "bench_check");
  if (checked) {
    ls_check_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.checks = (uint32_t)checked; /* LS_CHECK_* bits */
    ls_device_enable_checks(d, 1, &o);
  }
  unsigned groups = (n + 63) / 64;
  uint32_t params[4] = {n, 0, 0, 0};
  ls_buffer_desc pb = {.size = 16, .usage = LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST, .label = "params"};
  ls_buffer_desc db = {.size = (uint64_t)n * 4, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST, .label = "datos"};
  ls_buffer_desc sb = {.size = (uint64_t)groups * 4, .usage = LS_BUFFER_USAGE_STORAGE, .label = "sumas"};
  ls_buffer *bp = ls_device_create_buffer(d, &pb), *bd = ls_device_create_buffer(d, &db);
  ls_buffer *bs = ls_device_create_buffer(d, &sb);
  ls_queue_write_buffer(d, bp, 0, params, sizeof params);
  ls_shader_module_desc md = {.code = src, .label = "bench.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &md);
  ls_compute_pipeline_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.module = m;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &cd);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  ls_bind_group_entry e[3] = {{0, bp, 0, LS_WHOLE_SIZE}, {1, bd, 0, LS_WHOLE_SIZE},
                              {2, bs, 0, LS_WHOLE_SIZE}};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = e, .entry_count = src == bench_guard_kernel ? 2 : 3});
  double *t = calloc((size_t)reps, sizeof *t);
  for (int r = 0; r < reps; r++) {
    ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
    ls_compute_pass_dispatch_workgroups(pass, groups, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    double t0 = bench_now();
    ls_queue_submit(d, &cb, 1);
    t[r] = bench_now() - t0;
    ls_command_buffer_release(cb);
  }
  *findings = ls_device_check_finding_count(d);
  if (getenv("BENCH_TIMES")) {
    for (int r = 0; r < reps; r++) fprintf(stderr, " %.2f", t[r] * 1e3);
    fprintf(stderr, "  (%s)\n", checked ? "checked" : "unchecked");
  }
  double med = bench_median(t, reps);
  free(t);
  ls_bind_group_release(g);
  ls_bind_group_layout_release(l);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
  ls_buffer_release(bp);
  ls_buffer_release(bd);
  ls_buffer_release(bs);
  ls_device_release(d);
  ls_adapter_release(a);
  return med;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 7;
  unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
  if (reps < 1) reps = 1;
  const struct {
    const char *key, *name, *src;
    unsigned n;
  } k[2] = {{"guard", "guard (3,000,001 floats)", bench_guard_kernel, 3000001},
            {"reduce", "workgroup reduction (1,048,576 floats)", reduce_src, 1048576}};
  printf("%-40s %11s %11s %7s %11s %7s\n", "kernel", "unchecked", "all checks", "ratio",
         "no races", "ratio");
  const char *only = argc > 3 ? argv[3] : NULL;
  for (int i = 0; i < 2; i++) {
    if (only && strcmp(k[i].key, only) != 0) continue;
    size_t f0, f1, f2;
    double u = run(k[i].src, k[i].n, reps, threads, 0, &f0);
    double c = run(k[i].src, k[i].n, reps, threads, LS_CHECK_ALL, &f1);
    double b = run(k[i].src, k[i].n, reps, threads, LS_CHECK_ALL & ~LS_CHECK_RACES, &f2);
    printf("%-40s %8.2f ms %8.2f ms %6.1fx %8.2f ms %6.1fx\n", k[i].name, u * 1e3, c * 1e3,
           c / u, b * 1e3, b / u);
    if (f1 || f2) printf("  (unexpected findings: %zu, %zu)\n", f1, f2);
  }
  return 0;
}
