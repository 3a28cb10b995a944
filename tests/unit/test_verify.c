/*
 * test_verify.c — the bytecode verifier (src/ir/verify.c) and the
 * emitter's constant pool (src/ir/emit.c). A few shaders that together use
 * every opcode of op.def are lowered; the verifier must accept each
 * program as lowered, and reject every copy in which one operand of one
 * instruction was set to a value outside its range, with a message naming
 * the pc, the opcode and the operand. The out-of-range values are worked
 * out here from op.def's FORM letters and the counts of ir.h, not from the
 * verifier's tables. Through the API, pipeline creation turns a rejected
 * program into an internal error (lowering's test hook plays the bug).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/lower_int.h"
#include "lockstep.h"
#include "unit_util.h"

/* Shaders that between them use every opcode (test_covers_every_opcode
 * checks that they do). */
static const char *const sources[] = {
    /* integer and f32 arithmetic, conversions, bit functions, packing */
    "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
    "@group(0) @binding(1) var<storage, read> src: array<f32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "  let i = gid.x;\n"
    "  let u = o[i];\n"
    "  let s = bitcast<i32>(u);\n"
    "  let f = src[i];\n"
    "  var a = u + 3u; a = a - u; a = a * u; a = a / (u | 1u); a = a % (u | 2u);\n"
    "  a = a & u; a = a | 5u; a = a ^ u; a = ~a; a = a << (u & 7u); a = a >> 2u;\n"
    "  a = min(a, u); a = max(a, 9u);\n"
    "  var b = -s; b = b / (s | 1); b = b % (s | 3); b = b >> 1u; b = min(b, s);\n"
    "  b = max(b, -4); b = abs(b);\n"
    "  var c = u32(u == 1u) + u32(u != 2u) + u32(s < 3) + u32(s <= 4) + u32(u < 5u) + u32(u <= 6u);\n"
    "  c += u32(s > 7) + u32(u >= 8u);\n"
    "  var g = f + 1.5; g = g - f; g = g * f; g = g / (f + 2.0); g = g % (f + 3.0); g = -g;\n"
    "  g = abs(g); g = sqrt(g); g = floor(g) + ceil(f); g = min(g, f); g = max(g, 0.25);\n"
    "  g = sin(g) + pow(g, 1.5) + fma(g, f, 2.0);\n"
    "  c += u32(g == f) + u32(g != f) + u32(g < f) + u32(g <= f);\n"
    "  c += countOneBits(u) + extractBits(u, 3u, 4u) + u32(extractBits(s, 2u, 5u));\n"
    "  c += insertBits(u, 7u, 4u, 3u);\n"
    "  c += pack4x8unorm(vec4<f32>(f)) + u32(unpack2x16snorm(u).y) + dot4U8Packed(u, c);\n"
    "  c += u32(i32(g)) + u32(g) + u32(f32(s) + f32(u));\n"
    "  o[i] = select(a, c, f > 0.5) + u32(b);\n"
    "}\n",
    /* control flow, workgroup and private memory, atomics, arrayLength */
    "struct S { n: u32, v: array<u32> };\n"
    "@group(0) @binding(0) var<storage, read_write> s: S;\n"
    "@group(0) @binding(1) var<storage, read_write> cnt: atomic<u32>;\n"
    "var<workgroup> tile: array<u32, 64>;\n"
    "var<workgroup> wcount: atomic<u32>;\n"
    "var<private> p: array<u32, 8>;\n"
    "var<private> q: array<array<u32, 4>, 4>;\n"
    "fn f(x: u32) -> u32 {\n"
    "  if (x > 10u) { return x - 1u; }\n"
    "  return x + 1u;\n"
    "}\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) li: u32,\n"
    "        @builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "  let i = gid.x;\n"
    "  tile[li] = select(0u, s.v[i], i < arrayLength(&s.v));\n"
    "  p[i % 8u] = li;\n"
    "  q[li % 4u][(li / 4u) % 4u] = li;\n"
    "  workgroupBarrier();\n"
    "  if (i >= arrayLength(&s.v)) { return; }\n"
    "  var acc = 0u;\n"
    "  for (var k = 0u; k < 8u; k++) {\n"
    "    if (k == li % 8u) { continue; }\n"
    "    if (acc > 1000u) { break; }\n"
    "    acc += tile[(li + k) % 64u] + p[k] + q[k % 4u][li % 4u];\n"
    "  }\n"
    "  switch (li % 3u) {\n"
    "    case 0u: { acc = f(acc); }\n"
    "    case 1u: { acc += 2u; }\n"
    "    default: { acc ^= 1u; }\n"
    "  }\n"
    "  if (li % 2u == 0u) { acc += 1u; } else { acc += 3u; }\n"
    "  let old = atomicAdd(&cnt, 1u) + atomicMax(&wcount, li);\n"
    "  s.v[i] = acc + old;\n"
    "}\n",
    /* f16 in buffers, workgroup and private memory */
    "enable f16;\n"
    "@group(0) @binding(0) var<storage, read_write> h: array<f16>;\n"
    "var<workgroup> wh: array<f16, 64>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  var ph: array<f16, 4>;\n"
    "  ph[li % 4u] = h[li] * 2.0h;\n"
    "  wh[li] = ph[(li + 1u) % 4u] + 1.0h;\n"
    "  workgroupBarrier();\n"
    "  h[li] = wh[63u - li];\n"
    "}\n",
    /* textures and samplers */
    "@group(0) @binding(0) var src: texture_2d<f32>;\n"
    "@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;\n"
    "@group(0) @binding(2) var smp: sampler;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\n"
    "  let d = textureDimensions(src);\n"
    "  if (gid.x >= d.x || gid.y >= d.y) { return; }\n"
    "  let t = textureLoad(src, gid.xy, 0);\n"
    "  let s = textureSampleLevel(src, smp, vec2<f32>(gid.xy) / vec2<f32>(d), 0.0);\n"
    "  textureStore(dst, gid.xy, t + s);\n"
    "}\n",
    /* subgroup operations */
    "enable subgroups;\n"
    "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(local_invocation_index) li: u32,\n"
    "        @builtin(subgroup_invocation_id) sl: u32) {\n"
    "  let x = o[li];\n"
    "  var r = subgroupAdd(x) + subgroupInclusiveAdd(x) + subgroupExclusiveMul(x);\n"
    "  r += subgroupShuffle(x, sl ^ 1u) + u32(subgroupAll(x > 3u));\n"
    "  r += subgroupBallot(x > 2u).x;\n"
    "  o[li] = r;\n"
    "}\n",
};
#define NSOURCES (sizeof sources / sizeof sources[0])

typedef struct built {
  wgsl_module *m;
  ir_program *p;
} built;

static built build(const char *src) {
  built b;
  b.p = tu_build(src, NULL, 0, &b.m);
  return b;
}

static void unbuild(built b) {
  ir_program_free(b.p);
  wgsl_module_free(b.m);
}

static void test_accepts_lowered_programs(void **state) {
  (void)state;
  for (size_t i = 0; i < NSOURCES; i++) {
    built b = build(sources[i]);
    char err[256];
    const int ok = ir_verify(b.p, err, sizeof err);
    if (!ok) fprintf(stderr, "shader %zu: %s\n", i, err);
    assert_true(ok);
    assert_string_equal(err, "");
    unbuild(b);
  }
}

static void test_covers_every_opcode(void **state) {
  (void)state;
  int seen[IR_OPCODE_COUNT] = {0};
  for (size_t i = 0; i < NSOURCES; i++) {
    built b = build(sources[i]);
    for (uint32_t pc = 0; pc < b.p->ncode; pc++) seen[b.p->code[pc].op] = 1;
    unbuild(b);
  }
  int missing = 0;
  for (unsigned op = 0; op < IR_OPCODE_COUNT; op++)
    if (!seen[op]) {
      fprintf(stderr, "no test shader uses %s\n", ir_op_name(op));
      missing++;
    }
  assert_int_equal(missing, 0);
}

/* ------------------------------------------------------------ mutations */

/* The sub-operation count of an opcode's 'k' operand d, or 0 when d is a
 * free immediate (a stride, a count, a displacement). From ir.h. */
static uint32_t sub_count(unsigned op) {
  switch (op) {
  case IR_FUN1: return IR_F1_COUNT;
  case IR_FUN2: return IR_F2_COUNT;
  case IR_IBIT: return IR_IB_COUNT;
  case IR_PACKC: case IR_UNPACKC: return IR_PK_COUNT;
  case IR_DOT4P: return 2; /* 0 unsigned, 1 signed */
  case IR_ATOMW: return IR_ATOM_COUNT;
  case IR_TQRY: return 5; /* 0..4 */
  case IR_SRED: return IR_SG_COUNT;
  case IR_SCANI: case IR_SCANX: return IR_SG_MUL_H + 1;
  case IR_SHUF: return IR_SH_COUNT;
  case IR_VOTE: return IR_VT_COUNT;
  case IR_BALLOT: return 4;
  default: return 0;
  }
}

/* Registers an 'r' operand spans (op.def's meanings of TLD, TST, TSMP, TQRY). */
static uint32_t run_of(unsigned op, int k) {
  switch (op) {
  case IR_TLD: return k <= 1 ? 4 : 1;
  case IR_TST: return k == 0 ? 3 : k == 1 ? 4 : 1;
  case IR_TSMP: return k == 0 ? 4 : k == 1 ? IR_SMPIN_COUNT : 1;
  case IR_TQRY: return k == 0 ? 3 : 1;
  default: return 1;
  }
}

/* Whether operand a of op is only read (op.def: stores and MAND). */
static int reads_a(unsigned op) {
  return op == IR_STB || op == IR_STW || op == IR_STP || op == IR_STBH || op == IR_STWH ||
         op == IR_STPH || op == IR_TST || op == IR_MAND;
}

/* Bad values for operand k of in, in p: out[] gets up to 6; returns how
 * many. Every one is outside the range the operand's meaning allows. */
static int bad_values(const ir_program *p, const ir_insn *in, int k, uint32_t *out) {
  const char c = ir_op_form(in->op)[k];
  const uint32_t v[4] = {in->a, in->b, in->c, in->d};
  int n = 0;
  switch (c) {
  case '-':
    out[n++] = 1;
    out[n++] = UINT32_MAX;
    break;
  case 'r':
    out[n++] = p->nregs;
    out[n++] = UINT32_MAX;
    if (run_of(in->op, k) > 1) out[n++] = p->nregs - run_of(in->op, k) + 1; /* runs off the end */
    if (k == 0 && !reads_a(in->op) && p->nconsts) out[n++] = 0; /* a constant */
    break;
  case 'm':
    if (in->op == IR_KILL) {
      out[n++] = p->nmasks + 1;
      if (k == 0 && in->b < p->nmasks) out[n++] = in->b + 1; /* a > b */
      if (k == 1 && in->a > 0) out[n++] = in->a - 1;
    } else {
      out[n++] = p->nmasks;
    }
    out[n++] = UINT32_MAX;
    break;
  case 'j':
    out[n++] = p->ncode;
    out[n++] = UINT32_MAX;
    break;
  case 's':
    out[n++] = p->nbindings;
    out[n++] = UINT32_MAX;
    break;
  default: { /* 'k' */
    const uint32_t cnt = sub_count(in->op);
    if (k == 3 && cnt) {
      out[n++] = cnt;
      out[n++] = UINT32_MAX;
      if (in->op == IR_FUN1 || in->op == IR_FUN2) out[n++] = cnt | IR_FUN_F16;
    } else if (k == 3 && in->op == IR_ATOMB) {
      out[n++] = (v[3] & ~0xffu) | IR_ATOM_COUNT;   /* no such operation */
      out[n++] = (v[3] & 0xffu) | p->nbindings << 8; /* no such slot */
    } else if (k == 3 && in->op == IR_TSMP) {
      out[n++] = p->nsamples;
    } else if (k == 3 && (in->op == IR_LDW || in->op == IR_STW)) {
      out[n++] = p->wg_mem_size; /* the word after workgroup memory */
      out[n++] = v[3] + 1;        /* misaligned */
    } else if (k == 3 && (in->op == IR_LDWH || in->op == IR_STWH)) {
      out[n++] = p->wg_mem_size;
      out[n++] = v[3] + 1;
    } else if (k == 3 && (in->op == IR_LDP || in->op == IR_STP)) {
      out[n++] = p->priv_mem_size;
      out[n++] = v[3] + 2;
    } else if (k == 3 && (in->op == IR_LDPH || in->op == IR_STPH)) {
      out[n++] = p->priv_mem_size;
      out[n++] = v[3] + 1;
    } else if (in->op == IR_PZERO && (k == 2 || k == 3)) {
      out[n++] = v[k] + 2;                                       /* misaligned */
      out[n++] = k == 2 ? p->priv_mem_size + 4 : p->priv_mem_size - v[2] + 4; /* past the end */
    } else if (k == 3 && (in->op == IR_LDB || in->op == IR_STB)) {
      out[n++] = v[3] + 2; /* misaligned (any aligned displacement may be in range) */
    } else if (k == 3 && (in->op == IR_LDBH || in->op == IR_STBH)) {
      out[n++] = v[3] + 1;
    } else if (k == 2 && (in->op == IR_PACKC || in->op == IR_UNPACKC)) {
      const int four = v[3] == IR_PK_4X8SNORM || v[3] == IR_PK_4X8UNORM || v[3] >= IR_PK_4XI8;
      out[n++] = four ? 4 : 2;
    } else if (k == 2 && in->op == IR_ARRLEN) {
      out[n++] = 0; /* a stride of 0 */
    }
    break; /* IDX's stride and count, ARRLEN's offset: free immediates */
  }
  }
  return n;
}

/* Whether the message names the pc, the opcode and (for an operand) which. */
static int names_it(const char *err, uint32_t pc, unsigned op, int k) {
  char want[64];
  snprintf(want, sizeof want, "pc %u %s:", (unsigned)pc, ir_op_name(op));
  if (strncmp(err, want, strlen(want)) != 0) return 0;
  if (k < 0) return 1;
  snprintf(want, sizeof want, "operand %c", "abcd"[k]);
  return strstr(err, want) != NULL;
}

typedef struct tally {
  unsigned tried, rejected, named, free_operands;
  unsigned per_op[IR_OPCODE_COUNT];
} tally;

static void try_mutation(ir_program *p, uint32_t pc, int k, uint32_t *field, uint32_t bad,
                         tally *t) {
  const uint32_t keep = *field;
  const unsigned op = p->code[pc].op;
  *field = bad;
  char err[256] = "";
  const int ok = ir_verify(p, err, sizeof err);
  *field = keep;
  t->tried++;
  t->per_op[op]++;
  if (!ok) t->rejected++;
  if (!ok && names_it(err, pc, op, k)) t->named++;
  if (ok || !names_it(err, pc, op, k))
    fprintf(stderr, "pc %u %s operand %c = %u: %s\n", (unsigned)pc, ir_op_name(op), "abcd"[k],
            (unsigned)bad, ok ? "ACCEPTED" : err);
}

static void mutate_program(ir_program *p, tally *t) {
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    ir_insn *in = &p->code[pc];
    uint32_t *f[4] = {&in->a, &in->b, &in->c, &in->d};
    for (int k = 0; k < 4; k++) {
      uint32_t bad[8];
      const int n = bad_values(p, in, k, bad);
      if (!n) t->free_operands++;
      for (int i = 0; i < n; i++) try_mutation(p, pc, k, f[k], bad[i], t);
    }
    /* the opcode itself, and flags where observers do not look */
    const uint16_t op = in->op;
    in->op = IR_OPCODE_COUNT;
    char err[256];
    t->tried++;
    if (!ir_verify(p, err, sizeof err)) t->rejected++, t->named += strncmp(err, "pc ", 3) == 0;
    in->op = op;
    const uint16_t flags = in->flags;
    const int wg = op == IR_LDW || op == IR_STW || op == IR_LDWH || op == IR_STWH || op == IR_ATOMW;
    /* a MAND may carry IR_FLAG_LOOP_TEST, nothing else */
    in->flags = (uint16_t)(wg ? p->nwgvars + 1 : op == IR_MAND ? IR_FLAG_LOOP_TEST + 1 : 1);
    t->tried++;
    if (!ir_verify(p, err, sizeof err)) t->rejected++, t->named += names_it(err, pc, op, -1);
    in->flags = flags;
  }
}

static void test_rejects_every_out_of_range_operand(void **state) {
  (void)state;
  tally t;
  memset(&t, 0, sizeof t);
  for (size_t i = 0; i < NSOURCES; i++) {
    built b = build(sources[i]);
    mutate_program(b.p, &t);
    /* every mutation was undone: the program is as lowered */
    assert_true(ir_verify(b.p, NULL, 0));
    unbuild(b);
  }
  unsigned ops = 0;
  for (unsigned op = 0; op < IR_OPCODE_COUNT; op++) {
    ops += t.per_op[op] > 0;
    if (!t.per_op[op]) fprintf(stderr, "no operand of %s was mutated\n", ir_op_name(op));
  }
  fprintf(stderr, "%u mutations of %u opcodes: %u rejected, %u named pc, opcode and operand; "
                  "%u free immediates left alone\n",
          t.tried, ops, t.rejected, t.named, t.free_operands);
  assert_true(t.tried > 1000);
  assert_int_equal(t.rejected, t.tried);
  assert_int_equal(t.named, t.tried);
}

/* Wrong kinds of binding slot: in range, but not what the opcode reads. */
static void test_rejects_wrong_slot_kinds(void **state) {
  (void)state;
  built b = build(sources[3]); /* texture_2d s0, write-only storage texture s1, sampler s2 */
  ir_program *p = b.p;
  assert_int_equal(p->bindings[0].kind, IR_BIND_SAMPLED_TEXTURE);
  assert_int_equal(p->bindings[1].kind, IR_BIND_WRITE_ONLY_STORAGE_TEXTURE);
  assert_int_equal(p->bindings[2].kind, IR_BIND_SAMPLER);
  unsigned checked = 0;
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    ir_insn *in = &p->code[pc];
    /* textureLoad of the write-only texture, a store into the sampled one,
     * sampling or querying the sampler */
    uint32_t bad = UINT32_MAX;
    if (in->op == IR_TLD) bad = 1;
    if (in->op == IR_TST) bad = 0;
    if (in->op == IR_TSMP || in->op == IR_TQRY) bad = 2;
    if (bad == UINT32_MAX) continue;
    const uint32_t keep = in->c;
    in->c = bad;
    char err[256];
    assert_false(ir_verify(p, err, sizeof err));
    assert_true(names_it(err, pc, in->op, 2));
    assert_non_null(strstr(err, "not a"));
    in->c = keep;
    checked++;
  }
  assert_int_equal(checked, 4);
  /* a descriptor that samples through the texture slot */
  p->samples[0].sampler = p->samples[0].texture;
  char err[256];
  assert_false(ir_verify(p, err, sizeof err));
  assert_non_null(strstr(err, "sampling descriptor 0"));
  unbuild(b);

  /* a store into a read-only buffer */
  b = build(sources[0]);
  p = b.p;
  assert_int_equal(p->bindings[1].kind, IR_BIND_READ_ONLY_STORAGE);
  for (uint32_t pc = 0; pc < p->ncode; pc++)
    if (p->code[pc].op == IR_STB) {
      p->code[pc].c = 1;
      assert_false(ir_verify(p, err, sizeof err));
      assert_true(names_it(err, pc, IR_STB, 2));
      assert_non_null(strstr(err, "read-only storage buffer, not a read_write storage buffer"));
      break;
    }
  unbuild(b);
}

/* The tables beside the code. */
static void test_rejects_bad_tables(void **state) {
  (void)state;
  built b = build(sources[1]);
  ir_program *p = b.p;
  char err[256];

  uint32_t keep = p->nconsts;
  p->nconsts = p->nregs + 1;
  assert_false(ir_verify(p, err, sizeof err));
  assert_non_null(strstr(err, "constants but only"));
  p->nconsts = keep;

  keep = p->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID];
  assert_int_not_equal(keep, IR_NO_REG);
  p->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID] = p->nregs - 2; /* 3 words do not fit */
  assert_false(ir_verify(p, err, sizeof err));
  assert_non_null(strstr(err, "built-in"));
  p->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID] = keep;

  keep = p->bindings[0].kind;
  p->bindings[0].kind = (ir_binding_kind)0;
  assert_false(ir_verify(p, err, sizeof err));
  assert_non_null(strstr(err, "binding slot s0"));
  p->bindings[0].kind = (ir_binding_kind)keep;

  assert_true(p->nwgvars >= 1);
  keep = p->wgvars[0].offset;
  p->wgvars[0].offset = p->wg_mem_size;
  assert_false(ir_verify(p, err, sizeof err));
  assert_non_null(strstr(err, "workgroup variable 'tile'"));
  p->wgvars[0].offset = keep;

  keep = p->nmasks;
  p->nmasks = 0;
  assert_false(ir_verify(p, err, sizeof err));
  p->nmasks = keep;

  /* the code cut short of its END */
  p->ncode--;
  assert_false(ir_verify(p, err, sizeof err));
  p->ncode++;

  assert_true(ir_verify(p, err, sizeof err));
  assert_false(ir_verify(NULL, err, sizeof err));
  unbuild(b);
}

/* The environment variable turns the verifier on in any build; the test
 * suite runs with it set (tests/CMakeLists.txt). */
static void test_wanted(void **state) {
  (void)state;
  const char *e = getenv("LOCKSTEP_VERIFY_IR");
  char *saved = e ? strdup(e) : NULL;
  setenv("LOCKSTEP_VERIFY_IR", "1", 1);
  assert_true(ir_verify_wanted());
  if (saved) setenv("LOCKSTEP_VERIFY_IR", saved, 1);
  else unsetenv("LOCKSTEP_VERIFY_IR");
  free(saved);
}

/* ------------------------------------------- at pipeline creation */

static ls_error_type api_type;
static char api_message[1024];
static int api_errors;

static void on_error(void *user, ls_error_type type, const char *message) {
  (void)user;
  api_type = type;
  snprintf(api_message, sizeof api_message, "%s", message);
  api_errors++;
}

/* A lowering bug, played by the test hook: the first store's binding slot
 * past the end of the table. */
static uint32_t corrupted_pc;
static void corrupt_store(ir_program *p) {
  for (uint32_t pc = 0; pc < p->ncode; pc++)
    if (p->code[pc].op == IR_STB) {
      p->code[pc].c = p->nbindings + 3;
      corrupted_pc = pc;
      return;
    }
}

/* With the verifier on, a program lowering got wrong fails
 * createComputePipeline with an internal error naming the pc, the opcode
 * and the operand, and no pipeline exists to dispatch; the same shader
 * lowered correctly makes a pipeline. */
static void test_pipeline_creation_refuses(void **state) {
  (void)state;
  const char *e = getenv("LOCKSTEP_VERIFY_IR");
  char *saved = e ? strdup(e) : NULL;
  setenv("LOCKSTEP_VERIFY_IR", "1", 1);
  ls_adapter_options o = {.struct_size = LS_STRUCT_SIZE(ls_adapter_options), .threads = 1};
  char err[256];
  ls_adapter *ad = ls_adapter_create(&o, err, sizeof err);
  assert_non_null(ad);
  ls_device_desc dd = {.struct_size = LS_STRUCT_SIZE(ls_device_desc)};
  ls_status st;
  ls_device *dev = ls_adapter_create_device(ad, &dd, &st, err, sizeof err);
  assert_non_null(dev);
  ls_device_set_error_callback(dev, on_error, NULL);
  const ls_shader_module_desc sd = {.struct_size = LS_STRUCT_SIZE(ls_shader_module_desc),
                                    .code = sources[0],
                                    .label = "t.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(dev, &sd);
  assert_true(ls_shader_module_is_valid(m));
  const ls_compute_pipeline_desc pd = {.struct_size = LS_STRUCT_SIZE(ls_compute_pipeline_desc),
                                       .module = m,
                                       .label = "broken"};

  ls_compute_pipeline *good = ls_device_create_compute_pipeline(dev, &pd);
  assert_non_null(good);
  assert_int_equal(api_errors, 0);
  ls_compute_pipeline_release(good);

  lower_pipeline_test_hook = corrupt_store;
  ls_compute_pipeline *bad = ls_device_create_compute_pipeline(dev, &pd);
  lower_pipeline_test_hook = NULL;
  assert_null(bad);
  assert_int_equal(api_errors, 1);
  assert_int_equal(api_type, LS_ERROR_INTERNAL);
  char want[128];
  snprintf(want, sizeof want, "pc %u STB: operand c = s5 is not a binding slot (the program has 2)",
           (unsigned)corrupted_pc);
  if (!strstr(api_message, want)) fprintf(stderr, "got: %s\n", api_message);
  assert_non_null(strstr(api_message, want));
  assert_non_null(strstr(api_message, "'broken'"));

  ls_shader_module_release(m);
  ls_device_release(dev);
  ls_adapter_release(ad);
  if (saved) setenv("LOCKSTEP_VERIFY_IR", saved, 1);
  else unsetenv("LOCKSTEP_VERIFY_IR");
  free(saved);
}

/* ------------------------------------------------------- constant pool */

/* A million distinct constants: each gets the next pool entry in order of
 * first use, and asking again finds the same one. The linear search this
 * replaced took about 5 * 10^11 comparisons here. */
static void test_constant_pool(void **state) {
  (void)state;
  enum { N = 1000000 };
  diag_list d;
  diag_init(&d);
  lw L;
  memset(&L, 0, sizeof L);
  L.d = &d;
  /* i * an odd number is a bijection of u32: N distinct values */
  for (uint32_t i = 0; i < N; i++) {
    const uint32_t r = lw_const(&L, i * 2654435761u);
    if (r != (i | LW_CONST_TAG)) fail_msg("constant %u got register %#x", (unsigned)i, (unsigned)r);
  }
  assert_int_equal(L.nconsts, N);
  for (uint32_t i = 0; i < N; i += 7) {
    assert_int_equal(L.consts[i], i * 2654435761u);
    assert_int_equal(lw_const(&L, i * 2654435761u), i | LW_CONST_TAG);
  }
  assert_int_equal(L.nconsts, N);
  assert_false(L.failed);
  assert_int_equal(d.errors, 0);
  lw_emit_release(&L);
  diag_free(&d);
}

/* A lowered program holds each constant once, however often it is used. */
static void test_constants_once(void **state) {
  (void)state;
  built b = build("@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                  "@compute @workgroup_size(1) fn main() {\n"
                  "  let i = o[0];\n"
                  "  o[i] = 100u; o[i + 7u] = 7u; o[i + 100u] = 100u + i; o[i * 7u] = 7u;\n"
                  "}\n");
  const ir_program *p = b.p;
  int has7 = 0, has100 = 0;
  for (uint32_t i = 0; i < p->nconsts; i++) {
    has7 += p->consts[i] == 7;
    has100 += p->consts[i] == 100;
    for (uint32_t k = i + 1; k < p->nconsts; k++) assert_int_not_equal(p->consts[i], p->consts[k]);
  }
  assert_int_equal(has7, 1);
  assert_int_equal(has100, 1);
  unbuild(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_accepts_lowered_programs),
      cmocka_unit_test(test_covers_every_opcode),
      cmocka_unit_test(test_rejects_every_out_of_range_operand),
      cmocka_unit_test(test_rejects_wrong_slot_kinds),
      cmocka_unit_test(test_rejects_bad_tables),
      cmocka_unit_test(test_wanted),
      cmocka_unit_test(test_pipeline_creation_refuses),
      cmocka_unit_test(test_constant_pool),
      cmocka_unit_test(test_constants_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
