/*
 * verify.c — the bytecode verifier: checks that a lowered program (ir.h) is
 * well formed before anything runs it. Pipeline creation (api/pipeline.c)
 * calls it right after lowering when ir_verify_wanted() says so (Debug
 * builds, the CMake option LOCKSTEP_VERIFY_IR, or the environment variable
 * LOCKSTEP_VERIFY_IR=1); the test suite and the fuzzers call it on every
 * program they lower. A lowering bug then fails pipeline creation with an
 * internal error naming the pc, the opcode and the operand, instead of
 * letting the VM index memory with a bad operand.
 *
 * What it checks, per instruction: every operand against op.def's FORM
 * column ('r' register < nregs, 'm' mask slot < nmasks, 'j' jump target <
 * ncode, 's' binding slot < nbindings, '-' unused and 0) and, from the
 * table below, what the VM's handler (vm/vm_loop.inc) does with it: how
 * many consecutive registers it reads or writes, whether register a is a
 * destination (never a constant), which kind of binding a slot must be,
 * and what an immediate 'k' means (a sub-operation below its count, a
 * workgroup or private displacement inside that memory, a sampling
 * descriptor, a component). Per program: the sizes agree (constants,
 * built-in registers, workgroup variables, binding and sampling tables),
 * and the code ends with END. The checks are a superset of the VM's own
 * per-dispatch check (vm.c, vm_check), which stays as the VM's guard for
 * programs that did not come from lowering.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/lockstep.h"
#include "ir.h"

/* What an operand means beyond its FORM letter. */
enum {
  VF_ANY = 0, /* nothing more than the letter says */
  /* 'r' */
  VF_SRC,     /* operand a is read, not written (stores, TST, MAND) */
  /* 's': the kind of binding the slot must be */
  VF_BUF,     /* uniform, storage, read-only storage or immediate data: loads */
  VF_BUF_RW,  /* read_write storage: stores and atomics */
  VF_STORAGE, /* storage of either access: arrayLength */
  VF_TEX,     /* any texture: queries */
  VF_TEX_RD,  /* a texture textureLoad reads (not a write-only one) */
  VF_TEX_WR,  /* a write-only or read-write storage texture */
  VF_TEX_SMP, /* a sampled texture */
  /* 'k' */
  VF_SUB,     /* a sub-operation below count */
  VF_SUB16,   /* ... which may carry IR_FUN_F16 */
  VF_BUF4,    /* buffer displacement of a word: a multiple of 4 */
  VF_BUF2,    /* ... of an f16: a multiple of 2 */
  VF_WG4,     /* workgroup displacement: an aligned word inside wg_mem_size */
  VF_WG2,     /* ... an aligned f16 */
  VF_PRIV4,   /* private displacement: an aligned word inside priv_mem_size */
  VF_PRIV2,   /* ... an aligned f16 */
  VF_PRIVRUN, /* PZERO's start c and byte count d: multiples of 4, c and
                 c + d inside priv_mem_size */
  VF_ATOMB,   /* IR_ATOM_* | read_write storage slot << 8 */
  VF_SAMPLE,  /* an index into samples[] whose texture is operand c */
  VF_COMP,    /* PACKC / UNPACKC's component of pack function d */
  VF_STRIDE   /* ARRLEN's element stride: not 0 */
};

typedef struct vf_row {
  uint8_t what[4]; /* VF_* per operand a b c d */
  uint8_t run[4];  /* 'r': consecutive registers from the operand (0: 1) */
  uint32_t count;  /* VF_SUB / VF_SUB16: how many sub-operations */
} vf_row;

/* One row per opcode that needs more than its FORM; the others are zero. */
static const vf_row vf_rows[IR_OPCODE_COUNT] = {
    [IR_FUN1] = {{0, 0, 0, VF_SUB16}, {0}, IR_F1_COUNT},
    [IR_FUN2] = {{0, 0, 0, VF_SUB16}, {0}, IR_F2_COUNT},
    [IR_IBIT] = {{0, 0, 0, VF_SUB}, {0}, IR_IB_COUNT},
    [IR_PACKC] = {{0, 0, VF_COMP, VF_SUB}, {0}, IR_PK_COUNT},
    [IR_UNPACKC] = {{0, 0, VF_COMP, VF_SUB}, {0}, IR_PK_COUNT},
    [IR_DOT4P] = {{0, 0, 0, VF_SUB}, {0}, 2},
    [IR_LDB] = {{0, 0, VF_BUF, VF_BUF4}, {0}, 0},
    [IR_STB] = {{VF_SRC, 0, VF_BUF_RW, VF_BUF4}, {0}, 0},
    [IR_LDW] = {{0, 0, 0, VF_WG4}, {0}, 0},
    [IR_STW] = {{VF_SRC, 0, 0, VF_WG4}, {0}, 0},
    [IR_LDP] = {{0, 0, 0, VF_PRIV4}, {0}, 0},
    [IR_STP] = {{VF_SRC, 0, 0, VF_PRIV4}, {0}, 0},
    [IR_PZERO] = {{0, 0, VF_PRIVRUN, VF_PRIVRUN}, {0}, 0},
    [IR_ATOMB] = {{0, 0, 0, VF_ATOMB}, {0}, IR_ATOM_COUNT},
    [IR_ATOMW] = {{0, 0, 0, VF_SUB}, {0}, IR_ATOM_COUNT},
    [IR_TLD] = {{0, 0, VF_TEX_RD, 0}, {4, 4}, 0},
    [IR_TST] = {{VF_SRC, 0, VF_TEX_WR, 0}, {3, 4}, 0},
    [IR_TSMP] = {{0, 0, VF_TEX_SMP, VF_SAMPLE}, {4, IR_SMPIN_COUNT}, 0},
    [IR_TQRY] = {{0, 0, VF_TEX, VF_SUB}, {3, 1}, 5},
    [IR_LDBH] = {{0, 0, VF_BUF, VF_BUF2}, {0}, 0},
    [IR_STBH] = {{VF_SRC, 0, VF_BUF_RW, VF_BUF2}, {0}, 0},
    [IR_LDWH] = {{0, 0, 0, VF_WG2}, {0}, 0},
    [IR_STWH] = {{VF_SRC, 0, 0, VF_WG2}, {0}, 0},
    [IR_LDPH] = {{0, 0, 0, VF_PRIV2}, {0}, 0},
    [IR_STPH] = {{VF_SRC, 0, 0, VF_PRIV2}, {0}, 0},
    [IR_ARRLEN] = {{0, VF_STORAGE, VF_STRIDE, 0}, {0}, 0},
    [IR_SRED] = {{0, 0, 0, VF_SUB}, {0}, IR_SG_COUNT},
    [IR_SCANI] = {{0, 0, 0, VF_SUB}, {0}, IR_SG_MUL_H + 1}, /* the ADD and MUL ones */
    [IR_SCANX] = {{0, 0, 0, VF_SUB}, {0}, IR_SG_MUL_H + 1},
    [IR_SHUF] = {{0, 0, 0, VF_SUB}, {0}, IR_SH_COUNT},
    [IR_VOTE] = {{0, 0, 0, VF_SUB}, {0}, IR_VT_COUNT},
    [IR_BALLOT] = {{0, 0, 0, VF_SUB}, {0}, 4}, /* four words of a vec4<u32> */
    [IR_MAND] = {{VF_SRC}, {0}, 0},
};

int ir_op_reads_a(unsigned op) { return op < IR_OPCODE_COUNT && vf_rows[op].what[0] == VF_SRC; }

unsigned ir_op_run(unsigned op, unsigned k) {
  return op < IR_OPCODE_COUNT && k < 4 && vf_rows[op].run[k] ? vf_rows[op].run[k] : 1u;
}

/* Components each pack function (IR_PK_*) packs or unpacks. */
static const uint8_t vf_pack_comps[IR_PK_COUNT] = {
    [IR_PK_4X8SNORM] = 4,  [IR_PK_4X8UNORM] = 4,  [IR_PK_2X16SNORM] = 2,
    [IR_PK_2X16UNORM] = 2, [IR_PK_2X16FLOAT] = 2, [IR_PK_4XI8] = 4,
    [IR_PK_4XU8] = 4,      [IR_PK_4XI8C] = 4,     [IR_PK_4XU8C] = 4,
};

static const char *const vf_kind_names[] = {
    "?", "uniform buffer", "storage buffer", "read-only storage buffer", "sampled texture",
    "write-only storage texture", "read-only storage texture", "read-write storage texture",
    "sampler", "comparison sampler", "immediate data"};

static const char *vf_kind_name(unsigned k) {
  return k < sizeof vf_kind_names / sizeof vf_kind_names[0] ? vf_kind_names[k] : "?";
}

typedef struct vf {
  const ir_program *p;
  char *err;
  size_t errlen;
} vf;

static int vf_fail(vf *V, const char *fmt, ...) DIAG_PRINTF(2, 3);

/* Writes the reason and returns 0 (the verdict). */
static int vf_fail(vf *V, const char *fmt, ...) {
  if (V->err && V->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(V->err, V->errlen, fmt, ap);
    va_end(ap);
  }
  return 0;
}

/* Whether binding slot s is of the kind `what` asks for. */
static int vf_slot_fits(const ir_program *p, uint32_t s, int what) {
  const unsigned k = p->bindings[s].kind;
  switch (what) {
  case VF_BUF:
    return k == IR_BIND_UNIFORM || k == IR_BIND_STORAGE || k == IR_BIND_READ_ONLY_STORAGE ||
           k == IR_BIND_IMMEDIATE;
  case VF_BUF_RW: return k == IR_BIND_STORAGE;
  case VF_STORAGE: return k == IR_BIND_STORAGE || k == IR_BIND_READ_ONLY_STORAGE;
  case VF_TEX: return IR_BIND_IS_TEXTURE(k);
  case VF_TEX_RD: return IR_BIND_IS_TEXTURE(k) && k != IR_BIND_WRITE_ONLY_STORAGE_TEXTURE;
  case VF_TEX_WR:
    return k == IR_BIND_WRITE_ONLY_STORAGE_TEXTURE || k == IR_BIND_READ_WRITE_STORAGE_TEXTURE;
  case VF_TEX_SMP: return k == IR_BIND_SAMPLED_TEXTURE;
  default: return 1;
  }
}

static const char *vf_slot_wants(int what) {
  switch (what) {
  case VF_BUF: return "a buffer or immediate data";
  case VF_BUF_RW: return "a read_write storage buffer";
  case VF_STORAGE: return "a storage buffer";
  case VF_TEX: return "a texture";
  case VF_TEX_RD: return "a texture that can be read";
  case VF_TEX_WR: return "a writable storage texture";
  case VF_TEX_SMP: return "a sampled texture";
  default: return "?";
  }
}

/* A displacement d of an access of `bytes` into memory of `size` bytes. */
static int vf_disp(vf *V, uint32_t pc, char f, uint32_t d, uint32_t bytes, uint64_t size,
                   const char *mem) {
  const char *op = ir_op_name(V->p->code[pc].op);
  if (d % bytes)
    return vf_fail(V, "pc %u %s: operand %c = %u is not a multiple of %u", pc, op, f, d, bytes);
  if (size != UINT64_MAX && (uint64_t)d + bytes > size)
    return vf_fail(V, "pc %u %s: operand %c = %u is past the end of %s (%llu bytes)", pc, op, f, d,
                   mem, (unsigned long long)size);
  return 1;
}

/* Operand k (0..3 = a..d) of the instruction at pc, of FORM letter c. */
static int vf_operand(vf *V, uint32_t pc, int k, char c) {
  const ir_program *p = V->p;
  const ir_insn *in = &p->code[pc];
  const vf_row *row = &vf_rows[in->op];
  const uint32_t v[4] = {in->a, in->b, in->c, in->d};
  const uint32_t x = v[k];
  const char f = "abcd"[k];
  const char *op = ir_op_name(in->op);
  const int what = row->what[k];
  switch (c) {
  case '-':
    if (x) return vf_fail(V, "pc %u %s: operand %c = %u is unused and must be 0", pc, op, f, x);
    return 1;
  case 'r': {
    const uint32_t run = row->run[k] ? row->run[k] : 1;
    if (x >= p->nregs || p->nregs - x < run)
      return vf_fail(V, "pc %u %s: operand %c = r%u%s is not a register (the program has %u)", pc,
                     op, f, x, run > 1 ? " (with the registers after it)" : "", p->nregs);
    if (k == 0 && what != VF_SRC && x < p->nconsts)
      return vf_fail(V, "pc %u %s: operand a = r%u writes a constant register (constants are r0..r%u)",
                     pc, op, x, p->nconsts - 1);
    return 1;
  }
  case 'm': {
    /* KILL names a range [a, b) of slots: both ends may be nmasks */
    const int range = in->op == IR_KILL;
    if (range ? x > p->nmasks : x >= p->nmasks)
      return vf_fail(V, "pc %u %s: operand %c = m%u is not a mask slot (the program has %u)", pc,
                     op, f, x, p->nmasks);
    if (range && k == 1 && in->a > in->b)
      return vf_fail(V, "pc %u %s: operand a = m%u is past operand b = m%u (the range [a, b) is reversed)",
                     pc, op, in->a, in->b);
    return 1;
  }
  case 'j':
    if (x >= p->ncode)
      return vf_fail(V, "pc %u %s: operand %c = @%u is not an instruction (the program has %u)", pc,
                     op, f, x, p->ncode);
    return 1;
  case 's':
    if (x >= p->nbindings)
      return vf_fail(V, "pc %u %s: operand %c = s%u is not a binding slot (the program has %u)", pc,
                     op, f, x, p->nbindings);
    if (!vf_slot_fits(p, x, what))
      return vf_fail(V, "pc %u %s: operand %c = s%u is a %s, not %s", pc, op, f, x,
                     vf_kind_name(p->bindings[x].kind), vf_slot_wants(what));
    return 1;
  default: break; /* 'k' */
  }
  switch (what) {
  case VF_SUB:
  case VF_SUB16: {
    const uint32_t sub = what == VF_SUB16 ? x & ~IR_FUN_F16 : x;
    if (sub >= row->count)
      return vf_fail(V, "pc %u %s: operand %c = %u is not a sub-operation (there are %u)", pc, op, f,
                     sub, row->count);
    return 1;
  }
  case VF_BUF4: return vf_disp(V, pc, f, x, 4, UINT64_MAX, "");
  case VF_BUF2: return vf_disp(V, pc, f, x, 2, UINT64_MAX, "");
  case VF_WG4: return vf_disp(V, pc, f, x, 4, p->wg_mem_size, "workgroup memory");
  case VF_WG2: return vf_disp(V, pc, f, x, 2, p->wg_mem_size, "workgroup memory");
  case VF_PRIV4: return vf_disp(V, pc, f, x, 4, p->priv_mem_size, "private memory");
  case VF_PRIV2: return vf_disp(V, pc, f, x, 2, p->priv_mem_size, "private memory");
  case VF_PRIVRUN:
    if (x % 4)
      return vf_fail(V, "pc %u %s: operand %c = %u is not a multiple of 4", pc, op, f, x);
    /* c is checked alone, d with c */
    if ((uint64_t)in->c + (f == 'd' ? in->d : 0) > p->priv_mem_size)
      return vf_fail(V, "pc %u %s: operand %c = %u: bytes %u..%llu are past the end of private "
                     "memory (%u bytes)", pc, op, f, x, in->c,
                     (unsigned long long)in->c + (f == 'd' ? in->d : 0), p->priv_mem_size);
    return 1;
  case VF_ATOMB: {
    const uint32_t s = x >> 8;
    if ((x & 0xffu) >= IR_ATOM_COUNT)
      return vf_fail(V, "pc %u %s: operand d = %u: %u is not an atomic operation (there are %u)", pc,
                     op, x, x & 0xffu, (unsigned)IR_ATOM_COUNT);
    if (s >= p->nbindings)
      return vf_fail(V, "pc %u %s: operand d = %u: s%u is not a binding slot (the program has %u)",
                     pc, op, x, s, p->nbindings);
    if (!vf_slot_fits(p, s, VF_BUF_RW))
      return vf_fail(V, "pc %u %s: operand d = %u: s%u is a %s, not %s", pc, op, x, s,
                     vf_kind_name(p->bindings[s].kind), vf_slot_wants(VF_BUF_RW));
    return 1;
  }
  case VF_SAMPLE:
    if (x >= p->nsamples)
      return vf_fail(V, "pc %u %s: operand d = %u is not a sampling descriptor (the program has %u)",
                     pc, op, x, p->nsamples);
    if (p->samples[x].texture != in->c)
      return vf_fail(V, "pc %u %s: operand d = %u describes texture s%u, not operand c = s%u", pc,
                     op, x, p->samples[x].texture, in->c);
    return 1;
  case VF_COMP: {
    const uint32_t n = in->d < IR_PK_COUNT ? vf_pack_comps[in->d] : 4;
    if (x >= n)
      return vf_fail(V, "pc %u %s: operand c = %u is not a component of the function (it has %u)",
                     pc, op, x, n);
    return 1;
  }
  case VF_STRIDE:
    if (!x) return vf_fail(V, "pc %u %s: operand c = 0 is not an element stride", pc, op);
    return 1;
  default: return 1;
  }
}

static int vf_insn(vf *V, uint32_t pc) {
  const ir_program *p = V->p;
  const ir_insn *in = &p->code[pc];
  if (in->op >= IR_OPCODE_COUNT)
    return vf_fail(V, "pc %u: %u is not an opcode (there are %u)", pc, in->op,
                   (unsigned)IR_OPCODE_COUNT);
  const char *form = ir_op_form(in->op);
  /* observers (the sanitizer) name the workgroup variable an access hit
   * by flags = its index + 1 */
  const int wg = in->op == IR_LDW || in->op == IR_STW || in->op == IR_LDWH || in->op == IR_STWH ||
                 in->op == IR_ATOMW;
  if (in->flags && !(in->op == IR_MAND && in->flags == IR_FLAG_LOOP_TEST) &&
      (!wg || in->flags > p->nwgvars))
    return vf_fail(V, "pc %u %s: flags = %u %s", pc, ir_op_name(in->op), in->flags,
                   wg ? "is not a workgroup variable" : "must be 0 for this opcode");
  for (int k = 0; k < 4; k++)
    if (!vf_operand(V, pc, k, form[k])) return 0;
  if (wg && in->flags && in->op != IR_ATOMW) {
    /* the displacement is the variable's place plus a constant offset */
    const ir_wgvar *w = &p->wgvars[in->flags - 1];
    const uint32_t bytes = in->op == IR_LDW || in->op == IR_STW ? 4 : 2;
    if (in->d < w->offset || (uint64_t)in->d + bytes > (uint64_t)w->offset + w->size)
      return vf_fail(V, "pc %u %s: operand d = %u is outside workgroup variable '%s' (bytes %u..%u)",
                     pc, ir_op_name(in->op), in->d, w->name ? w->name : "?", w->offset,
                     w->offset + w->size);
  }
  return 1;
}

/* The tables beside the code: constants, built-ins, bindings, sampling
 * descriptors, workgroup variables, memory sizes. */
static int vf_tables(vf *V) {
  const ir_program *p = V->p;
  static const uint8_t words[IR_BI_COUNT] = {
      [IR_BI_LOCAL_INVOCATION_INDEX] = 1, [IR_BI_LOCAL_INVOCATION_ID] = 3,
      [IR_BI_GLOBAL_INVOCATION_ID] = 3,   [IR_BI_WORKGROUP_ID] = 3,
      [IR_BI_NUM_WORKGROUPS] = 3,         [IR_BI_SUBGROUP_INVOCATION_ID] = 1,
      [IR_BI_SUBGROUP_SIZE] = 1,          [IR_BI_SUBGROUP_ID] = 1,
      [IR_BI_NUM_SUBGROUPS] = 1,          [IR_BI_GLOBAL_INVOCATION_INDEX] = 1,
      [IR_BI_WORKGROUP_INDEX] = 1};
  if (p->nregs > (1u << 24))
    return vf_fail(V, "%u registers: over the VM's limit of %u", p->nregs, 1u << 24);
  if (p->nconsts > p->nregs)
    return vf_fail(V, "%u constants but only %u registers", p->nconsts, p->nregs);
  if (p->nconsts && !p->consts) return vf_fail(V, "%u constants but no constant table", p->nconsts);
  if (!p->nmasks) return vf_fail(V, "no mask slot (the entry needs slot 0)");
  for (unsigned i = 0; i < IR_BI_COUNT; i++) {
    const uint32_t r = p->builtin_reg[i];
    if (r != IR_NO_REG && (r < p->nconsts || r >= p->nregs || p->nregs - r < words[i]))
      return vf_fail(V, "built-in %u: r%u is not a register for its %u word(s) (constants r0..r%u, %u registers)",
                     i, r, words[i], p->nconsts ? p->nconsts - 1 : 0, p->nregs);
  }
  for (int k = 0; k < 3; k++)
    if (!p->wg_size[k]) return vf_fail(V, "workgroup size %c is 0", "xyz"[k]);
  if (p->wg_mem_size % 4 || p->priv_mem_size % 4)
    return vf_fail(V, "memory sizes %u (workgroup) and %u (private) must be multiples of 4",
                   p->wg_mem_size, p->priv_mem_size);
  if (p->nbindings && !p->bindings) return vf_fail(V, "%u binding slots but no table", p->nbindings);
  for (uint32_t s = 0; s < p->nbindings; s++) {
    const ir_binding *b = &p->bindings[s];
    if (b->kind < IR_BIND_UNIFORM || b->kind > IR_BIND_IMMEDIATE)
      return vf_fail(V, "binding slot s%u: %u is not a binding kind", s, (unsigned)b->kind);
    if (IR_BIND_IS_TEXTURE(b->kind) && (b->tex_dim < IR_TEXDIM_1D || b->tex_dim > IR_TEXDIM_3D ||
                                        b->tex_sample > IR_TEXS_DEPTH))
      return vf_fail(V, "binding slot s%u: texture dimension %u or sample type %u out of range", s,
                     (unsigned)b->tex_dim, (unsigned)b->tex_sample);
    if (b->kind >= IR_BIND_WRITE_ONLY_STORAGE_TEXTURE &&
        b->kind <= IR_BIND_READ_WRITE_STORAGE_TEXTURE &&
        (b->tex_format == LS_FORMAT_UNDEFINED || b->tex_format >= LS_FORMAT_COUNT_))
      return vf_fail(V, "binding slot s%u: %u is not a texel format", s, b->tex_format);
  }
  if (p->nsamples && !p->samples) return vf_fail(V, "%u sampling descriptors but no table", p->nsamples);
  for (uint32_t i = 0; i < p->nsamples; i++) {
    const ir_sample *sm = &p->samples[i];
    if (sm->texture >= p->nbindings || p->bindings[sm->texture].kind != IR_BIND_SAMPLED_TEXTURE)
      return vf_fail(V, "sampling descriptor %u: s%u is not a sampled texture", i, sm->texture);
    if (sm->sampler >= p->nbindings || !IR_BIND_IS_SAMPLER(p->bindings[sm->sampler].kind))
      return vf_fail(V, "sampling descriptor %u: s%u is not a sampler", i, sm->sampler);
    const int cmp = sm->kind == IR_SMP_GATHER_CMP || sm->kind == IR_SMP_CMP_LEVEL;
    if (sm->kind > IR_SMP_CMP_LEVEL || sm->component > 3 ||
        cmp != (p->bindings[sm->sampler].kind == IR_BIND_COMPARISON_SAMPLER))
      return vf_fail(V, "sampling descriptor %u: kind %u, component %u or its sampler's kind out of range",
                     i, sm->kind, sm->component);
  }
  if (p->nwgvars && !p->wgvars) return vf_fail(V, "%u workgroup variables but no table", p->nwgvars);
  for (uint32_t i = 0; i < p->nwgvars; i++) {
    const ir_wgvar *w = &p->wgvars[i];
    if ((uint64_t)w->offset + w->size > p->wg_mem_size)
      return vf_fail(V, "workgroup variable '%s': bytes %u..%llu are outside workgroup memory (%u bytes)",
                     w->name ? w->name : "?", w->offset, (unsigned long long)w->offset + w->size,
                     p->wg_mem_size);
  }
  return 1;
}

int ir_verify(const ir_program *p, char *err, size_t errlen) {
  vf V = {p, err, errlen};
  if (err && errlen) err[0] = '\0';
  if (!p) return vf_fail(&V, "no program");
  if (!p->ncode || !p->code) return vf_fail(&V, "no code");
  if (!p->spans) return vf_fail(&V, "no source spans");
  if (!vf_tables(&V)) return 0;
  for (uint32_t pc = 0; pc < p->ncode; pc++) {
    if (!vf_insn(&V, pc)) return 0;
    const src_span s = p->spans[pc];
    if (p->source && (s.start > s.end || s.end > p->source_len))
      return vf_fail(&V, "pc %u %s: source span %u..%u is outside the source (%u bytes)", pc,
                     ir_op_name(p->code[pc].op), s.start, s.end, p->source_len);
  }
  /* running past the last instruction is an END the VM supplies, but
   * lowering always writes one: a missing END is a truncated program */
  if (p->code[p->ncode - 1].op != IR_END)
    return vf_fail(&V, "pc %u %s: the program does not end with END", p->ncode - 1,
                   ir_op_name(p->code[p->ncode - 1].op));
  return 1;
}

int ir_verify_wanted(void) {
#if defined(LS_VERIFY_IR)
  return 1;
#else
  const char *e = getenv("LOCKSTEP_VERIFY_IR");
  return e && *e && strcmp(e, "0") != 0;
#endif
}
