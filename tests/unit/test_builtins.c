/*
 * test_builtins.c — builtins.def against the compiler's behaviour. Two
 * threads compile their first shaders at the same moment (the name hash is
 * built once; run it under TSan to see the old race). Then every row of the
 * table is checked column by column on generated programs: a valid call of
 * each function (from a sample argument list per overload class, or per
 * function where the class has no common form) is accepted, and one
 * argument or template argument too many or too few, a missing enable, the
 * other shader stage, a const or override declaration, pipeline creation,
 * non-uniform control flow and values, a discarded result and a pointer
 * argument aliasing a callee's parameter are accepted or refused exactly as
 * the row's columns say. The structural rules of the table (names unique,
 * fragment-only rows not run, ...) are checked as well.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/lower.h"
#include "wgsl/sema.h"
#include "wgsl/wgsl.h"

/* ------------------------------------------------------- two threads */

/* A module calling built-ins of several classes, so that compiling it
 * looks up their names. */
static const char *const thread_src =
    "@group(0) @binding(0) var<storage, read_write> d: array<f32>;\n"
    "var<workgroup> w: atomic<u32>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) {\n"
    "  let x = clamp(sqrt(abs(d[i])), 0.0, 1.0) + dot(vec2f(1.0), vec2f(d[0]));\n"
    "  _ = atomicAdd(&w, u32(x));\n"
    "  workgroupBarrier();\n"
    "  d[i] = select(x, f32(arrayLength(&d)), i == 0u);\n"
    "}\n";

static pthread_barrier_t start_line;

static void *compile_at_once(void *out) {
  pthread_barrier_wait(&start_line);
  wgsl_module *m = wgsl_module_compile(thread_src, strlen(thread_src), "thread.wgsl");
  *(int *)out = m && wgsl_module_ok(m);
  wgsl_module_free(m);
  return NULL;
}

/* Runs first in this process, so both threads meet an unbuilt name hash. */
static void test_two_threads_compile_their_first_shader(void **state) {
  (void)state;
  pthread_t t[2];
  int ok[2] = {0, 0};
  assert_int_equal(pthread_barrier_init(&start_line, NULL, 2), 0);
  for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, compile_at_once, &ok[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start_line);
  assert_true(ok[0]);
  assert_true(ok[1]);
}

/* ------------------------------------------------------ the samples */

/* A valid call of a function, with uniform arguments, and what the checks
 * need around it. */
typedef struct sample {
  const char *targs;  /* template arguments, "<...>" or "" */
  const char *args;   /* argument list */
  const char *locals; /* function-scope declarations the arguments use */
  const char *cond;   /* a bool expression of the result r; NULL: none to test */
  const char *ovargs; /* override-expression arguments; NULL: no override test */
  const char *nonuni; /* args with the parameter UNIF requires uniform non-uniform */
  const char *rwargs; /* UNIF RWTEX: args with a read-write storage texture */
  /* the first argument is &VAR: a helper's parameter of VAR's pointer type,
   * a statement reading through it and one writing through it (NULL: none) */
  const char *ptype, *pread, *pwrite;
  const char *pview;  /* MEM VIEW: a statement writing through the call's result */
} sample;

static const char *const sgmat_locals =
    "  var ml: subgroup_matrix_left<f32, 8, 8>;\n"
    "  var mr: subgroup_matrix_right<f32, 8, 8>;\n"
    "  var mres: subgroup_matrix_result<f32, 8, 8>;\n";

#define PTR_ATOMIC \
  .ptype = "ptr<storage, atomic<u32>, read_write>", .pread = "_ = atomicLoad(p);", .pwrite = "atomicStore(p, 1u);"
#define PTR_RF .ptype = "ptr<storage, array<f32>, read_write>", .pread = "_ = p[0];", .pwrite = "p[0] = 1.0;"
#define PTR_RAW                                                                          \
  .ptype = "ptr<storage, buffer, read_write>", .pread = "_ = *bufferView<u32>(p, 0);", \
  .pwrite = "*bufferView<u32>(p, 0) = 1u;"

/* One per overload class whose functions share a form. */
static const sample class_samples[BK_COUNT] = {
    [BK_NUM1] = {.args = "-1.5f", .cond = "r > 0.0", .ovargs = "ov"},
    [BK_NUM2] = {.args = "1.5f, 2.5f", .cond = "r > 0.0", .ovargs = "ov, 1.0"},
    [BK_NUM3] = {.args = "1.5f, 0.0f, 2.0f", .cond = "r > 0.0", .ovargs = "ov, 0.0, 2.0"},
    [BK_FLT1] = {.args = "0.5f", .cond = "r == r", .ovargs = "ov"},
    [BK_FLT2] = {.args = "0.5f, 1.5f", .cond = "r == r", .ovargs = "ov, 1.0"},
    [BK_FLT3] = {.args = "0.0f, 1.0f, 0.5f", .cond = "r == r", .ovargs = "ov, 1.0, 0.5"},
    [BK_MIX] = {.args = "0.0f, 1.0f, 0.5f", .cond = "r == r", .ovargs = "ov, 1.0, 0.5"},
    [BK_SIGN] = {.args = "-1.5f", .cond = "r < 0.0", .ovargs = "ov"},
    [BK_INT1] = {.args = "5u", .cond = "r != 7u", .ovargs = "ovu"},
    [BK_EXTRACT] = {.args = "5u, 0u, 2u", .cond = "r != 7u", .ovargs = "ovu, 0u, 2u"},
    [BK_INSERT] = {.args = "5u, 1u, 0u, 2u", .cond = "r != 7u", .ovargs = "ovu, 1u, 0u, 2u"},
    [BK_LDEXP] = {.args = "1.5f, 2i", .cond = "r > 0.0", .ovargs = "ov, 2"},
    [BK_FREXP] = {.args = "1.5f", .cond = "r.fract > 0.0", .ovargs = "ov"},
    [BK_MODF] = {.args = "1.5f", .cond = "r.fract > 0.0", .ovargs = "ov"},
    [BK_LEN] = {.args = "vec2f(3.0, 4.0)", .cond = "r > 0.0", .ovargs = "vec2f(ov, 1.0)"},
    [BK_DIST] = {.args = "vec2f(3.0, 4.0), vec2f(0.0)", .cond = "r > 0.0", .ovargs = "vec2f(ov), vec2f(0.0)"},
    [BK_DOT] = {.args = "vec2f(1.0), vec2f(2.0)", .cond = "r > 0.0", .ovargs = "vec2f(ov), vec2f(2.0)"},
    [BK_CROSS] = {.args = "vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0)", .cond = "r.z > 0.0",
                  .ovargs = "vec3f(ov, 0.0, 0.0), vec3f(0.0, 1.0, 0.0)"},
    [BK_NORM] = {.args = "vec2f(3.0, 4.0)", .cond = "r.x > 0.0", .ovargs = "vec2f(ov, 1.0)"},
    [BK_REFLECT] = {.args = "vec2f(1.0, -1.0), vec2f(0.0, 1.0)", .cond = "r.y > 0.0",
                    .ovargs = "vec2f(ov, -1.0), vec2f(0.0, 1.0)"},
    [BK_REFRACT] = {.args = "vec2f(0.0, -1.0), vec2f(0.0, 1.0), 1.0f", .cond = "r.y < 0.0",
                    .ovargs = "vec2f(0.0, -1.0), vec2f(0.0, 1.0), ov"},
    [BK_FACEFWD] = {.args = "vec2f(0.0, 1.0), vec2f(0.0, -1.0), vec2f(0.0, 1.0)", .cond = "r.y > 0.0",
                    .ovargs = "vec2f(0.0, ov), vec2f(0.0, -1.0), vec2f(0.0, 1.0)"},
    [BK_DET] = {.args = "mat2x2f(1.0, 2.0, 3.0, 4.0)", .cond = "r < 0.0", .ovargs = "mat2x2f(ov, 2.0, 3.0, 4.0)"},
    [BK_TRANSPOSE] = {.args = "mat2x2f(1.0, 2.0, 3.0, 4.0)", .cond = "r[0].y > 0.0",
                      .ovargs = "mat2x2f(ov, 2.0, 3.0, 4.0)"},
    [BK_SEL] = {.args = "1.0f, 2.0f, true", .cond = "r > 0.0", .ovargs = "ov, 2.0, ovb"},
    [BK_ALLANY] = {.args = "vec2<bool>(true, false)", .cond = "r", .ovargs = "vec2<bool>(ovb, true)"},
    [BK_BITCAST] = {.targs = "<u32>", .args = "1.5f", .cond = "r != 0u", .ovargs = "ov"},
    [BK_ALEN] = {.args = "&rt", .cond = "r > 0u", .ptype = "ptr<storage, array<u32>, read_write>",
                 .pread = "_ = p[0];", .pwrite = "p[0] = 1u;"},
    [BK_DERIV] = {.args = "1.0f", .cond = "r == 0.0"},
    [BK_ATOM] = {.args = "&sa, 1u", .cond = "r > 0u", PTR_ATOMIC},
    [BK_CMPX] = {.args = "&sa, 0u, 1u", .cond = "r.exchanged", PTR_ATOMIC},
    [BK_BAR] = {.args = ""},
    [BK_WUL] = {.args = "&wv", .cond = "r > 0u", .nonuni = "&wvs[lid.x]", .ptype = "ptr<workgroup, u32>",
                .pread = "_ = *p;", .pwrite = "*p = 1u;"},
    [BK_SGRED] = {.args = "1.5f", .cond = "r > 0.0"},
    [BK_SGBIT] = {.args = "5u", .cond = "r != 0u"},
    [BK_SGBC] = {.args = "1.5f, 0u", .cond = "r > 0.0"},
    [BK_SGSHUF] = {.args = "1.5f, 1u", .cond = "r > 0.0", .nonuni = "1.5f, lid.x"},
    [BK_SGONE] = {.args = "1.5f", .cond = "r > 0.0"},
    [BK_SGBOOL] = {.args = "true", .cond = "r"},
    [BK_BALLOT] = {.args = "true", .cond = "r.x != 0u"},
    [BK_ELECT] = {.args = "", .cond = "r"},
    [BK_QBC] = {.args = "1.5f, 0u", .cond = "r > 0.0"},
    [BK_PRINT] = {.args = "1.5f"},
    [BK_IALOAD] = {.args = "ia", .cond = "r.x > 0.0"},
    [BK_ATOMV2] = {.args = "&sv2, vec2u(1u)", .ptype = "ptr<storage, atomic<vec2<u32>>, read_write>",
                   .pwrite = "atomicStoreMin(p, vec2u(1u));"},
};

/* Functions whose class has no common form (or one that needs other
 * arguments). */
static const struct {
  builtin_fn f;
  sample s;
} fn_samples[] = {
    {BF_ACOSH, {.args = "1.5f", .cond = "r == r", .ovargs = "ov"}}, /* its domain is x >= 1 */
    {BF_QUANTIZE_TO_F16, {.args = "1.5f", .cond = "r > 0.0", .ovargs = "ov"}},
    {BF_PACK4X8SNORM, {.args = "vec4f(0.5)", .cond = "r != 0u", .ovargs = "vec4f(ov)"}},
    {BF_PACK4X8UNORM, {.args = "vec4f(0.5)", .cond = "r != 0u", .ovargs = "vec4f(ov)"}},
    {BF_PACK2X16SNORM, {.args = "vec2f(0.5)", .cond = "r != 0u", .ovargs = "vec2f(ov)"}},
    {BF_PACK2X16UNORM, {.args = "vec2f(0.5)", .cond = "r != 0u", .ovargs = "vec2f(ov)"}},
    {BF_PACK2X16FLOAT, {.args = "vec2f(0.5)", .cond = "r != 0u", .ovargs = "vec2f(ov)"}},
    {BF_UNPACK4X8SNORM, {.args = "1u", .cond = "r.x >= 0.0", .ovargs = "ovu"}},
    {BF_UNPACK4X8UNORM, {.args = "1u", .cond = "r.x >= 0.0", .ovargs = "ovu"}},
    {BF_UNPACK2X16SNORM, {.args = "1u", .cond = "r.x >= 0.0", .ovargs = "ovu"}},
    {BF_UNPACK2X16UNORM, {.args = "1u", .cond = "r.x >= 0.0", .ovargs = "ovu"}},
    {BF_UNPACK2X16FLOAT, {.args = "1u", .cond = "r.x >= 0.0", .ovargs = "ovu"}},
    {BF_PACK4XI8, {.args = "vec4i(1)", .cond = "r != 0u", .ovargs = "vec4i(i32(ovu))"}},
    {BF_PACK4XI8_CLAMP, {.args = "vec4i(1)", .cond = "r != 0u", .ovargs = "vec4i(i32(ovu))"}},
    {BF_PACK4XU8, {.args = "vec4u(1u)", .cond = "r != 0u", .ovargs = "vec4u(ovu)"}},
    {BF_PACK4XU8_CLAMP, {.args = "vec4u(1u)", .cond = "r != 0u", .ovargs = "vec4u(ovu)"}},
    {BF_UNPACK4XI8, {.args = "1u", .cond = "r.x > 0", .ovargs = "ovu"}},
    {BF_UNPACK4XU8, {.args = "1u", .cond = "r.x > 0u", .ovargs = "ovu"}},
    {BF_DOT4U8_PACKED, {.args = "1u, 2u", .cond = "r != 0u", .ovargs = "ovu, 2u"}},
    {BF_DOT4I8_PACKED, {.args = "1u, 2u", .cond = "r != 0", .ovargs = "ovu, 2u"}},
    {BF_ATOMIC_LOAD, {.args = "&sa", .cond = "r > 0u", PTR_ATOMIC}},
    {BF_ATOMIC_STORE, {.args = "&sa, 1u", PTR_ATOMIC}},
    {BF_TEXTURE_DIMENSIONS, {.args = "t2", .cond = "r.x > 0u"}},
    {BF_TEXTURE_LOAD, {.args = "t2, vec2i(0), 0", .cond = "r.x > 0.0", .rwargs = "trw, vec2i(0)"}},
    {BF_TEXTURE_STORE, {.args = "ts, vec2i(0), vec4f(1.0)"}},
    {BF_TEXTURE_NUM_LAYERS, {.args = "t2a", .cond = "r > 0u"}},
    {BF_TEXTURE_NUM_LEVELS, {.args = "t2", .cond = "r > 0u"}},
    {BF_TEXTURE_NUM_SAMPLES, {.args = "tms", .cond = "r > 0u"}},
    {BF_TEXTURE_SAMPLE, {.args = "t2, sm, vec2f(0.5)", .cond = "r.x > 0.0"}},
    {BF_TEXTURE_SAMPLE_BIAS, {.args = "t2, sm, vec2f(0.5), 0.0", .cond = "r.x > 0.0"}},
    {BF_TEXTURE_SAMPLE_LEVEL, {.args = "t2, sm, vec2f(0.5), 0.0", .cond = "r.x > 0.0"}},
    {BF_TEXTURE_SAMPLE_GRAD, {.args = "t2, sm, vec2f(0.5), vec2f(0.0), vec2f(0.0)", .cond = "r.x > 0.0"}},
    {BF_TEXTURE_SAMPLE_COMPARE, {.args = "td, smc, vec2f(0.5), 0.5", .cond = "r > 0.0"}},
    {BF_TEXTURE_SAMPLE_COMPARE_LEVEL, {.args = "td, smc, vec2f(0.5), 0.5", .cond = "r > 0.0"}},
    {BF_TEXTURE_SAMPLE_BASE_CLAMP, {.args = "t2, sm, vec2f(0.5)", .cond = "r.x > 0.0"}},
    {BF_TEXTURE_GATHER, {.args = "0, t2, sm, vec2f(0.5)", .cond = "r.x > 0.0"}},
    {BF_TEXTURE_GATHER_COMPARE, {.args = "td, smc, vec2f(0.5), 0.5", .cond = "r.x > 0.0"}},
    {BF_SUBGROUP_MATRIX_LOAD, {.targs = "<subgroup_matrix_left<f32, 8, 8>, row_major>", .args = "&rf, 0u, 8u", PTR_RF}},
    {BF_SUBGROUP_MATRIX_STORE, {.targs = "<row_major>", .args = "&rf, 0u, ml, 8u", .locals = sgmat_locals, PTR_RF}},
    {BF_SUBGROUP_MATRIX_MULTIPLY, {.targs = "<f32>", .args = "ml, mr", .locals = sgmat_locals}},
    {BF_SUBGROUP_MATRIX_MULTIPLY_ACCUMULATE, {.args = "ml, mr, mres", .locals = sgmat_locals}},
    {BF_SUBGROUP_MATRIX_SCALAR_ADD, {.args = "mres, 2.0", .locals = sgmat_locals}},
    {BF_SUBGROUP_MATRIX_SCALAR_SUBTRACT, {.args = "mres, 2.0", .locals = sgmat_locals}},
    {BF_SUBGROUP_MATRIX_SCALAR_MULTIPLY, {.args = "mres, 2.0", .locals = sgmat_locals}},
    {BF_BUFFER_VIEW, {.targs = "<u32>", .args = "&raw, 0", PTR_RAW,
                      .pview = "*bufferView<u32>(&raw, 0) = 1u;"}},
    {BF_BUFFER_ARRAY_VIEW, {.targs = "<array<u32>>", .args = "&raw, 0, 64", PTR_RAW,
                            .pview = "(*bufferArrayView<array<u32>>(&raw, 0, 64))[0] = 1u;"}},
    {BF_BUFFER_LENGTH, {.args = "&raw", .cond = "r > 0u", PTR_RAW}},
    {BF_GET_RESOURCE, {.targs = "<texture_2d<f32>>", .args = "0u"}},
    {BF_HAS_RESOURCE, {.targs = "<texture_2d<f32>>", .args = "0u", .cond = "r"}},
};

static const sample *sample_of(builtin_fn f) {
  for (size_t i = 0; i < sizeof fn_samples / sizeof fn_samples[0]; i++)
    if (fn_samples[i].f == f) return &fn_samples[i].s;
  const sample *s = &class_samples[builtin_fn_kind(f)];
  return s->args ? s : NULL;
}

/* ------------------------------------------------------ the programs */

/* Every extension a sample may need; one of them can be left out. */
static const struct {
  builtin_ext x;
  const char *line;
} enables[] = {
    {BX_SG, "enable subgroups;\n"},
    {BX_SGMAT, "enable chromium_experimental_subgroup_matrix;\n"},
    {BX_RESTAB, "enable chromium_experimental_resource_table;\n"},
    {BX_VEC2U, "enable atomic_vec2u_min_max;\n"},
    {BX_INATT, "enable chromium_internal_input_attachments;\n"},
};

static const char *const decls =
    "@group(0) @binding(0) var<storage, read_write> sa: atomic<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> rt: array<u32>;\n"
    "@group(0) @binding(2) var t2: texture_2d<f32>;\n"
    "@group(0) @binding(3) var sm: sampler;\n"
    "@group(0) @binding(4) var smc: sampler_comparison;\n"
    "@group(0) @binding(5) var td: texture_depth_2d;\n"
    "@group(0) @binding(6) var ts: texture_storage_2d<rgba8unorm, write>;\n"
    "@group(0) @binding(7) var<storage, read_write> rf: array<f32>;\n"
    "@group(0) @binding(8) var<storage, read_write> raw: buffer;\n"
    "@group(0) @binding(9) var<storage, read_write> sv2: atomic<vec2<u32>>;\n"
    "@group(0) @binding(10) var t2a: texture_2d_array<f32>;\n"
    "@group(0) @binding(11) var tms: texture_multisampled_2d<f32>;\n"
    "@group(0) @binding(12) var trw: texture_storage_2d<r32uint, read_write>;\n"
    "@group(1) @binding(0) @input_attachment_index(0) var ia: input_attachment<f32>;\n"
    "var<workgroup> wv: u32;\n"
    "var<workgroup> wvs: array<u32, 64>;\n"
    "override ov: f32 = 1.0;\n"
    "override ovu: u32 = 1u;\n"
    "override ovb: bool = true;\n";

typedef struct prog {
  char text[4096];
  size_t len;
} prog;

static void put(prog *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(p->text + p->len, sizeof p->text - p->len, fmt, ap);
  va_end(ap);
  assert_true(n >= 0 && (size_t)n < sizeof p->text - p->len);
  p->len += (size_t)n;
}

/* The call's text: name, template arguments, arguments. */
static void call_text(char *out, size_t n, builtin_fn f, const char *targs, const char *args) {
  snprintf(out, n, "%s%s(%s)", builtin_fn_name(f), targs ? targs : "", args);
}

/* A vertex entry point for module_text (builtin_stage names the two stages
 * a built-in can be restricted to, and NOVERT). */
#define STAGE_VERTEX ((builtin_stage)2)

/* A module: the enables (without `leave_out`), the declarations, `pre` at
 * module scope, and an entry point of `stage` (BS_COMP, BS_FRAG or
 * STAGE_VERTEX) whose body is `body` (lid: a non-uniform vec3u in every
 * stage). */
static void module_text(prog *p, builtin_ext leave_out, const char *pre, builtin_stage stage,
                        const char *body) {
  p->len = 0;
  p->text[0] = 0;
  for (size_t i = 0; i < sizeof enables / sizeof enables[0]; i++)
    if (enables[i].x != leave_out) put(p, "%s", enables[i].line);
  put(p, "%s%s", decls, pre ? pre : "");
  if (stage == BS_FRAG)
    put(p, "@fragment fn main(@builtin(position) pos: vec4f) -> @location(0) vec4f {\n"
           "  let lid = vec3u(pos.xyz);\n%s  return vec4f();\n}\n", body);
  else if (stage == STAGE_VERTEX)
    put(p, "@vertex fn main(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4f {\n"
           "  let lid = vec3u(vi);\n%s  return vec4f();\n}\n", body);
  else
    put(p, "@compute @workgroup_size(64) fn main(@builtin(local_invocation_id) lid: vec3u) {\n%s}\n", body);
}

/* Compiles p; returns whether it is valid and, in *diags, the formatted
 * diagnostics (malloc'd). */
static int compiles(const prog *p, char **diags) {
  wgsl_module *m = wgsl_module_compile(p->text, p->len, "t.wgsl");
  assert_non_null(m);
  int ok = wgsl_module_ok(m);
  if (diags) *diags = diag_format(wgsl_module_diags(m), p->text, p->len, "t.wgsl");
  wgsl_module_free(m);
  return ok;
}

/* Checks that p compiles (want 1) or is rejected with a diagnostic
 * containing `msg` (want 0; msg NULL: any error). */
static void expect(const prog *p, int want, const char *msg, const char *what, builtin_fn f) {
  char *d = NULL;
  int ok = compiles(p, &d);
  int good = want ? ok : !ok && (!msg || (d && strstr(d, msg)));
  if (!good)
    fprintf(stderr, "%s: %s: expected %s%s%s, got:\n%s\n---\n%s\n", builtin_fn_name(f), what,
            want ? "acceptance" : "rejection", msg ? " with " : "", msg ? msg : "", d ? d : "", p->text);
  free(d);
  assert_true(good);
}

/* The statement calling f: `let r = CALL;`, or `CALL;` for a void one. */
static void call_stmt(char *out, size_t n, builtin_fn f, const sample *s, const char *targs,
                      const char *args) {
  char c[512];
  call_text(c, sizeof c, f, targs, args);
  if (builtin_fn_info(f)->use == BR_VOID) snprintf(out, n, "%s  %s;\n", s->locals ? s->locals : "", c);
  else snprintf(out, n, "%s  let r = %s;\n", s->locals ? s->locals : "", c);
}

/* The stage a sample's program runs in. */
static builtin_stage home_stage(builtin_fn f) {
  return builtin_fn_info(f)->stage == BS_FRAG ? BS_FRAG : BS_COMP;
}

/* ------------------------------------------------------- the columns */

/* Where the last argument of an argument list starts (its comma), 0 for
 * one argument. */
static size_t last_arg(const char *args) {
  size_t at = 0;
  int depth = 0;
  for (size_t i = 0; args[i]; i++) {
    if (args[i] == '(' || args[i] == '<') depth++;
    else if (args[i] == ')' || args[i] == '>') depth--;
    else if (args[i] == ',' && !depth) at = i;
  }
  return at;
}

static void check_counts(builtin_fn f, const sample *s) {
  const builtin_info *bi = builtin_fn_info(f);
  char body[1024], args[512], targs[256];
  prog p;
  if (bi->args >= 0) { /* ARGS: one more, one fewer */
    snprintf(args, sizeof args, "%s%s1", s->args, *s->args ? ", " : "");
    call_stmt(body, sizeof body, f, s, s->targs, args);
    module_text(&p, BX_COUNT, NULL, home_stage(f), body);
    expect(&p, 0, builtin_class_info_of(bi->kind)->args_by == BC_TABLE ? "argument" : NULL, "an extra argument", f);
    if (bi->args > 0) {
      snprintf(args, sizeof args, "%s", s->args);
      args[last_arg(args)] = 0;
      call_stmt(body, sizeof body, f, s, s->targs, args);
      module_text(&p, BX_COUNT, NULL, home_stage(f), body);
      expect(&p, 0, NULL, "one argument fewer", f);
    }
  }
  /* TARGS: one more template argument */
  if (bi->targs) {
    snprintf(targs, sizeof targs, "%.*s, f32>", (int)strlen(s->targs) - 1, s->targs);
  } else {
    snprintf(targs, sizeof targs, "<f32>");
  }
  call_stmt(body, sizeof body, f, s, targs, s->args);
  module_text(&p, BX_COUNT, NULL, home_stage(f), body);
  expect(&p, 0, builtin_class_info_of(bi->kind)->targs_by == BC_TABLE ? "template argument" : NULL,
         "an extra template argument", f);
  if (bi->targs) { /* and none */
    call_stmt(body, sizeof body, f, s, "", s->args);
    module_text(&p, BX_COUNT, NULL, home_stage(f), body);
    expect(&p, 0, NULL, "no template argument", f);
  }
}

static void check_enable_and_stage(builtin_fn f, const sample *s) {
  const builtin_info *bi = builtin_fn_info(f);
  char body[1024], msg[256];
  prog p;
  call_stmt(body, sizeof body, f, s, s->targs, s->args);
  /* ENABLE: the call needs its extension; a CALL gate says so at the call */
  if (bi->ext != BX_CORE) {
    const builtin_ext_info *x = builtin_ext_info_of(bi->ext);
    snprintf(msg, sizeof msg, "'%s' needs 'enable %s;'", bi->name, x->directive);
    module_text(&p, bi->ext, NULL, home_stage(f), body);
    expect(&p, 0, x->gate == BG_CALL ? msg : NULL, "without its enable", f);
  }
  /* STAGE: the other stage refuses it; ANY: compute and fragment shaders
   * accept it; NOVERT: they accept it and a vertex shader refuses it */
  if (bi->stage == BS_ANY || bi->stage == BS_NOVERT) {
    module_text(&p, BX_COUNT, NULL, BS_COMP, body);
    expect(&p, 1, NULL, "in a compute shader", f);
    module_text(&p, BX_COUNT, NULL, BS_FRAG, body);
    expect(&p, 1, NULL, "in a fragment shader", f);
    /* (an ANY sample may use storage a vertex shader cannot write, so only
     * the refusal is checked there) */
    if (bi->stage == BS_NOVERT) {
      module_text(&p, BX_COUNT, NULL, STAGE_VERTEX, body);
      expect(&p, 0, "only allowed in compute and fragment shaders", "in a vertex shader", f);
    }
  } else {
    module_text(&p, BX_COUNT, NULL, bi->stage == BS_COMP ? BS_FRAG : BS_COMP, body);
    expect(&p, 0, bi->stage == BS_COMP ? "only allowed in compute shaders" : "only allowed in fragment shaders",
           "in the other stage", f);
  }
}

/* The compute module with `body` (*m, to free after the program), lowered
 * for its entry point with the default limits; NULL with the reasons in
 * *d (diag_free it either way). */
static ir_program *lowered(prog *p, const char *body, wgsl_module **m, diag_list *d) {
  module_text(p, BX_COUNT, NULL, BS_COMP, body);
  *m = wgsl_module_compile(p->text, p->len, "t.wgsl");
  assert_true(*m && wgsl_module_ok(*m));
  ls_limits lim;
  ls_limits_default(&lim);
  diag_init(d);
  return lower_pipeline(*m, "main", NULL, 0, &lim, d);
}

static void check_eval_and_lower(builtin_fn f, const sample *s) {
  const builtin_info *bi = builtin_fn_info(f);
  char call[512], pre[768], body[1024];
  prog p;
  /* EVAL: a const declaration folds it, and with override arguments it
   * is an override-expression, which a private variable's initializer
   * may be (CONST) */
  call_text(call, sizeof call, f, s->targs, s->args);
  snprintf(pre, sizeof pre, "const r = %s;\n", call);
  module_text(&p, BX_COUNT, pre, home_stage(f), "");
  expect(&p, bi->eval != BE_RT, NULL, "as a const-expression", f);
  if (s->ovargs) {
    call_text(call, sizeof call, f, s->targs, s->ovargs);
    snprintf(pre, sizeof pre, "var<private> r = %s;\n", call);
    module_text(&p, BX_COUNT, pre, home_stage(f), "");
    expect(&p, bi->eval == BE_CONST, NULL, "as an override-expression", f);
  }
  /* LOWER: pipeline creation runs it or refuses it; lowering only runs
   * compute shaders */
  if (bi->stage == BS_FRAG) {
    assert_int_equal(bi->lower, BL_NO);
    return;
  }
  call_stmt(body, sizeof body, f, s, s->targs, s->args);
  diag_list d;
  wgsl_module *m;
  ir_program *ir = lowered(&p, body, &m, &d);
  int refused = !ir && d.count && strstr(d.items[0].message, "is not supported by lockstep yet");
  if ((bi->lower == BL_RUN) != (ir != NULL) || (bi->lower == BL_NO && !refused)) {
    char *t = diag_format(&d, p.text, p.len, "t.wgsl");
    fprintf(stderr, "%s: LOWER %s, pipeline creation: %s\n%s", bi->name, bi->lower == BL_RUN ? "RUN" : "NO",
            ir ? "ran" : "refused", t ? t : "");
    free(t);
    fail();
  }
  diag_free(&d);
  if (ir && bi->use == BR_VOID) {
    /* a call kept only for its effect must leave code behind */
    diag_list d0;
    wgsl_module *m0;
    prog p0;
    ir_program *empty = lowered(&p0, "", &m0, &d0);
    assert_non_null(empty);
    if (ir->ncode <= empty->ncode) fprintf(stderr, "%s: lowering emitted nothing for it\n", bi->name);
    assert_true(ir->ncode > empty->ncode);
    ir_program_free(empty);
    diag_free(&d0);
    wgsl_module_free(m0);
  }
  ir_program_free(ir);
  wgsl_module_free(m);
}

static void check_uniformity(builtin_fn f, const sample *s) {
  const builtin_info *bi = builtin_fn_info(f);
  const builtin_unif_info *bu = builtin_unif_info_of(bi->unif);
  char stmt[1024], body[2048], msg[256];
  prog p;
  /* CALL: in non-uniform control flow */
  call_stmt(stmt, sizeof stmt, f, s, s->targs, s->args);
  snprintf(body, sizeof body, "  if (lid.x == 0u) {\n%s  }\n", stmt);
  module_text(&p, BX_COUNT, NULL, home_stage(f), body);
  snprintf(msg, sizeof msg, "'%s' must only be called from uniform control flow", bi->name);
  expect(&p, bu->call == BUC_FREE, msg, "in non-uniform control flow", f);
  /* PARAM: a non-uniform value where a uniform one is required */
  if (bu->param >= 0) {
    assert_non_null(s->nonuni);
    call_stmt(stmt, sizeof stmt, f, s, s->targs, s->nonuni);
    module_text(&p, BX_COUNT, NULL, home_stage(f), stmt);
    snprintf(msg, sizeof msg, "the %s of '%s' must be a uniform value", bu->param_name, bi->name);
    expect(&p, 0, msg, "with a non-uniform parameter", f);
  }
  /* RESULT: a uniform-only operation under a condition on the result;
   * workgroup scope (a barrier or a derivative) and, where subgroup
   * scope matters, subgroup scope */
  if (!s->cond) return;
  const char *sink = home_stage(f) == BS_FRAG ? "_ = dpdx(1.0);" : "workgroupBarrier();";
  int varies = bu->result == BUR_MAYBE || bu->result == BUR_SGSCOPE;
  call_stmt(stmt, sizeof stmt, f, s, s->targs, s->args);
  snprintf(body, sizeof body, "%s  if (%s) { %s }\n", stmt, s->cond, sink);
  module_text(&p, BX_COUNT, NULL, home_stage(f), body);
  expect(&p, !varies, NULL, "its result deciding a barrier", f);
  if (bi->ext == BX_SG) {
    snprintf(body, sizeof body, "%s  if (%s) { _ = subgroupAdd(1u); }\n", stmt, s->cond);
    module_text(&p, BX_COUNT, NULL, home_stage(f), body);
    expect(&p, bu->result != BUR_MAYBE, NULL, "its result deciding a subgroup operation", f);
  }
  if (bu->result == BUR_RWTEX) {
    assert_non_null(s->rwargs);
    call_stmt(stmt, sizeof stmt, f, s, s->targs, s->rwargs);
    snprintf(body, sizeof body, "%s  if (r.x > 0u) { %s }\n", stmt, sink);
    module_text(&p, BX_COUNT, NULL, home_stage(f), body);
    expect(&p, 0, NULL, "a read-write storage texture's value deciding a barrier", f);
  }
}

/* MEM: a helper h(p) that reads (or writes) through p and calls f on the
 * variable the caller passes as p (§Alias Analysis). */
static void check_memory(builtin_fn f, const sample *s) {
  const builtin_info *bi = builtin_fn_info(f);
  if (!s->ptype) return;
  char var[64], stmt[1024], pre[2048];
  prog p;
  snprintf(var, sizeof var, "%.*s", (int)strcspn(s->args, ","), s->args);
  call_stmt(stmt, sizeof stmt, f, s, s->targs, s->args);
  const int reads = bi->mem == BM_R || bi->mem == BM_RW, writes = bi->mem == BM_W || bi->mem == BM_RW;
  const char *through[2] = {s->pread, s->pwrite};
  for (int w = 0; w < 2; w++) {
    if (!through[w]) continue;
    snprintf(pre, sizeof pre, "fn h(p: %s) {\n  %s\n%s}\n", s->ptype, through[w], stmt);
    char body[96];
    snprintf(body, sizeof body, "  h(%s);\n", var);
    module_text(&p, BX_COUNT, pre, home_stage(f), body);
    /* reading through p conflicts with the call's writes; writing through
     * p with any access */
    expect(&p, w ? !reads && !writes : !writes, NULL, w ? "writing its pointer's variable" : "reading its pointer's variable", f);
  }
  if (bi->mem == BM_VIEW) {
    assert_non_null(s->pview);
    snprintf(pre, sizeof pre, "fn h(p: %s) {\n  %s\n  %s\n}\n", s->ptype, s->pread, s->pview);
    char body[96];
    snprintf(body, sizeof body, "  h(%s);\n", var);
    module_text(&p, BX_COUNT, pre, home_stage(f), body);
    expect(&p, 0, NULL, "writing through its view of the variable", f);
  }
}

/* USE: a call statement discards the result. */
static void check_use(builtin_fn f, const sample *s) {
  const builtin_info *bi = builtin_fn_info(f);
  char call[512], body[1024], msg[256];
  prog p;
  call_text(call, sizeof call, f, s->targs, s->args);
  snprintf(body, sizeof body, "%s  %s;\n", s->locals ? s->locals : "", call);
  module_text(&p, BX_COUNT, NULL, home_stage(f), body);
  snprintf(msg, sizeof msg, "the result of '%s' must be used", bi->name);
  expect(&p, bi->use != BR_MUST, msg, "as a statement", f);
  if (bi->use == BR_VOID) {
    snprintf(body, sizeof body, "%s  let r = %s;\n", s->locals ? s->locals : "", call);
    module_text(&p, BX_COUNT, NULL, home_stage(f), body);
    expect(&p, 0, NULL, "as a value", f);
  }
}

static void test_every_row_behaves_as_its_columns_say(void **state) {
  (void)state;
  for (int i = 0; i < BF_COUNT; i++) {
    const builtin_fn f = (builtin_fn)i;
    const sample *s = sample_of(f);
    if (!s) fprintf(stderr, "no sample call of '%s': add one to test_builtins.c\n", builtin_fn_name(f));
    assert_non_null(s);
    char body[1024];
    prog p;
    call_stmt(body, sizeof body, f, s, s->targs, s->args);
    module_text(&p, BX_COUNT, NULL, home_stage(f), body);
    expect(&p, 1, NULL, "the sample call", f);
    check_counts(f, s);
    check_enable_and_stage(f, s);
    check_eval_and_lower(f, s);
    check_uniformity(f, s);
    check_memory(f, s);
    check_use(f, s);
  }
}

/* ---------------------------------------------------- the table itself */

static void test_table_rules(void **state) {
  (void)state;
  for (int i = 0; i < BF_COUNT; i++) {
    const builtin_info *bi = builtin_fn_info((builtin_fn)i);
    /* names are unique and found */
    assert_int_equal(builtin_find(bi->name), i);
    /* the class rule counts what the row cannot give as one number */
    if (bi->args < 0) assert_int_equal(builtin_class_info_of(bi->kind)->args_by, BC_RULE);
    /* the uniform parameter is one of its arguments */
    const builtin_unif_info *bu = builtin_unif_info_of(bi->unif);
    if (bu->param >= 0) assert_true(bu->param < bi->args && *bu->param_name);
    /* folded functions have no effects; a call without a result, or one
     * that writes memory, has */
    if (bi->eval != BE_RT) assert_int_equal(bi->fx, BFX_PURE);
    if (bi->use == BR_VOID || bi->mem == BM_W || bi->mem == BM_RW) assert_int_equal(bi->fx, BFX_EFFECT);
    /* an extension row that gates the call names its directive */
    if (bi->ext != BX_CORE) assert_true(*builtin_ext_info_of(bi->ext)->directive);
  }
  assert_int_equal(builtin_find("textureSampleBaseClampToEdge"), BF_TEXTURE_SAMPLE_BASE_CLAMP);
  assert_int_equal(builtin_find("vec4"), -1);
  assert_int_equal(builtin_find(""), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_threads_compile_their_first_shader),
      cmocka_unit_test(test_table_rules),
      cmocka_unit_test(test_every_row_behaves_as_its_columns_say),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
