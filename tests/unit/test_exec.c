/*
 * test_exec.c — the compiler and the VM together, below the public API: WGSL
 * source -> resolved module -> bytecode -> dispatch, checked against the same
 * computation written in C. Every shader runs at W = 8, 16, 32 and 64 and on
 * 1 and 2 threads; results of race-free shaders must not depend on either.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit_util.h"

#include "ir/lower.h"
#include "vm/vm.h"
#include "wgsl/wgsl.h"

static const unsigned widths[] = {8, 16, 32, 64};

/* Runs prog over `groups` workgroups for every width and thread count; the
 * buffers are reset from `init` before each run and compared with `want`. */
static void run_all(ir_program *p, uint32_t groups, uint32_t **init, uint32_t **want,
                    const size_t *words, int nbuf) {
  for (unsigned t = 1; t <= 2; t++) {
    vm_pool *pool = vm_pool_create(t);
    assert_non_null(pool);
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
      vm_binding b[4];
      uint32_t *mem[4];
      for (int i = 0; i < nbuf; i++) {
        mem[i] = malloc(words[i] * 4);
        memcpy(mem[i], init[i], words[i] * 4);
        b[i].data = (uint8_t *)mem[i];
        b[i].size = words[i] * 4;
      }
      vm_dispatch_desc desc = {.prog = p, .bindings = b, .groups = {groups, 1, 1},
                               .width = widths[w], .budget = 0};
      vm_result res;
      assert_int_equal(vm_dispatch(pool, &desc, &res), VM_OK);
      for (int i = 0; i < nbuf; i++) {
        if (!want[i]) continue;
        for (size_t k = 0; k < words[i]; k++) {
          if (mem[i][k] != want[i][k]) {
            fprintf(stderr, "W=%u threads=%u buffer %d word %zu: got %u want %u\n", widths[w], t, i,
                    k, mem[i][k], want[i][k]);
            fail();
          }
        }
        free(mem[i]);
      }
      for (int i = 0; i < nbuf; i++)
        if (!want[i]) free(mem[i]);
    }
    vm_pool_destroy(pool);
  }
}

/* ---------------------------------------------------------- control flow */

static const char *control_src =
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "fn collatz(n0: u32) -> u32 {\n"
    "  var n = n0; var steps = 0u;\n"
    "  loop {\n"
    "    if (n <= 1u) { break; }\n"
    "    if (n % 2u == 0u) { n = n / 2u; } else { n = 3u * n + 1u; }\n"
    "    steps++;\n"
    "  }\n"
    "  return steps;\n"
    "}\n"
    "fn classify(x: u32) -> u32 {\n"
    "  switch (x % 4u) {\n"
    "    case 0u: { return 10u; }\n"
    "    case 1u, 2u: { if (x > 20u) { return 21u; } return 12u; }\n"
    "    default: { }\n"
    "  }\n"
    "  return 99u;\n"
    "}\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
    "  let i = gid.x;\n"
    "  if (i >= arrayLength(&out) / 4u) { return; }\n"
    "  out[4u*i] = collatz(i + 1u);\n"
    "  var s = 0u;\n"
    "  for (var k = 0u; k < i % 7u; k++) {\n"
    "    if (k == 3u) { continue; }\n"
    "    s += k;\n"
    "  }\n"
    "  out[4u*i+1u] = s;\n"
    "  out[4u*i+2u] = classify(i);\n"
    "  var w = 0u;\n"
    "  while (w < 100u) { w += i + 1u; if (w > 50u && (i & 1u) == 1u) { break; } }\n"
    "  out[4u*i+3u] = w;\n"
    "}\n";

static uint32_t c_collatz(uint32_t n) {
  uint32_t steps = 0;
  while (n > 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
}

static uint32_t c_classify(uint32_t x) {
  switch (x % 4) {
  case 0: return 10;
  case 1:
  case 2: return x > 20 ? 21 : 12;
  default: return 99;
  }
}

static void test_control_flow(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(control_src, NULL, 0, &m);
  enum { N = 200 };
  size_t words = 4 * N;
  uint32_t *init = calloc(words, 4), *want = calloc(words, 4);
  for (uint32_t i = 0; i < N; i++) {
    want[4 * i] = c_collatz(i + 1);
    uint32_t s = 0;
    for (uint32_t k = 0; k < i % 7; k++)
      if (k != 3) s += k;
    want[4 * i + 1] = s;
    want[4 * i + 2] = c_classify(i);
    uint32_t w = 0;
    while (w < 100) {
      w += i + 1;
      if (w > 50 && (i & 1) == 1) break;
    }
    want[4 * i + 3] = w;
  }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 4, ini, wan, &words, 1); /* 256 invocations, 56 leave at the guard */
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* ------------------------------------------- barriers and workgroup memory */

static const char *reduce_src =
    "override WG: u32 = 64u;\n"
    "var<workgroup> tmp: array<u32, WG>;\n"
    "@group(0) @binding(0) var<storage, read> inp: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> sums: array<u32>;\n"
    "@compute @workgroup_size(WG)\n"
    "fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3u) {\n"
    "  tmp[li] = inp[wid.x * WG + li];\n"
    "  workgroupBarrier();\n"
    "  var stride = WG / 2u;\n"
    "  while (stride > 0u) {\n"
    "    if (li < stride) { tmp[li] += tmp[li + stride]; }\n"
    "    workgroupBarrier();\n"
    "    stride /= 2u;\n"
    "  }\n"
    "  if (li == 0u) { sums[wid.x] = tmp[0]; }\n"
    "}\n";

static void test_workgroup_reduction(void **state) {
  (void)state;
  const uint32_t sizes[] = {64, 128, 256};
  for (int s = 0; s < 3; s++) {
    uint32_t wg = sizes[s];
    ls_constant_entry c = {"WG", wg};
    wgsl_module *m;
    ir_program *p = tu_build(reduce_src, &c, 1, &m);
    assert_int_equal(p->wg_size[0], wg);
    assert_int_equal(p->wg_mem_size, wg * 4);
    enum { G = 5 };
    size_t words[2] = {G * wg, G};
    uint32_t *inp = malloc(words[0] * 4), *sums = calloc(G, 4), *want = calloc(G, 4);
    for (uint32_t i = 0; i < words[0]; i++) {
      inp[i] = i * 2654435761u >> 7;
      want[i / wg] += inp[i];
    }
    uint32_t *ini[2] = {inp, sums}, *wan[2] = {NULL, want};
    run_all(p, G, ini, wan, words, 2);
    free(inp);
    free(sums);
    free(want);
    ir_program_free(p);
    wgsl_module_free(m);
  }
}

/* ------------------------------------------------------------- atomics */

static const char *atomic_src =
    "@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> hist: array<atomic<u32>, 9>;\n"
    "var<workgroup> local_count: atomic<u32>;\n"
    "@compute @workgroup_size(100)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) li: u32) {\n"
    "  atomicAdd(&counter, 1u);\n"
    "  atomicAdd(&hist[gid.x % 8u], gid.x);\n"
    "  atomicAdd(&local_count, 1u);\n"
    "  workgroupBarrier();\n"
    "  if (li == 0u) { atomicMax(&hist[8], atomicLoad(&local_count) * 1000000u); }\n"
    "}\n";

static void test_atomics(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(atomic_src, NULL, 0, &m);
  enum { G = 37 };
  size_t words[2] = {1, 9};
  uint32_t zero1[1] = {0}, zero8[9] = {0};
  uint32_t want1[1] = {G * 100}, want8[9] = {0};
  for (uint32_t i = 0; i < G * 100; i++) want8[i % 8] += i;
  want8[8] = 100u * 1000000u; /* every workgroup counted its 100 invocations */
  uint32_t *ini[2] = {zero1, zero8}, *wan[2] = {want1, want8};
  run_all(p, G, ini, wan, words, 2);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* ------------------------------------------- built-in values, vectors */

static const char *ids_src =
    "struct Rec { lid: vec3<u32>, idx: u32, gid: vec4u };\n"
    "@group(0) @binding(0) var<storage, read_write> recs: array<Rec>;\n"
    "@compute @workgroup_size(4, 4, 4)\n"
    "fn main(@builtin(local_invocation_id) lid: vec3u,\n"
    "        @builtin(local_invocation_index) li: u32,\n"
    "        @builtin(global_invocation_id) gid: vec3u,\n"
    "        @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {\n"
    "  let flat = wid.x * 64u + li;\n"
    "  var r: Rec;\n"
    "  r.lid = lid;\n"
    "  r.idx = li;\n"
    "  r.gid = vec4u(gid.zyx, nwg.x);\n"
    "  recs[flat] = r;\n"
    "}\n";

static void test_builtin_values(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(ids_src, NULL, 0, &m);
  enum { G = 3 };
  /* Rec: vec3 at 0 (align 16), idx at 12, vec4 at 16: 32 bytes = 8 words */
  size_t words = G * 64 * 8;
  uint32_t *init = calloc(words, 4), *want = calloc(words, 4);
  for (uint32_t g = 0; g < G; g++)
    for (uint32_t li = 0; li < 64; li++) {
      uint32_t x = li % 4, y = (li / 4) % 4, z = li / 16;
      uint32_t *r = want + (g * 64 + li) * 8;
      r[0] = x; r[1] = y; r[2] = z; r[3] = li;
      r[4] = z; r[5] = y; r[6] = g * 4 + x; r[7] = G;
    }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, G, ini, wan, &words, 1);
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Built-in values in structure parameters, mixed with plain ones: each
 * member reads its own value whatever its position in the structure; the
 * structure is an ordinary value (passed to a function, stored in a var).
 * The subgroup members are combined so that the result does not depend on
 * W: lane l of subgroup s is local index s*W + l (docs/spec-notes.md), and
 * num_subgroups * subgroup_size = 64 for a workgroup of 64 at every W. */
static const char *entry_struct_src =
    "enable subgroups;\n"
    "struct A {\n"
    "  @builtin(local_invocation_index) li: u32,\n"
    "  @builtin(global_invocation_id) gid: vec3u,\n"
    "  @builtin(local_invocation_id) lid: vec3u,\n"
    "}\n"
    "struct S {\n"
    "  @builtin(subgroup_size) ss: u32, @builtin(subgroup_invocation_id) sid: u32,\n"
    "  @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) ns: u32,\n"
    "}\n"
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "fn flat(a: A) -> u32 { return a.lid.x + 8u * (a.lid.y + 2u * a.lid.z); }\n"
    "@compute @workgroup_size(8, 2, 4)\n"
    "fn main(@builtin(workgroup_id) wid: vec3u, a: A, @builtin(num_workgroups) nwg: vec3u, s: S) {\n"
    "  var c = a;\n"
    "  let o = (wid.x * 64u + a.li) * 8u;\n"
    "  out[o] = a.li;\n"
    "  out[o + 1u] = c.gid.x; out[o + 2u] = c.gid.y; out[o + 3u] = c.gid.z;\n"
    "  out[o + 4u] = flat(c);\n"
    "  out[o + 5u] = s.sg * s.ss + s.sid;\n"
    "  out[o + 6u] = s.ns * s.ss;\n"
    "  out[o + 7u] = nwg.x * 100u + wid.x;\n"
    "}\n";

static void test_entry_struct(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(entry_struct_src, NULL, 0, &m);
  enum { G = 3 };
  size_t words = G * 64 * 8;
  uint32_t *init = calloc(words, 4), *want = calloc(words, 4);
  for (uint32_t g = 0; g < G; g++)
    for (uint32_t li = 0; li < 64; li++) {
      /* §local_invocation_index: x + y*8 + z*16 for workgroup_size(8, 2, 4) */
      const uint32_t x = li % 8, y = (li / 8) % 2, z = li / 16;
      uint32_t *r = want + (g * 64 + li) * 8;
      r[0] = li;
      r[1] = g * 8 + x; r[2] = y; r[3] = z;
      r[4] = x + 8 * (y + 2 * z);
      r[5] = li;
      r[6] = 64;
      r[7] = G * 100 + g;
    }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, G, ini, wan, &words, 1);
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* ------------------------------------------- integer and float rules */

static const char *arith_src =
    "@group(0) @binding(0) var<storage, read_write> io: array<i32>;\n"
    "@group(0) @binding(1) var<storage, read_write> fo: array<f32>;\n"
    "@compute @workgroup_size(8)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  let a = io[li * 2u];\n"
    "  let b = io[li * 2u + 1u];\n"
    "  io[16u + li * 6u] = a / b;\n"
    "  io[16u + li * 6u + 1u] = a % b;\n"
    "  io[16u + li * 6u + 2u] = a + b;\n"
    "  io[16u + li * 6u + 3u] = a << u32(b);\n"
    "  io[16u + li * 6u + 4u] = select(-1, 1, a < b);\n"
    "  io[16u + li * 6u + 5u] = i32(f32(a) * 0.5);\n"
    "  fo[li] = sqrt(max(f32(a), 0.0)) + min(f32(b), 2.5);\n"
    "}\n";

static void test_integer_rules(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(arith_src, NULL, 0, &m);
  int32_t pairs[16] = {7, 2, -7, 2, 5, 0, INT32_MIN, -1, INT32_MAX, 1, -9, -4, 3, 33, 100, 7};
  size_t words[2] = {16 + 8 * 6, 8};
  uint32_t *init = calloc(words[0], 4), *want = calloc(words[0], 4);
  uint32_t finit[8] = {0}, fwant[8];
  memcpy(init, pairs, sizeof pairs);
  memcpy(want, pairs, sizeof pairs);
  for (int i = 0; i < 8; i++) {
    int32_t a = pairs[2 * i], b = pairs[2 * i + 1];
    int32_t *o = (int32_t *)want + 16 + i * 6;
    /* WGSL: x / 0 = x, MIN / -1 = MIN, x % 0 = 0, MIN % -1 = 0 */
    o[0] = b == 0 ? a : (a == INT32_MIN && b == -1) ? a : a / b;
    o[1] = b == 0 ? 0 : (a == INT32_MIN && b == -1) ? 0 : a % b;
    o[2] = (int32_t)((uint32_t)a + (uint32_t)b);
    o[3] = (int32_t)((uint32_t)a << ((uint32_t)b & 31));
    o[4] = a < b ? 1 : -1;
    float h = (float)a * 0.5f;
    o[5] = h >= 2147483520.0f ? 2147483520 : h <= -2147483648.0f ? INT32_MIN : (int32_t)h;
    float fa = (float)a > 0.0f ? (float)a : 0.0f;
    float fb = (float)b < 2.5f ? (float)b : 2.5f;
    float r = __builtin_sqrtf(fa) + fb;
    memcpy(&fwant[i], &r, 4);
  }
  uint32_t *ini[2] = {init, finit}, *wan[2] = {want, fwant};
  run_all(p, 1, ini, wan, words, 2);
  free(init);
  free(want);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Short-circuit: the right side of && runs only where the left holds, so an
 * out-of-range read never happens (its value would be 0 anyway; the
 * observable effect is the call's side effect). */
static const char *short_src =
    "@group(0) @binding(0) var<storage, read_write> hits: array<atomic<u32>, 2>;\n"
    "@group(0) @binding(1) var<storage, read_write> out: array<u32>;\n"
    "fn touch(i: u32) -> bool { atomicAdd(&hits[0], 1u); return i % 3u == 0u; }\n"
    "@compute @workgroup_size(32)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  let a = li < 10u && touch(li);\n"
    "  let b = li < 20u || touch(li);\n"
    "  out[li] = u32(a) + 2u * u32(b);\n"
    "}\n";

static void test_short_circuit(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(short_src, NULL, 0, &m);
  size_t words[2] = {2, 32};
  uint32_t z2[2] = {0}, want2[2] = {10 + 12, 0};
  uint32_t z32[32] = {0}, want32[32];
  for (uint32_t i = 0; i < 32; i++) {
    uint32_t a = i < 10 && i % 3 == 0, b = i < 20 || i % 3 == 0;
    want32[i] = a + 2 * b;
  }
  uint32_t *ini[2] = {z2, z32}, *wan[2] = {want2, want32};
  run_all(p, 1, ini, wan, words, 2);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* loop { ... continuing { ...; break if ...; } }: the continuing block sees
 * the body's declarations, and lanes leave at different trips. */
static const char *continuing_src =
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@compute @workgroup_size(16)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  var i = 0u;\n"
    "  var sum = 0u;\n"
    "  loop {\n"
    "    let sq = i * i;\n"
    "    if (sq % 3u == 1u) { i++; continue; }\n"
    "    sum += sq;\n"
    "    continuing {\n"
    "      i++;\n"
    "      break if i > li;\n"
    "    }\n"
    "  }\n"
    "  out[li] = sum * 100u + i;\n"
    "}\n";

static void test_continuing(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(continuing_src, NULL, 0, &m);
  size_t words = 16;
  uint32_t init[16] = {0}, want[16];
  for (uint32_t li = 0; li < 16; li++) {
    uint32_t i = 0, sum = 0;
    for (;;) {
      uint32_t sq = i * i;
      if (sq % 3 == 1) {
        i++;
      } else {
        sum += sq;
      }
      i++;
      if (i > li) break;
    }
    want[li] = sum * 100 + i;
  }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 1, ini, wan, &words, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* A vector variable held in registers, indexed at run time: reads, plain
 * and compound stores and ++ pick the component per lane; an index past
 * the end stores nothing; the index is taken before the right-hand side
 * runs, even when that changes the index variable through a pointer. Lanes
 * diverge on the index and on an if. */
static const char *vec_index_src =
    "@group(0) @binding(0) var<storage, read_write> io: array<u32>;\n"
    "fn bumpk(p: ptr<function, u32>) -> u32 { *p = (*p + 1u) % 4u; return 50u + *p; }\n"
    "@compute @workgroup_size(16)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  var v = vec4u(10u, 20u, 30u, 40u) + i;\n"
    "  var k = (i / 4u) % 4u;\n"
    "  v[k] = bumpk(&k);\n"
    "  v[k] += bumpk(&k);\n"
    "  v[i % 4u] = 100u + i;\n"
    "  v[(i + 1u) % 4u] *= 3u;\n"
    "  if i % 3u == 0u { v[i % 5u]++; }\n"
    "  v[i + 4u] = 7u;\n"
    "  io[i * 5u] = v[(i + 2u) % 4u];\n"
    "  for (var k = 0u; k < 4u; k++) { io[i * 5u + 1u + k] = v[k]; }\n"
    "}\n";

static void test_vector_runtime_index(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(vec_index_src, NULL, 0, &m);
  size_t words = 80;
  uint32_t init[80] = {0}, want[80];
  for (uint32_t i = 0; i < 16; i++) {
    uint32_t v[4] = {10 + i, 20 + i, 30 + i, 40 + i};
    /* the reference is fixed before the right-hand side moves k */
    uint32_t k = (i / 4) % 4, k0 = k;
    k = (k + 1) % 4;
    v[k0] = 50 + k;
    k0 = k;
    k = (k + 1) % 4;
    v[k0] += 50 + k;
    v[i % 4] = 100 + i;
    v[(i + 1) % 4] *= 3;
    if (i % 3 == 0 && i % 5 < 4) v[i % 5]++;
    want[i * 5] = v[(i + 2) % 4];
    for (int k = 0; k < 4; k++) want[i * 5 + 1 + k] = v[k];
  }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 1, ini, wan, &words, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Operands run left to right even when a later one is a call that stores
 * to a variable an earlier one read: `x += f(&x)` adds f's result to the
 * old x, a compound assignment to a module-scope variable reads it before
 * the call, and built-in arguments keep the value they had when evaluated. */
static const char *order_src =
    "@group(0) @binding(0) var<storage, read_write> io: array<u32>;\n"
    "var<private> pv: u32;\n"
    "fn bumpi(p: ptr<function, u32>) -> u32 { *p += 1u; return 50u + *p; }\n"
    "fn bumpp() -> u32 { pv += 1u; return 50u + pv; }\n"
    "@compute @workgroup_size(16)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  var x = i;\n"
    "  x += bumpi(&x);\n"
    "  pv = i;\n"
    "  pv *= bumpp();\n"
    "  var r = i;\n"
    "  let s = select(r, 99u, bumpi(&r) > 60u);\n"
    "  var w = i;\n"
    "  let m = min(w, bumpi(&w));\n"
    "  io[i * 4u] = x;\n"
    "  io[i * 4u + 1u] = pv;\n"
    "  io[i * 4u + 2u] = s * 1000u + r;\n"
    "  io[i * 4u + 3u] = m * 1000u + w;\n"
    "}\n";

static void test_operand_order(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(order_src, NULL, 0, &m);
  size_t words = 64;
  uint32_t init[64] = {0}, want[64];
  for (uint32_t i = 0; i < 16; i++) {
    want[i * 4] = i + (50 + i + 1);
    want[i * 4 + 1] = i * (50 + i + 1);
    want[i * 4 + 2] = (50 + i + 1 > 60 ? 99 : i) * 1000 + i + 1;
    want[i * 4 + 3] = i * 1000 + i + 1;   /* min(old w, 51 + w) */
  }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 1, ini, wan, &words, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* _ = e on a pointer forms the pointer and runs what its indices call, but
 * loads nothing: a pointer to a whole runtime-sized array is valid there;
 * on a constant it runs nothing, even one no concrete type holds. */
static const char *phony_ptr_src =
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "var<private> counter: u32;\n"
    "fn bump() -> u32 { counter += 1u; return counter; }\n"
    "@compute @workgroup_size(16)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  _ = &out[bump()];\n"
    "  _ = &out;\n"
    "  _ = &out[bump() + bump()];\n"
    "  _ = (1 << 30u) << 10u;\n" /* an AbstractInt past i32: a constant runs nothing */
    "  out[i] = counter * 100u + i;\n"
    "}\n";

static void test_phony_pointer(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(phony_ptr_src, NULL, 0, &m);
  size_t words = 16;
  uint32_t init[16] = {0}, want[16];
  for (uint32_t i = 0; i < 16; i++) want[i] = 3 * 100 + i; /* three calls to bump */
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 1, ini, wan, &words, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* Edge cases of the f16 conversion (pack2x16float, quantizeToF16) and of
 * the bit built-ins that a random case rarely reaches: ties to even, the
 * largest half, overflow to infinity, subnormal halves, zero and all-ones
 * words. */
static const char *edge_src =
    "@group(0) @binding(0) var<storage, read_write> io: array<u32>;\n"
    "@compute @workgroup_size(16)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  let x = bitcast<f32>(io[i]);\n"
    "  let w = io[i];\n"
    "  io[16u + i] = pack2x16float(vec2f(x, -x));\n"
    "  io[32u + i] = bitcast<u32>(quantizeToF16(x));\n"
    "  io[48u + i] = firstLeadingBit(w) ^ (countLeadingZeros(w) << 8u) ^ (countTrailingZeros(w) << 16u);\n"
    "  io[64u + i] = bitcast<u32>(firstLeadingBit(bitcast<i32>(w)));\n"
    "}\n";

static void test_builtin_edges(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(edge_src, NULL, 0, &m);
  /* inputs (f32 bits) and the half each rounds to */
  static const uint32_t in[16] = {
      0x3f800000u, /* 1.0 */
      0x3f801000u, /* 1 + 2^-11: a tie, stays 1.0 (even) */
      0x3f803000u, /* 1 + 3*2^-11: a tie, rounds up */
      0x477fe000u, /* 65504, the largest half */
      0x477ff000u, /* 65520: rounds past it, infinity */
      0x33800000u, /* 2^-24, the smallest subnormal half */
      0x33000000u, /* 2^-25: a tie with zero, goes to zero */
      0x33c00000u, /* 1.5 * 2^-24: a tie, rounds to 2^-23 */
      0x38800000u, /* 2^-14, the smallest normal half */
      0x00000000u, 0xffffffffu, 0x80000000u, 0x00000001u,
      0x7f800000u, /* infinity */
      0x3dcccccdu, /* 0.1 */
      0x40490fdbu, /* pi */
  };
  static const uint16_t half[16] = {0x3c00, 0x3c00, 0x3c02, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x0002,
                                    0x0400, 0x0000, 0x0000, 0x8000, 0x0000, 0x7c00, 0x2e66, 0x4248};
  static const uint32_t quant[16] = {0x3f800000u, 0x3f800000u, 0x3f804000u, 0x477fe000u,
                                     0x7f800000u, 0x33800000u, 0x00000000u, 0x34000000u,
                                     0x38800000u, 0x00000000u, 0, 0x80000000u, 0x00000000u,
                                     0x7f800000u, 0x3dccc000u, 0x40490000u};
  enum { N = 80 };
  size_t words = N;
  uint32_t init[N] = {0}, want[N] = {0};
  for (int i = 0; i < 16; i++) {
    uint32_t w = in[i];
    init[i] = want[i] = w;
    uint32_t h = half[i];
    want[16 + i] = h | (uint32_t)(h ^ 0x8000u) << 16;
    if (i == 9) want[16 + i] = 0x80000000u;  /* -0.0 */
    if (i == 10) want[16 + i] = 0x7e00fe00u; /* NaN keeps its sign, stays quiet */
    want[32 + i] = i == 10 ? 0xffc00000u : quant[i]; /* a quiet NaN */
    uint32_t flb = 0xffffffffu, clz = 32, ctz = 32;
    if (w) {
      clz = (uint32_t)__builtin_clz(w);
      ctz = (uint32_t)__builtin_ctz(w);
      flb = 31u - clz;
    }
    want[48 + i] = flb ^ (clz << 8) ^ (ctz << 16);
    uint32_t t = (w & 0x80000000u) ? ~w : w;
    want[64 + i] = t ? 31u - (uint32_t)__builtin_clz(t) : 0xffffffffu;
  }
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 1, ini, wan, &words, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

/* frexp, modf and refract at their edges, against C's frexpf / truncf and
 * the spec's refract formula evaluated in float: zero and -0, subnormals
 * (indeterminate in WGSL; lockstep gives the exact decomposition, as
 * frexpf does), the largest and smallest normals, negative values (modf's
 * parts both keep the sign), infinities and NaN for frexp (lockstep: the
 * input and exponent 0). The same calls const-evaluated must agree. */
static const char *split_src =
    "@group(0) @binding(0) var<storage, read_write> io: array<u32>;\n"
    "const cf = frexp(vec4f(0.1, -96.0, 1e-40, 0.0));\n"
    "const cm = modf(vec2f(-7.75, 1e10));\n"
    "const cr = refract(vec3f(0.6, -0.8, 0.0), vec3f(0.0, 1.0, 0.0), 1.3);\n"
    "@compute @workgroup_size(16)\n"
    "fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  let x = bitcast<f32>(io[i]);\n"
    "  let f = frexp(x);\n"
    "  io[16u + i] = bitcast<u32>(f.fract);\n"
    "  io[32u + i] = bitcast<u32>(frexp(x).exp);\n"
    "  var m = modf(vec2f(x, 1.0));\n"
    "  let mf = m.fract.x;\n"
    "  io[48u + i] = select(bitcast<u32>(mf), 0x7fc00000u, mf != mf); /* one NaN */\n"
    "  io[64u + i] = bitcast<u32>(select(m.whole.x, m.whole.y, i % 2u == 1u));\n"
    "  let eta = f32(i) * 0.125;\n"
    "  let r = refract(vec3f(0.6, -0.8, 0.0), vec3f(0.0, 1.0, 0.0), eta);\n"
    "  io[80u + i] = bitcast<u32>(r.x);\n"
    "  io[96u + i] = bitcast<u32>(r.y);\n"
    "  if (i < 4u) {\n"
    "    io[112u + i] = bitcast<u32>(cf.fract[i]);\n"
    "    io[116u + i] = bitcast<u32>(cf.exp[i]);\n"
    "  }\n"
    "  if (i == 4u) { io[120] = bitcast<u32>(cm.fract.x); io[121] = bitcast<u32>(cm.whole.x);\n"
    "                 io[122] = bitcast<u32>(cm.fract.y); io[123] = bitcast<u32>(cr.x);\n"
    "                 io[124] = bitcast<u32>(cr.y); io[125] = bitcast<u32>(cr.z); }\n"
    "}\n";

/* refract(e1, (0, 1, 0), eta) with e1 = (0.6, -0.8, 0) in float, the
 * spec's order of operations; component c. */
static float c_refract(float eta, int c) {
  const float e1[3] = {0.6f, -0.8f, 0.0f}, e2[3] = {0.0f, 1.0f, 0.0f};
  float d = e2[0] * e1[0];
  d = d + e2[1] * e1[1];
  d = d + e2[2] * e1[2];
  float k = 1.0f - eta * eta * (1.0f - d * d);
  if (k < 0.0f) return 0.0f;
  return eta * e1[c] - (eta * d + sqrtf(k)) * e2[c];
}

static void test_split_edges(void **state) {
  (void)state;
  wgsl_module *m;
  ir_program *p = tu_build(split_src, NULL, 0, &m);
  static const uint32_t in[16] = {
      0x00000000u, 0x80000000u, /* +0, -0 */
      0x00000001u, 0x80600000u, /* the smallest subnormal, -0.75 * 2^-126 */
      0x00800000u, 0x7f7fffffu, /* the smallest and largest normals */
      0x3f800000u, 0xbf000000u, /* 1, -0.5 */
      0x40400000u, 0xc0200000u, /* 3, -2.5 */
      0xc0e00000u, 0x3dcccccdu, /* -7 (modf's fract: +0), 0.1 */
      0x4b000001u, 0xcafffffeu, /* 2^23 + 1, -(2^23 - 1): integral */
      0x7f800000u, 0x7fc00000u, /* infinity, a quiet NaN */
  };
  enum { N = 128 };
  size_t words = N;
  uint32_t init[N] = {0}, want[N] = {0};
  for (int i = 0; i < 16; i++) {
    float x = vm_bits_f(in[i]);
    init[i] = want[i] = in[i];
    int e = 0;
    float fr = frexpf(x, &e);
    if (!isfinite(x)) fr = x, e = 0; /* lockstep's choice where WGSL leaves it open */
    want[16 + i] = vm_f2u_bits(fr);
    want[32 + i] = (uint32_t)e;
    /* modf per the spec: e - trunc(e) (NaN for infinity and NaN) */
    float mf = x - truncf(x);
    want[48 + i] = isnan(mf) ? 0x7fc00000u : vm_f2u_bits(mf);
    want[64 + i] = vm_f2u_bits(i % 2 ? 1.0f : truncf(x));
    float eta = (float)i * 0.125f;
    want[80 + i] = vm_f2u_bits(c_refract(eta, 0));
    want[96 + i] = vm_f2u_bits(c_refract(eta, 1));
  }
  const float cx[4] = {0.1f, -96.0f, 1e-40f, 0.0f};
  for (int i = 0; i < 4; i++) {
    int e = 0;
    want[112 + i] = vm_f2u_bits(frexpf(cx[i], &e));
    want[116 + i] = (uint32_t)e;
  }
  want[120] = vm_f2u_bits(-7.75f - truncf(-7.75f));
  want[121] = vm_f2u_bits(truncf(-7.75f));
  want[122] = vm_f2u_bits(1e10f - truncf(1e10f));
  want[123] = vm_f2u_bits(c_refract(1.3f, 0));
  want[124] = vm_f2u_bits(c_refract(1.3f, 1));
  want[125] = vm_f2u_bits(c_refract(1.3f, 2));
  /* spot checks of the model itself, from the definitions */
  assert_int_equal(want[16 + 2], 0x3f000000u); /* 2^-149 = 0.5 * 2^-148 */
  assert_int_equal(want[32 + 2], (uint32_t)-148);
  assert_int_equal(want[16 + 9], 0xbf200000u); /* -2.5 = -0.625 * 2^2 */
  assert_int_equal(want[48 + 9], 0xbf000000u); /* modf(-2.5) = (-0.5, -2) */
  assert_int_equal(want[64 + 8], 0x40400000u);
  assert_int_equal(want[80 + 15], 0u);          /* eta 1.875: k < 0 */
  assert_int_equal(want[48 + 10], 0u);          /* modf(-7).fract = -7 - -7 = +0 */
  uint32_t *ini[1] = {init}, *wan[1] = {want};
  run_all(p, 1, ini, wan, &words, 1);
  ir_program_free(p);
  wgsl_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_control_flow),   cmocka_unit_test(test_workgroup_reduction),
      cmocka_unit_test(test_atomics),        cmocka_unit_test(test_builtin_values),
      cmocka_unit_test(test_integer_rules),  cmocka_unit_test(test_short_circuit),
      cmocka_unit_test(test_continuing),     cmocka_unit_test(test_builtin_edges),
      cmocka_unit_test(test_split_edges),    cmocka_unit_test(test_vector_runtime_index),
      cmocka_unit_test(test_operand_order),  cmocka_unit_test(test_phony_pointer),  cmocka_unit_test(test_entry_struct),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
