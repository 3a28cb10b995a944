/*
 * bench_threads.c — thread scaling: the seed kernel (lesson 000's guarded
 * kernel, over a 2D dispatch) on 67,108,864 floats and a naive 1024x1024 f32 matmul (16x16
 * workgroups) through the public API at W = 32, with 1 to N worker
 * threads. Per thread count: the median wall time of K dispatches, the
 * speed-up over one thread, and a check that every run's output is the
 * one-thread run's, word for word. Beside the seed kernel, the same work
 * as a C loop (datos[i] *= 0.99 over contiguous slices, one per thread):
 * where that stops scaling is the machine's memory bandwidth, which no
 * interpreter can pass.
 *
 *   bench_threads [seed|matmul|both] [max_threads] [repetitions] [W] [rounds]
 *
 * With rounds, no sweep: one thread and max_threads alternate, rounds
 * times (a fresh device each run), and each round's speed-up is its own
 * pair's ratio, so a machine that gets faster or slower during the run (a
 * neighbour, the clock) moves both halves of a pair alike; the median and
 * the spread of the rounds' speed-ups are printed.
 */
#include <pthread.h>
#include <string.h>

#include "bench_util.h"

static const char *const mm_kernel =
    "const N = 1024u;\n"
    "@group(0) @binding(0) var<storage, read> a: array<f32>;\n"
    "@group(0) @binding(1) var<storage, read> b: array<f32>;\n"
    "@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n"
    "@compute @workgroup_size(16, 16)\n"
    "fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  var sum = 0.0;\n"
    "  for (var k = 0u; k < N; k++) { sum += a[g.y * N + k] * b[k * N + g.x]; }\n"
    "  c[g.y * N + g.x] = sum;\n"
    "}\n";

/* The seed kernel as lesson 000 writes it past 65,535 workgroups: a 2D
 * dispatch of 4096 x 256 groups, flattened in the shader. */
static const char *const seed2d_kernel =
    "struct Params { conteo: u32 };\n"
    "@group(0) @binding(0) var<uniform> params: Params;\n"
    "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
    "  let i = gid.y * (4096u * 64u) + gid.x;\n"
    "  if (i >= params.conteo) { return; }\n"
    "  datos[i] = datos[i] * 0.99;\n"
    "}\n";

#define SEED_N (64u << 20)
#define MM 1024u

typedef struct {
  const char *name, *code;
  int nbuf, out;
  uint64_t size[3];
  uint32_t gx, gy;
} job;

static const job jobs[] = {
    {"seed 67M", NULL, 2, 1, {16, (uint64_t)SEED_N * 4}, 4096, SEED_N / 64 / 4096},
    {"matmul 1024", NULL, 3, 2, {MM * MM * 4, MM * MM * 4, MM * MM * 4}, MM / 16, MM / 16},
};

static void fill(const job *j, int k, void *p) {
  uint32_t *w = p, s = 1u + (uint32_t)k;
  const uint64_t n = j->size[k] / 4;
  for (uint64_t i = 0; i < n; i++) {
    if (j->nbuf == 2) {
      w[i] = k == 0 ? (i == 0 ? SEED_N : 0) : 0;
      if (k == 1) ((float *)p)[i] = (float)(i % 1000);
    } else if (k < 2) {
      s = s * 1664525u + 1013904223u;
      ((float *)p)[i] = (float)(s >> 8) * (1.0f / 16777216.0f);
    } else {
      w[i] = 0;
    }
  }
}

/* The seed kernel's work in C: one contiguous slice per thread. */
typedef struct {
  float *d;
  uint64_t lo, hi;
} slice;

static void *native_slice(void *arg) {
  const slice *sl = arg;
  float *d = sl->d;
  for (uint64_t i = sl->lo; i < sl->hi; i++) d[i] = d[i] * 0.99f;
  return NULL;
}

/* Median seconds of the seed work over `threads` threads, starting from
 * init each time (as the dispatches do); the result left in out. */
static double native_seed(unsigned threads, int reps, const float *init, float *out) {
  double t[64];
  pthread_t tid[256];
  slice sl[256];
  for (int r = -1; r < reps; r++) {
    memcpy(out, init, (size_t)SEED_N * 4);
    const double t0 = bench_now();
    for (unsigned k = 0; k < threads; k++) {
      sl[k] = (slice){out, (uint64_t)SEED_N * k / threads, (uint64_t)SEED_N * (k + 1) / threads};
      if (k && pthread_create(&tid[k], NULL, native_slice, &sl[k]) != 0) {
        fprintf(stderr, "bench_threads: cannot start a thread\n");
        exit(1);
      }
    }
    native_slice(&sl[0]);
    for (unsigned k = 1; k < threads; k++) pthread_join(tid[k], NULL);
    if (r >= 0) t[r] = bench_now() - t0;
  }
  return bench_median(t, reps);
}

/* Median seconds per dispatch; the output read back into out. */
static double run(const job *j, unsigned threads, unsigned width, int reps, void *const *init,
                  void *out) {
  ls_adapter_options ao = {.struct_size = sizeof ao, .subgroup_size = width, .threads = threads};
  char err[256];
  ls_status st;
  ls_adapter *ad = ls_adapter_create(&ao, err, sizeof err);
  /* 67M floats are 256 MiB, over WebGPU's default binding size */
  const ls_required_limit lim[2] = {{"maxStorageBufferBindingSize", (uint64_t)SEED_N * 4},
                                    {"maxBufferSize", (uint64_t)SEED_N * 4}};
  ls_device_desc dd = {.struct_size = sizeof dd, .required_limits = lim, .required_limit_count = 2};
  ls_device *dev = ad ? ls_adapter_create_device(ad, &dd, &st, err, sizeof err) : NULL;
  if (!dev) {
    fprintf(stderr, "bench_threads: %s\n", err);
    exit(1);
  }
  ls_device_set_error_callback(dev, bench_fail, "bench_threads");
  ls_buffer *buf[3];
  ls_bind_group_entry e[3];
  memset(e, 0, sizeof e);
  for (int k = 0; k < j->nbuf; k++) {
    const int uni = j->nbuf == 2 && k == 0;
    ls_buffer_desc bd = {.size = j->size[k],
                         .usage = (uni ? LS_BUFFER_USAGE_UNIFORM : LS_BUFFER_USAGE_STORAGE) |
                                  LS_BUFFER_USAGE_COPY_DST | LS_BUFFER_USAGE_COPY_SRC};
    buf[k] = ls_device_create_buffer(dev, &bd);
    ls_queue_write_buffer(dev, buf[k], 0, init[k], j->size[k]);
    e[k] = (ls_bind_group_entry){.binding = (uint32_t)k, .buffer = buf[k], .size = LS_WHOLE_SIZE};
  }
  ls_shader_module_desc sd = {.code = j->nbuf == 2 ? seed2d_kernel : mm_kernel,
                              .label = j->name};
  ls_shader_module *mod = ls_device_create_shader_module(dev, &sd);
  ls_compute_pipeline_desc cd = {.module = mod, .entry_point = "main"};
  ls_compute_pipeline *pipe = ls_device_create_compute_pipeline(dev, &cd);
  ls_bind_group_layout *bgl = ls_compute_pipeline_get_bind_group_layout(pipe, 0);
  ls_bind_group *bg = ls_device_create_bind_group(
      dev, &(ls_bind_group_desc){.layout = bgl, .entries = e, .entry_count = (size_t)j->nbuf});
  double t[64];
  for (int r = -1; r < reps; r++) {
    /* the seed kernel works in place: every dispatch starts from the same data */
    if (j->nbuf == 2) ls_queue_write_buffer(dev, buf[1], 0, init[1], j->size[1]);
    ls_queue_wait_idle(dev);
    const double t0 = bench_now();
    ls_command_encoder *enc = ls_device_create_command_encoder(dev, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, pipe);
    ls_compute_pass_set_bind_group(pass, 0, bg, NULL, 0);
    ls_compute_pass_dispatch_workgroups(pass, j->gx, j->gy, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    ls_queue_submit(dev, &cb, 1);
    ls_command_buffer_release(cb);
    if (r >= 0) t[r] = bench_now() - t0;
  }
  ls_queue_read_buffer(dev, buf[j->out], 0, out, j->size[j->out]);
  ls_bind_group_release(bg);
  ls_bind_group_layout_release(bgl);
  ls_compute_pipeline_release(pipe);
  ls_shader_module_release(mod);
  for (int k = 0; k < j->nbuf; k++) ls_buffer_release(buf[k]);
  ls_device_release(dev);
  ls_adapter_release(ad);
  return bench_median(t, reps);
}

/* Rounds of (one thread, n threads), alternating; returns 1 when an output
 * differs from the first one-thread run's. */
static int pairs(const job *j, unsigned n, unsigned width, int reps, int rounds, void *const *init,
                 void *ref, void *got) {
  double sp[64];
  int bad = 0;
  printf("%-6s %12s %12s %10s %10s\n", "round", "1 thread ms", "n threads ms", "speed-up", "output");
  for (int r = 0; r < rounds; r++) {
    const double t1 = run(j, 1, width, reps, init, r == 0 ? ref : got);
    const int same1 = r == 0 || !memcmp(ref, got, j->size[j->out]);
    const double tn = run(j, n, width, reps, init, got);
    const int same = same1 && !memcmp(ref, got, j->size[j->out]);
    bad |= !same;
    sp[r] = t1 / tn;
    printf("%-6d %12.2f %12.2f %10.2f %10s\n", r + 1, t1 * 1e3, tn * 1e3, sp[r], same ? "same" : "DIFFERS");
    fflush(stdout);
  }
  double lo = sp[0], hi = sp[0];
  for (int r = 1; r < rounds; r++) {
    lo = sp[r] < lo ? sp[r] : lo;
    hi = sp[r] > hi ? sp[r] : hi;
  }
  printf("speed-up at %u threads: median %.2f, range %.2f to %.2f over %d rounds\n", n,
         bench_median(sp, rounds), lo, hi, rounds);
  return bad;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "both";
  const unsigned maxt = argc > 2 ? (unsigned)atoi(argv[2]) : 16;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  const unsigned width = argc > 4 ? (unsigned)atoi(argv[4]) : 32;
  const int rounds = argc > 5 ? atoi(argv[5]) : 0;
  if (reps < 1 || reps > 64 || maxt < 1 || maxt > 256 || rounds < 0 || rounds > 64) {
    fprintf(stderr, "usage: bench_threads [seed|matmul|both] [max_threads] [repetitions 1-64] [W] "
                    "[rounds 1-64]\n");
    return 2;
  }
  printf("interpreter: %s, W = %u, median of %d dispatches\n", ls_isa(), width, reps);
  int bad = 0;
  for (int jn = 0; jn < 2; jn++) {
    const job *j = &jobs[jn];
    if (strcmp(which, "both") && strncmp(j->name, which, strlen(which))) continue;
    void *init[3];
    for (int k = 0; k < j->nbuf; k++) {
      init[k] = malloc(j->size[k]);
      fill(j, k, init[k]);
    }
    void *ref = malloc(j->size[j->out]), *got = malloc(j->size[j->out]);
    const int native = j->nbuf == 2;
    float *nat = native ? malloc(j->size[1]) : NULL;
    double t1 = 0, n1 = 0;
    if (rounds) {
      printf("\n%s, 1 thread and %u alternating\n", j->name, maxt);
      bad |= pairs(j, maxt, width, reps, rounds, init, ref, got);
    } else {
      printf("\n%s\n%-8s %12s %10s %10s", j->name, "threads", "ms", "speed-up", "output");
      if (native) printf(" %12s %10s %10s", "C loop ms", "speed-up", "output");
      printf("\n");
    }
    for (unsigned th = 1; !rounds && th <= maxt; th = th < 2 ? 2 : th < 16 ? th + 2 : th * 2) {
      const double t = run(j, th, width, reps, init, th == 1 ? ref : got);
      if (th == 1) t1 = t;
      const int same = th == 1 || !memcmp(ref, got, j->size[j->out]);
      if (!same) bad = 1;
      printf("%-8u %12.2f %10.2f %10s", th, t * 1e3, t1 / t, same ? "same" : "DIFFERS");
      if (native) {
        const double n = native_seed(th, reps, init[1], nat);
        if (th == 1) n1 = n;
        /* the interpreter's f32 multiply is the C one: the same words */
        const int nsame = !memcmp(nat, ref, j->size[1]);
        if (!nsame) bad = 1;
        printf(" %12.2f %10.2f %10s", n * 1e3, n1 / n, nsame ? "same" : "DIFFERS");
      }
      printf("\n");
      fflush(stdout);
    }
    for (int k = 0; k < j->nbuf; k++) free(init[k]);
    free(nat);
    free(ref);
    free(got);
  }
  return bad;
}
