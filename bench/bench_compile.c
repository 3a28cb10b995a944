/*
 * bench_compile.c — times lockstep's compiler: lex + parse + resolve
 * (wgsl_module_compile) + pipeline creation (lower_pipeline) of (a) a
 * typical compute shader of about 200 lines and (b) generated modules of
 * 1,000 to 20,000 lines, printing the front end's and lowering's
 * milliseconds and milliseconds per 1,000 lines, so that growth with size
 * can be read off directly; the bytecode verifier's milliseconds beside
 * them; and (c) entry points with 10,000 to 1,000,000 distinct constants,
 * whose lowering must stay linear (the constant pool's hash index).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/lower.h"
#include "wgsl/wgsl.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct buf {
  char *p;
  size_t n, cap;
  int lines;
} buf;

static void put(buf *b, const char *s) {
  size_t k = strlen(s);
  if (b->n + k + 1 > b->cap) {
    b->cap = (b->n + k + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) exit(1);
  }
  memcpy(b->p + b->n, s, k + 1);
  b->n += k;
  for (size_t i = 0; i < k; i++) b->lines += s[i] == '\n';
}

/* A module of about `lines` lines: helper functions with arithmetic,
 * loops and branches, called from one compute entry point. */
static buf generate(int lines) {
  buf b = {0};
  char tmp[512];
  put(&b, "struct Params { n: u32, scale: f32, bias: vec4<f32> };\n"
          "@group(0) @binding(0) var<uniform> params: Params;\n"
          "@group(0) @binding(1) var<storage, read> src: array<f32>;\n"
          "@group(0) @binding(2) var<storage, read_write> dst: array<f32>;\n"
          "var<workgroup> tile: array<f32, 256>;\n"
          "const K: u32 = 8u;\n");
  int fns = 0;
  while (b.lines < lines - 20) {
    snprintf(tmp, sizeof tmp,
             "fn helper%d(x: f32, i: u32) -> f32 {\n"
             "  var acc = x * params.scale + %d.0;\n"
             "  for (var k = 0u; k < K; k++) {\n"
             "    let j = (i + k * %du) %% params.n;\n"
             "    if (src[j] > acc) {\n"
             "      acc = max(acc, src[j] * 0.5);\n"
             "    } else {\n"
             "      acc = min(acc + 1.0, clamp(src[j], -1.0, 1.0));\n"
             "    }\n"
             "  }\n"
             "  return acc + params.bias.x;\n"
             "}\n",
             fns, fns % 97, fns % 13 + 1);
    put(&b, tmp);
    fns++;
  }
  put(&b, "@compute @workgroup_size(64)\n"
          "fn main(@builtin(global_invocation_id) gid: vec3<u32>,\n"
          "        @builtin(local_invocation_index) li: u32) {\n"
          "  let i = gid.x;\n"
          "  var v = src[i % arrayLength(&src)];\n");
  int calls = fns < 64 ? fns : 64; /* the entry point calls a subset */
  for (int k = 0; k < calls; k++) {
    snprintf(tmp, sizeof tmp, "  v = helper%d(v, i);\n", k * (fns / calls));
    put(&b, tmp);
  }
  put(&b, "  tile[li] = v;\n  workgroupBarrier();\n"
          "  if (i < arrayLength(&dst)) { dst[i] = tile[(li + 1u) % 64u]; }\n}\n");
  return b;
}

/* A module whose entry point uses n distinct constants, one statement
 * each: the constant pool's growth (lw_const in ir/emit.c). */
static buf generate_constants(int n) {
  buf b = {0};
  char tmp[64];
  put(&b, "@group(0) @binding(0) var<storage, read_write> dst: array<u32>;\n"
          "@compute @workgroup_size(64)\n"
          "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
          "  var v = gid.x;\n");
  for (int i = 0; i < n; i++) {
    snprintf(tmp, sizeof tmp, "  v ^= %uu;\n", 0x10000u + (unsigned)i * 7u);
    put(&b, tmp);
  }
  put(&b, "  dst[gid.x] = v;\n}\n");
  return b;
}

/* Best of reps: front end (lex, parse, resolve), pipeline creation
 * (lowering) and the bytecode verifier (ir_verify, which pipeline creation
 * runs when asked), each in milliseconds. */
static void time_one(const buf *b, int reps, double *front, double *lower, double *verify) {
  ls_limits limits;
  ls_limits_default(&limits);
  *front = *lower = *verify = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    wgsl_module *m = wgsl_module_compile(b->p, b->n, "bench.wgsl");
    double t1 = now_ms();
    if (!m || !wgsl_module_ok(m)) {
      fprintf(stderr, "bench_compile: the generated module does not compile: %s\n",
              m && wgsl_module_diags(m)->count ? wgsl_module_diags(m)->items[0].message : "?");
      exit(1);
    }
    diag_list d;
    diag_init(&d);
    ir_program *p = lower_pipeline(m, "main", NULL, 0, &limits, &d);
    double t2 = now_ms();
    if (!p) {
      fprintf(stderr, "bench_compile: lowering failed: %s\n", d.count ? d.items[0].message : "?");
      exit(1);
    }
    char err[256];
    if (!ir_verify(p, err, sizeof err)) {
      fprintf(stderr, "bench_compile: the verifier rejects the program: %s\n", err);
      exit(1);
    }
    double t3 = now_ms();
    ir_program_free(p);
    diag_free(&d);
    wgsl_module_free(m);
    if (t1 - t0 < *front) *front = t1 - t0;
    if (t2 - t1 < *lower) *lower = t2 - t1;
    if (t3 - t2 < *verify) *verify = t3 - t2;
  }
}

int main(void) {
  static const int sizes[] = {200, 1000, 2000, 5000, 10000, 20000};
  printf("%-10s %8s %10s %10s %10s %10s %14s\n", "module", "lines", "front ms", "lower ms",
         "verify ms", "total ms", "ms/1000 lines");
  for (int i = 0; i < 6; i++) {
    buf b = generate(sizes[i]);
    double front, lower, verify;
    time_one(&b, sizes[i] <= 1000 ? 20 : 7, &front, &lower, &verify);
    printf("%-10s %8d %10.3f %10.3f %10.3f %10.3f %14.3f\n", i == 0 ? "typical" : "generated",
           b.lines, front, lower, verify, front + lower, (front + lower) * 1000.0 / b.lines);
    free(b.p);
  }
  /* distinct constants: lowering stays linear (a hash index on the pool) */
  static const int counts[] = {10000, 100000, 1000000};
  printf("\n%-10s %8s %10s %10s %10s %14s\n", "constants", "count", "front ms", "lower ms",
         "verify ms", "lower us/const");
  for (int i = 0; i < 3; i++) {
    buf b = generate_constants(counts[i]);
    double front, lower, verify;
    time_one(&b, counts[i] <= 100000 ? 3 : 1, &front, &lower, &verify);
    printf("%-10s %8d %10.3f %10.3f %10.3f %14.3f\n", "distinct", counts[i], front, lower, verify,
           lower * 1000.0 / counts[i]);
    free(b.p);
  }
  return 0;
}
