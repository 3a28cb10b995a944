/*
 * bench_sample.c — the cost of sampling: a compute shader that resamples
 * a 512x512 rgba8unorm texture with a linear (bilinear, clamp-to-edge)
 * sampler, one textureSampleLevel per invocation over a 512x512 grid,
 * against the same filter written in plain C over the same texels, in the
 * same run. Prints the median times and their ratio at W = 8, 32 and 64 on
 * one thread, and the largest difference between the two outputs (the
 * baseline must compute what the shader computes).
 *
 *   bench_sample [ROUNDS]     (default 7)
 */
#include <math.h>
#include <string.h>

#include "bench_util.h"

#define N 512

/* The baseline: WebGPU's bilinear filter with clamp-to-edge, in f32. */
static void native(const uint8_t *px, float *out) {
  for (int y = 0; y < N; y++)
    for (int x = 0; x < N; x++) {
      const float u = ((float)x + 0.3f) / 512.0f * N - 0.5f, v = ((float)y + 0.7f) / 512.0f * N - 0.5f;
      const float fu = floorf(u), fv = floorf(v), a = u - fu, b = v - fv;
      int i0 = (int)fu, j0 = (int)fv, i1 = i0 + 1, j1 = j0 + 1;
      i0 = i0 < 0 ? 0 : i0 > N - 1 ? N - 1 : i0;
      i1 = i1 < 0 ? 0 : i1 > N - 1 ? N - 1 : i1;
      j0 = j0 < 0 ? 0 : j0 > N - 1 ? N - 1 : j0;
      j1 = j1 < 0 ? 0 : j1 > N - 1 ? N - 1 : j1;
      float sum = 0.0f;
      for (int ch = 0; ch < 4; ch++) {
        const float t00 = (float)px[(j0 * N + i0) * 4 + ch] / 255.0f;
        const float t10 = (float)px[(j0 * N + i1) * 4 + ch] / 255.0f;
        const float t01 = (float)px[(j1 * N + i0) * 4 + ch] / 255.0f;
        const float t11 = (float)px[(j1 * N + i1) * 4 + ch] / 255.0f;
        sum += (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11;
      }
      out[y * N + x] = sum;
    }
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 7;
  if (rounds < 1 || rounds > 1000) {
    fprintf(stderr, "usage: bench_sample [ROUNDS]\n");
    return 2;
  }
  uint8_t *px = malloc((size_t)N * N * 4);
  float *want = malloc((size_t)N * N * sizeof *want), *got = malloc((size_t)N * N * sizeof *got);
  if (!px || !want || !got) return 1;
  bench_lcg_bytes(px, (size_t)N * N * 4, 12345);
  double tn[1000];
  for (int r = 0; r < rounds; r++) {
    double t0 = bench_now();
    native(px, want);
    tn[r] = bench_now() - t0;
  }
  const double native_s = bench_median(tn, rounds);
  printf("native C bilinear, %dx%d samples: %.2f ms\n", N, N, native_s * 1e3);
  for (unsigned w = 8; w <= 64; w *= 2) {
    if (w == 16) continue;
    ls_adapter_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.subgroup_size = w;
    o.threads = 1;
    char err[256];
    ls_adapter *ad = ls_adapter_create(&o, err, sizeof err);
    ls_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.struct_size = sizeof dd;
    ls_status status;
    ls_device *d = ad ? ls_adapter_create_device(ad, &dd, &status, err, sizeof err) : NULL;
    if (!d) {
      fprintf(stderr, "bench_sample: %s\n", err);
      return 1;
    }
    ls_device_set_error_callback(d, bench_fail, "bench_sample");
    ls_texture *t;
    ls_texture_view *view = bench_rgba8_texture(d, N, px, &t);
    ls_sampler *s = bench_linear_sampler(d);
    ls_buffer_desc bd = {.size = (uint64_t)N * N * 4, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC, .label = "out"};
    ls_buffer *b = ls_device_create_buffer(d, &bd);
    ls_shader_module_desc md = {.code = bench_sample_kernel, .label = "bench_sample.wgsl"};
    ls_shader_module *m = ls_device_create_shader_module(d, &md);
    ls_compute_pipeline_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.module = m;
    ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
    ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
    ls_bind_group_entry be[3];
    memset(be, 0, sizeof be);
    be[0].binding = 0;
    be[0].texture_view = view;
    be[1].binding = 1;
    be[1].sampler = s;
    be[2].binding = 2;
    be[2].buffer = b;
    be[2].size = LS_WHOLE_SIZE;
    ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 3});
    double tv[1000];
    for (int r = 0; r < rounds; r++) {
      ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
      ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
      ls_compute_pass_set_pipeline(pass, p);
      ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
      ls_compute_pass_dispatch_workgroups(pass, N / 8, N / 8, 1);
      ls_compute_pass_end(pass);
      ls_compute_pass_release(pass);
      ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
      ls_command_encoder_release(enc);
      double t0 = bench_now();
      ls_queue_submit(d, &cb, 1);
      tv[r] = bench_now() - t0;
      ls_command_buffer_release(cb);
    }
    ls_queue_read_buffer(d, b, 0, got, (size_t)N * N * 4);
    double maxd = 0;
    for (size_t i = 0; i < (size_t)N * N; i++) maxd = fmax(maxd, fabs((double)got[i] - want[i]));
    const double vm_s = bench_median(tv, rounds);
    printf("W = %2u: %.2f ms, %.1fx native; outputs differ by at most %.2g\n", w, vm_s * 1e3,
           vm_s / native_s, maxd);
    ls_bind_group_release(g);
    ls_bind_group_layout_release(l);
    ls_compute_pipeline_release(p);
    ls_shader_module_release(m);
    ls_buffer_release(b);
    ls_sampler_release(s);
    ls_texture_view_release(view);
    ls_texture_release(t);
    ls_device_release(d);
    ls_adapter_release(ad);
  }
  free(px);
  free(want);
  free(got);
  return 0;
}
