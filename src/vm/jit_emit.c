/*
 * jit_emit.c — the compiled tier's code generator: one program at one
 * subgroup width as a C function, vm_jit_sg (vm_jit_abi.h), that runs a
 * workgroup's subgroups the way the plain interpreter does, for the host's
 * C compiler (jit.c compiles, caches and loads it).
 *
 * Registers are local vector variables (GCC's vector extension, W lanes),
 * so the compiler keeps them in machine registers across instructions and
 * loops; the interpreter stores and reloads a row per instruction and pays
 * a dispatch each. Everything else is the interpreter's own code: the lane
 * helpers (vm_lane.h) and the loads and stores (vm_lanes.inc) are the same
 * text, compiled in the prelude, and the rare operations call the
 * library's row functions. Instruction counts and the budget follow the
 * interpreter exactly: each straight-line block adds its length on entry,
 * and every taken jump compares the budget, with the count the
 * interpreter has there. At a barrier the registers live after it go to
 * the subgroup's rows of the register file, and come back on resumption;
 * one call runs every subgroup of the workgroup through every barrier, to
 * the workgroup's end.
 *
 * Built with obs, the function also reports to the dispatch's observer
 * what the observed interpreter would, where it would: per-run counts,
 * and for one that summarises (the profiler: observe.h) coalesced and
 * one-word request counts and divergence, calls for the rest; for one
 * that does not (the sanitizer) every request, branch, barrier and end
 * (vm_jit_rt.inc's JIT_O* macros, jit_obs.c).
 *
 * Texture operations hand their rows to the library (vm_jit_fns.tex,
 * which also makes an observer's texel event), f16 memory uses the
 * prelude's row functions (observed code reports it as the observed
 * interpreter does: always the whole event). A
 * program whose function would pass JIT_MAX_BODY bytes of C is not
 * compiled at all (vm_jit_source returns NULL): the C
 * compiler's time grows faster than the text (about 6 s for 150 KB, 30 s
 * for 870 KB with gcc -O2), so a large program at a wide subgroup over
 * narrow vectors (W = 64 on SSE2: 16 pieces a register) is left to the
 * interpreter.
 */
#include "vm_interp.h" /* vm_segments */
#include "vm_jit.h"
#include "../util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JIT_MAX_BODY (128u * 1024u)

/* How an opcode is compiled. V: RA = the vector expression; C: a compare,
 * the text its lanes as a mask (every bit set where it holds), RA = the
 * mask & 1; L: RA = the lane expression for each lane, in the uint32
 * elements a, b, c of operands b, c, d and o of RA's old value; S: code of
 * its own (below).
 * In expressions, $b $c $d name operand registers, $C $D the immediates
 * c and d. NULL: not compiled. */
typedef struct jit_form {
  char kind;
  const char *text;
} jit_form;

static const jit_form jit_forms[IR_OPCODE_COUNT] = {
    [IR_MOV] = {'V', "$b"},
    [IR_MOVM] = {'S', NULL},
    [IR_SELECT] = {'V', "JSEL((VP)($d != 0), $c, $b)"},
    [IR_IADD] = {'V', "$b + $c"},
    [IR_ISUB] = {'V', "$b - $c"},
    [IR_IMUL] = {'V', "$b * $c"},
    [IR_INEG] = {'V', "-$b"},
    [IR_SDIV] = {'L', "(uint32_t)vm_sdiv((int32_t)a, (int32_t)b)"},
    [IR_UDIV] = {'L', "vm_udiv(a, b)"},
    [IR_SREM] = {'L', "(uint32_t)vm_srem((int32_t)a, (int32_t)b)"},
    [IR_UREM] = {'L', "vm_urem(a, b)"},
    [IR_AND] = {'V', "$b & $c"},
    [IR_OR] = {'V', "$b | $c"},
    [IR_XOR] = {'V', "$b ^ $c"},
    [IR_NOT] = {'V', "~$b"},
    [IR_SHL] = {'V', "$b << ($c & 31u)"},
    [IR_SHRU] = {'V', "$b >> ($c & 31u)"},
    [IR_SHRS] = {'V', "(VP)((VPI)$b >> (VPI)($c & 31u))"},
    [IR_SMIN] = {'V', "JSEL((VP)((VPI)$b < (VPI)$c), $b, $c)"},
    [IR_SMAX] = {'V', "JSEL((VP)((VPI)$b > (VPI)$c), $b, $c)"},
    [IR_UMIN] = {'V', "JSEL((VP)($b < $c), $b, $c)"},
    [IR_UMAX] = {'V', "JSEL((VP)($b > $c), $b, $c)"},
    [IR_SABS] = {'V', "JSEL((VP)((VPI)$b < 0), -$b, $b)"},
    [IR_IEQ] = {'C', "(VP)($b == $c)"},
    [IR_INE] = {'C', "(VP)($b != $c)"},
    [IR_SLT] = {'C', "(VP)((VPI)$b < (VPI)$c)"},
    [IR_SLE] = {'C', "(VP)((VPI)$b <= (VPI)$c)"},
    [IR_ULT] = {'C', "(VP)($b < $c)"},
    [IR_ULE] = {'C', "(VP)($b <= $c)"},
    [IR_FADD] = {'V', "(VP)((VPF)$b + (VPF)$c)"},
    [IR_FSUB] = {'V', "(VP)((VPF)$b - (VPF)$c)"},
    [IR_FMUL] = {'V', "(VP)((VPF)$b * (VPF)$c)"},
    [IR_FDIV] = {'V', "(VP)((VPF)$b / (VPF)$c)"},
    [IR_FREM] = {'L', "vm_f2u_bits(jit_frem(vm_bits_f(a), vm_bits_f(b)))"},
    [IR_FNEG] = {'V', "$b ^ 0x80000000u"},
    [IR_FABS] = {'V', "$b & 0x7fffffffu"},
    [IR_FSQRT] = {'S', NULL},
    [IR_FFLOOR] = {'L', "vm_f2u_bits(vm_floorf(vm_bits_f(a)))"},
    [IR_FCEIL] = {'L', "vm_f2u_bits(vm_ceilf(vm_bits_f(a)))"},
    [IR_FMIN] = {'L', "vm_f2u_bits(vm_fmin(vm_bits_f(a), vm_bits_f(b)))"},
    [IR_FMAX] = {'L', "vm_f2u_bits(vm_fmax(vm_bits_f(a), vm_bits_f(b)))"},
    [IR_FEQ] = {'C', "(VP)((VPF)$b == (VPF)$c)"},
    [IR_FNE] = {'C', "(VP)((VPF)$b != (VPF)$c)"},
    [IR_FLT] = {'C', "(VP)((VPF)$b < (VPF)$c)"},
    [IR_FLE] = {'C', "(VP)((VPF)$b <= (VPF)$c)"},
    [IR_FUN1] = {'S', NULL},
    [IR_FUN2] = {'S', NULL},
    [IR_FMA] = {'L', "vm_f2u_bits(fmaf(vm_bits_f(a), vm_bits_f(b), vm_bits_f(c)))"},
    [IR_IBIT] = {'S', NULL},
    [IR_BFEXTU] = {'L', "bitfn_extract(a, b, c, 0)"},
    [IR_BFEXTS] = {'L', "bitfn_extract(a, b, c, 1)"},
    [IR_BFINS] = {'L', "bitfn_insert(o, a, b, c)"},
    [IR_PACKC] = {'S', NULL},
    [IR_UNPACKC] = {'S', NULL},
    [IR_DOT4P] = {'L', "bitfn_dot4(a, b, $D != 0)"},
    [IR_F2S] = {'L', "(uint32_t)vm_f2s(vm_bits_f(a))"},
    [IR_F2U] = {'L', "vm_f2u(vm_bits_f(a))"},
    [IR_S2F] = {'V', "(VP)__builtin_convertvector((VPI)$b, VPF)"},
    [IR_U2F] = {'L', "vm_f2u_bits((float)a)"},
    [IR_IDX] = {'S', NULL},
    [IR_AADD] = {'S', NULL},
    [IR_LDB] = {'S', NULL},
    [IR_STB] = {'S', NULL},
    [IR_LDW] = {'S', NULL},
    [IR_STW] = {'S', NULL},
    [IR_LDP] = {'S', NULL},
    [IR_STP] = {'S', NULL},
    [IR_PZERO] = {'S', NULL},
    [IR_ATOMB] = {'S', NULL},
    [IR_ATOMW] = {'S', NULL},
    [IR_ARRLEN] = {'S', NULL},
    [IR_F16R] = {'L', "vm_r16_bits(a)"},
    [IR_LDBH] = {'S', NULL},
    [IR_STBH] = {'S', NULL},
    [IR_LDWH] = {'S', NULL},
    [IR_STWH] = {'S', NULL},
    [IR_LDPH] = {'S', NULL},
    [IR_STPH] = {'S', NULL},
    [IR_TLD] = {'S', NULL},
    [IR_TST] = {'S', NULL},
    [IR_TSMP] = {'S', NULL},
    [IR_TQRY] = {'S', NULL},
    [IR_SRED] = {'S', NULL},
    [IR_SCANI] = {'S', NULL},
    [IR_SCANX] = {'S', NULL},
    [IR_SHUF] = {'S', NULL},
    [IR_VOTE] = {'S', NULL},
    [IR_BALLOT] = {'S', NULL},
    [IR_MSAVE] = {'S', NULL},
    [IR_MLOAD] = {'S', NULL},
    [IR_MAND] = {'S', NULL},
    [IR_MANDN] = {'S', NULL},
    [IR_KILL] = {'S', NULL},
    [IR_JMP] = {'S', NULL},
    [IR_JNONE] = {'S', NULL},
    [IR_JANY] = {'S', NULL},
    [IR_BARRIER] = {'S', NULL},
    [IR_END] = {'S', NULL},
};

/* Liveness in two levels. A register is needed in every lane (F), or only
 * in the lanes active at that point (A): a value read only on the active
 * lanes (an address, a stored value, a masked move's source, a condition)
 * or by lane-wise arithmetic whose result is needed there. A masked write
 * (a load, a masked move: the other lanes keep the old value) then ends
 * the old value's life when the register is needed only on the active
 * lanes after it, since those lanes are the ones written: exec only
 * narrows between (MAND, KILL) or, where it may widen (MLOAD, MANDN), A
 * becomes F. So a workgroup reduction's loaded values are no longer live
 * around its loop and across its barriers, where the one-level analysis
 * kept them (and saved and reloaded them at every barrier), only because
 * a masked load reads its destination. The lanes that are not needed may
 * then hold anything (another subgroup's values in the locals), which no
 * result sees. Observed code hands whole address and value rows to the
 * observer (JIT_OMEM), so there memory operands are needed in every lane. */
enum { JR_LANE, JR_ACTIVE, JR_ALL };

/* How op reads its register operands (the destination's old value aside) */
static int jit_read_class(unsigned op, int obs) {
  switch (op) {
  case IR_MOVM: case IR_MAND:
    return JR_ACTIVE;
  case IR_LDB: case IR_STB: case IR_LDW: case IR_STW: case IR_LDP: case IR_STP: case IR_ATOMB:
  case IR_ATOMW: case IR_LDBH: case IR_STBH: case IR_LDWH: case IR_STWH: case IR_LDPH:
  case IR_STPH:
    return obs ? JR_ALL : JR_ACTIVE;
  case IR_FSQRT: case IR_FUN1: case IR_FUN2: case IR_IBIT: case IR_PACKC: case IR_UNPACKC:
  case IR_IDX: case IR_AADD:
    return JR_LANE;
  default:
    return op < IR_OPCODE_COUNT && (jit_forms[op].kind == 'V' || jit_forms[op].kind == 'C' ||
                                    jit_forms[op].kind == 'L')
               ? JR_LANE
               : JR_ALL;
  }
}

/* Whether operand a is a result (else it is read: stores, TST, MAND). */
static int jit_writes_a(unsigned op) {
  return ir_op_form(op)[0] == 'r' && !ir_op_reads_a(op);
}

/* ------------------------------------------------------------- liveness */

typedef struct jit_live {
  uint32_t words;  /* per pc */
  uint64_t *in;    /* [ncode + 1][words]: registers live on entry to pc */
  uint64_t *set;   /* [words]: registers some instruction writes */
} jit_live;

#define JBIT(set, r) ((set)[(r) >> 6] >> ((r) & 63) & 1u)
#define JSET(set, r) ((set)[(r) >> 6] |= UINT64_C(1) << ((r) & 63))
#define JCLR(set, r) ((set)[(r) >> 6] &= ~(UINT64_C(1) << ((r) & 63)))

/* The rows of a texture operation, the ones whose operands span several
 * registers (ir_op_run): its results from a (masked: the lanes not live
 * keep their value, but TQRY's, which writes every lane, and only the
 * first row but for the size), its operands from b, and for TST (a read)
 * the address rows from a. */
typedef struct jit_texrows {
  uint32_t nd, ns, na; /* result rows, operand rows from b, TST's address rows */
  int masked;
} jit_texrows;

static int jit_texture_op(const ir_insn *in, jit_texrows *t) {
  const unsigned ra = ir_op_run(in->op, 0), rb = ir_op_run(in->op, 1);
  if (ra == 1 && rb == 1) return 0;
  const int reads_a = ir_op_reads_a(in->op), query = in->op == IR_TQRY;
  *t = (jit_texrows){reads_a ? 0u : query && in->d ? 1u : ra, rb, reads_a ? ra : 0u, !query};
  return 1;
}

/* One instruction backwards: f and a (W words each) hold what is needed
 * in every lane and on the active lanes after pc, and become what is
 * needed before it. */
static void jit_step(const ir_insn *in, uint64_t *f, uint64_t *a, uint32_t W, int obs) {
  const unsigned op = in->op;
  if (op == IR_MLOAD || op == IR_MANDN) /* exec may widen: active lanes after are any lanes before */
    for (uint32_t k = 0; k < W; k++) f[k] |= a[k], a[k] = 0;
  jit_texrows tr;
  if (jit_texture_op(in, &tr)) { /* operands read in every lane */
    for (uint32_t k = 0; k < tr.nd; k++) {
      const int df = (int)JBIT(f, in->a + k);
      JCLR(f, in->a + k);
      JCLR(a, in->a + k);
      if (tr.masked && df) JSET(f, in->a + k);
    }
    for (uint32_t k = 0; k < tr.ns; k++) JSET(f, in->b + k);
    for (uint32_t k = 0; k < tr.na; k++) JSET(f, in->a + k);
    return;
  }
  const int cls = jit_read_class(op, obs);
  int all = cls == JR_ALL;
  if (jit_writes_a(op)) {
    const uint32_t d = in->a;
    const int df = (int)JBIT(f, d);
    JCLR(f, d);
    JCLR(a, d);
    switch (op) {
    case IR_MOVM: case IR_LDB: case IR_LDW: case IR_LDP: case IR_LDBH: case IR_LDWH:
    case IR_LDPH: /* the other lanes keep the old value */
      if (df) JSET(f, d);
      break;
    case IR_ATOMB: case IR_ATOMW: /* also compared on the active lanes (CMPX) */
    case IR_BFINS:                  /* reads its destination lane by lane */
      JSET(df ? f : a, d);
      break;
    case IR_SCANI: case IR_SCANX: case IR_SHUF: case IR_VOTE:
      JSET(f, d);
      break;
    default: break;
    }
    if (cls == JR_LANE && df) all = 1;
  }
  const char *form = ir_op_form(op);
  const uint32_t v[4] = {in->a, in->b, in->c, in->d};
  for (int k = jit_writes_a(op) ? 1 : 0; k < 4; k++)
    if (form[k] == 'r') JSET(all ? f : a, v[k]);
}

/* Backward liveness of the registers to a fixed point: f and a, W words a
 * pc, on entry to each pc. */
static int jit_flow(const ir_program *p, uint64_t *f, uint64_t *a, uint32_t W, int obs) {
  const uint32_t n = p->ncode;
  uint64_t *of = calloc(2 * (W ? W : 1), sizeof *of);
  if (!of) return 0;
  uint64_t *oa = of + W;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t pc = n; pc-- > 0;) {
      const ir_insn *in = &p->code[pc];
      const unsigned op = in->op;
      memset(of, 0, 2 * W * sizeof *of);
      if (op == IR_JMP || op == IR_JNONE || op == IR_JANY)
        for (uint32_t k = 0; k < W; k++)
          of[k] |= f[(size_t)in->a * W + k], oa[k] |= a[(size_t)in->a * W + k];
      if (op != IR_JMP && op != IR_END)
        for (uint32_t k = 0; k < W; k++)
          of[k] |= f[(size_t)(pc + 1) * W + k], oa[k] |= a[(size_t)(pc + 1) * W + k];
      jit_step(in, of, oa, W, obs);
      uint64_t *atf = f + (size_t)pc * W, *ata = a + (size_t)pc * W;
      if (memcmp(atf, of, W * sizeof *of) || memcmp(ata, oa, W * sizeof *oa)) {
        memcpy(atf, of, W * sizeof *of);
        memcpy(ata, oa, W * sizeof *oa);
        changed = 1;
      }
    }
  }
  free(of);
  return 1;
}

/* lv->in: the registers needed at each pc, in any lane (what a barrier
 * saves and a resume takes back). */
static int jit_liveness(const ir_program *p, jit_live *lv, int obs) {
  const uint32_t n = p->ncode;
  lv->words = (p->nregs + 63) / 64;
  const size_t cells = (size_t)(n + 1) * lv->words + 1;
  lv->in = calloc(cells, sizeof *lv->in);
  lv->set = calloc(lv->words + 1, sizeof *lv->set);
  uint64_t *act = calloc(cells, sizeof *act);
  const int ok = lv->in && lv->set && act && jit_flow(p, lv->in, act, lv->words, obs);
  if (ok) {
    for (size_t i = 0; i < cells; i++) lv->in[i] |= act[i];
    for (uint32_t pc = 0; pc < n; pc++) {
      const ir_insn *in = &p->code[pc];
      jit_texrows tr;
      if (jit_texture_op(in, &tr)) {
        for (uint32_t k = 0; k < tr.nd; k++) JSET(lv->set, in->a + k);
      } else if (jit_writes_a(in->op)) {
        JSET(lv->set, in->a);
      }
    }
  }
  free(act);
  return ok;
}

static void jit_live_free(jit_live *lv) {
  free(lv->in);
  free(lv->set);
}

/* ------------------------------------------------------------- emission */

/* "$b" etc. of a template, expanded for piece k of one instruction. */
static void jit_expand(strbuf *b, const char *t, const ir_insn *in, uint32_t k) {
  for (; *t; t++) {
    if (*t != '$') {
      strbuf_printf(b, "%c", *t);
      continue;
    }
    t++;
    switch (*t) {
    case 'b': strbuf_printf(b, "R%u_%u", in->b, k); break;
    case 'c': strbuf_printf(b, "R%u_%u", in->c, k); break;
    case 'd': strbuf_printf(b, "R%u_%u", in->d, k); break;
    case 'C': strbuf_printf(b, "%uu", in->c); break;
    case 'D': strbuf_printf(b, "%uu", in->d); break;
    default: strbuf_printf(b, "$"); t--; break;
    }
  }
}

static int jit_is_jump(unsigned op) {
  return op == IR_JMP || op == IR_JNONE || op == IR_JANY || op == IR_BARRIER || op == IR_END;
}

/* An atomic on memory that only this thread touches (workgroup memory G;
 * storage D<slot> with one worker): inline, with the new word computed
 * from old_ and v_ as vm_atomic_plain does, except compare-exchange, which
 * calls it. */
static void jit_atom_plain(strbuf *b, uint32_t a, uint32_t x, uint32_t y, uint32_t op,
                           const char *base, const char *size) {
  static const struct {
    int kind; /* 0: load, 1: read-modify-write, 2: store */
    const char *nv;
  } ops[IR_ATOM_COUNT] = {
      [IR_ATOM_LOAD] = {0, "old_"},
      [IR_ATOM_STORE] = {2, "v_"},
      [IR_ATOM_ADD] = {1, "old_ + v_"},
      [IR_ATOM_SUB] = {1, "old_ - v_"},
      [IR_ATOM_MAX_S] = {1, "(int32_t)old_ > (int32_t)v_ ? old_ : v_"},
      [IR_ATOM_MAX_U] = {1, "old_ > v_ ? old_ : v_"},
      [IR_ATOM_MIN_S] = {1, "(int32_t)old_ < (int32_t)v_ ? old_ : v_"},
      [IR_ATOM_MIN_U] = {1, "old_ < v_ ? old_ : v_"},
      [IR_ATOM_AND] = {1, "old_ & v_"},
      [IR_ATOM_OR] = {1, "old_ | v_"},
      [IR_ATOM_XOR] = {1, "old_ ^ v_"},
      [IR_ATOM_XCHG] = {1, "v_"},
  };
  if (op < IR_ATOM_COUNT && ops[op].nv)
    strbuf_printf(b, "JIT_ATOMI(%u, %u, %u, %s, %s, %d, %s)", a, x, y, base, size, ops[op].kind,
                  ops[op].nv);
  else
    strbuf_printf(b, "JIT_ATOM(%u, %u, %u, %s, %s, %uu, FN->atomic_plain)", a, x, y, base, size, op);
}

/* What an observed run reports before a memory request (obs): JIT_OMEM
 * with the access, space, slot, atomic op, address register, displacement,
 * value register (or none) and size, fast for a buffer load or store. */
static void jit_omem(strbuf *b, uint32_t pc, unsigned acc, unsigned sp, uint32_t slot,
                     uint32_t aop, uint32_t adr, uint32_t disp, int64_t val, const char *size) {
  char fill[32] = "(void)0;";
  if (val >= 0) snprintf(fill, sizeof fill, "JIT_FILLV(%u)", (unsigned)val);
  const int fast = sp == VM_JIT_BUFFER && acc != VM_JIT_ATOMIC;
  if (fast)
    strbuf_printf(b, "JIT_OMEMF(%u, %u, %uu, %s, %u, %u, %s, %s, ", pc, adr, disp, size, acc, slot,
                  fill, val >= 0 ? "ov_.u" : "(const uint32_t *)NULL");
  strbuf_printf(b, "JIT_OMEM(%u, %u, %u, %u, %u, %u, %uu, %s, %s, %s)", pc, acc, sp, slot, aop,
                adr, disp, fill, val >= 0 ? "ov_.u" : "(const uint32_t *)NULL", size);
  strbuf_printf(b, fast ? ")\n" : "\n");
}

/* An f16 request (JIT_OMEMH): private memory only to an observer that
 * does not summarise, and a store's lanes into wr as VM_OBS_WROTE does. */
static void jit_omemh(strbuf *b, uint32_t pc, unsigned acc, unsigned sp, uint32_t slot,
                      uint32_t adr, uint32_t disp, int64_t val) {
  char size[16] = "GZ", fill[32] = "(void)0;";
  if (sp == VM_JIT_BUFFER) snprintf(size, sizeof size, "Z%u", slot);
  if (sp == VM_JIT_PRIVATE) snprintf(size, sizeof size, "PZ");
  if (val >= 0) snprintf(fill, sizeof fill, "JIT_FILLV(%u)", (unsigned)val);
  strbuf_printf(b, "%sJIT_OMEMH(%u, %u, %u, %u, %u, %uu, %s, %s, %s)%s\n",
                sp == VM_JIT_PRIVATE ? "if (!OSM) { " : "", pc, acc, sp, slot, adr, disp, fill,
                val >= 0 ? "ov_.u" : "(const uint32_t *)NULL", size,
                sp == VM_JIT_PRIVATE ? " }" : "");
  if (acc == VM_JIT_STORE && sp != VM_JIT_PRIVATE) strbuf_printf(b, "wr |= exec; ");
}

/* What observed code reports before instruction pc (vm_loop.inc reports
 * these before the instruction runs: a load may overwrite its own address
 * register); MAND / MANDN report after (jit_special). */
static void jit_obs_before(strbuf *b, const ir_program *p, uint32_t pc) {
  const ir_insn *in = &p->code[pc];
  const unsigned a = in->a, x = in->b, y = in->c, z = in->d;
  char zs[16];
  switch (in->op) {
  case IR_LDB:
    snprintf(zs, sizeof zs, "Z%u", y);
    if (x < p->nconsts)
      strbuf_printf(b, "JIT_OMEMK(%u, %u, %u, %uu, %uu, Z%u)\n", pc, y, x, p->consts[x], z, y);
    else
      jit_omem(b, pc, VM_JIT_LOAD, VM_JIT_BUFFER, y, 0, x, z, -1, zs);
    break;
  case IR_STB:
    snprintf(zs, sizeof zs, "Z%u", y);
    jit_omem(b, pc, VM_JIT_STORE, VM_JIT_BUFFER, y, 0, a, z, x, zs);
    strbuf_printf(b, "wr |= exec; ");
    break;
  case IR_LDW: jit_omem(b, pc, VM_JIT_LOAD, VM_JIT_WORKGROUP, 0, 0, x, z, -1, "GZ"); break;
  case IR_STW:
    jit_omem(b, pc, VM_JIT_STORE, VM_JIT_WORKGROUP, 0, 0, a, z, x, "GZ");
    strbuf_printf(b, "wr |= exec; ");
    break;
  case IR_ATOMB:
    snprintf(zs, sizeof zs, "Z%u", z >> 8);
    jit_omem(b, pc, VM_JIT_ATOMIC, VM_JIT_BUFFER, z >> 8, z & 0xffu, x, 0, y, zs);
    if ((z & 0xffu) != IR_ATOM_LOAD) strbuf_printf(b, "wr |= exec; ");
    break;
  case IR_ATOMW:
    jit_omem(b, pc, VM_JIT_ATOMIC, VM_JIT_WORKGROUP, 0, z, x, 0, y, "GZ");
    if (z != IR_ATOM_LOAD) strbuf_printf(b, "wr |= exec; ");
    break;
  case IR_LDP: /* private memory: not reported to a summarising observer */
    strbuf_printf(b, "if (!OSM) { ");
    jit_omem(b, pc, VM_JIT_LOAD, VM_JIT_PRIVATE, 0, 0, x, z, -1, "PZ");
    strbuf_printf(b, "}\n");
    break;
  case IR_STP:
    strbuf_printf(b, "if (!OSM) { ");
    jit_omem(b, pc, VM_JIT_STORE, VM_JIT_PRIVATE, 0, 0, a, z, x, "PZ");
    strbuf_printf(b, "}\n");
    break;
  case IR_LDBH: jit_omemh(b, pc, VM_JIT_LOAD, VM_JIT_BUFFER, y, x, z, -1); break;
  case IR_STBH: jit_omemh(b, pc, VM_JIT_STORE, VM_JIT_BUFFER, y, a, z, x); break;
  case IR_LDWH: jit_omemh(b, pc, VM_JIT_LOAD, VM_JIT_WORKGROUP, 0, x, z, -1); break;
  case IR_STWH: jit_omemh(b, pc, VM_JIT_STORE, VM_JIT_WORKGROUP, 0, a, z, x); break;
  case IR_LDPH: jit_omemh(b, pc, VM_JIT_LOAD, VM_JIT_PRIVATE, 0, x, z, -1); break;
  case IR_STPH: jit_omemh(b, pc, VM_JIT_STORE, VM_JIT_PRIVATE, 0, a, z, x); break;
  case IR_TST: strbuf_printf(b, "wr |= exec; "); break;
  case IR_JANY: strbuf_printf(b, "FN->obs_loop(A->cx, s, %uu, exec); ", pc); break;
  case IR_BARRIER:
    strbuf_printf(b, "if (OBA) FN->obs_barrier(A->cx, s, %uu, exec, %s); ", pc,
                  p->nmasks ? "M[0]" : "exec");
    break;
  case IR_END: strbuf_printf(b, "JIT_OEND(%s) ", p->nmasks ? "M[0]" : "exec"); break;
  default: break;
  }
}

/* The code of a memory or texture instruction (jit_special's share). */
static void jit_memory(strbuf *b, const ir_program *p, uint32_t pc) {
  const ir_insn *in = &p->code[pc];
  const unsigned a = in->a, x = in->b, y = in->c, z = in->d;
  jit_texrows tr;
  if (jit_texture_op(in, &tr)) {
    /* through the library (vm_jit_fns.tex) on rows: operands in x_, the
     * results' old values in d_ and back */
    strbuf_printf(b, "{ VM_ROW x_[%u], d_[4]; (void)d_; ", tr.na ? 8u : tr.ns);
    for (uint32_t k = 0; k < tr.na; k++) strbuf_printf(b, "JIT_EACH(JIT_IN, x_[%u], %u) ", k, a + k);
    for (uint32_t k = 0; k < tr.ns; k++)
      strbuf_printf(b, "JIT_EACH(JIT_IN, x_[%u], %u) ", (tr.na ? 4u : 0u) + k, x + k);
    for (uint32_t k = 0; k < tr.nd; k++) strbuf_printf(b, "JIT_EACH(JIT_IN, d_[%u], %u) ", k, a + k);
    strbuf_printf(b, "\nFN->tex(A->cx, s, %uu, d_[0].u, x_[0].u, exec); ", pc);
    for (uint32_t k = 0; k < tr.nd; k++) strbuf_printf(b, "JIT_EACH(JIT_OUT, d_[%u], %u) ", k, a + k);
    strbuf_printf(b, "}\n");
    return;
  }
  switch (in->op) {
  case IR_LDB:
    if (x < p->nconsts)
      strbuf_printf(b, "JIT_LOADK(%u, %u, %uu, %uu, D%u, Z%u)\n", a, x, p->consts[x], z, y, y);
    else
      strbuf_printf(b, "JIT_LOADB(%u, %u, %uu, D%u, Z%u)\n", a, x, z, y, y);
    break;
  case IR_STB:
    strbuf_printf(b, "JIT_STOREB(%u, %u, %uu, D%u, Z%u)\n", a, x, z, y, y);
    break;
  case IR_LDW:
    strbuf_printf(b, "JIT_LOADB(%u, %u, %uu, G, GZ)\n", a, x, z);
    break;
  case IR_STW:
    strbuf_printf(b, "JIT_STOREB(%u, %u, %uu, G, GZ)\n", a, x, z);
    break;
  case IR_LDP:
    strbuf_printf(b, "JIT_LOAD(VM_PRIV_LOAD, %u, %u, %uu, P, PZ)\n", a, x, z);
    break;
  case IR_STP:
    strbuf_printf(b, "JIT_STORE(VM_PRIV_STORE, %u, %u, %uu, P, PZ)\n", a, x, z);
    break;
  /* f16 memory: the interpreter's row functions (vm_lanes.inc) */
  case IR_LDBH:
    strbuf_printf(b, "JIT_LOAD(VM_HALF_LOAD, %u, %u, %uu, D%u, Z%u)\n", a, x, z, y, y);
    break;
  case IR_STBH:
    strbuf_printf(b, "JIT_STORE(VM_HALF_STORE, %u, %u, %uu, D%u, Z%u)\n", a, x, z, y, y);
    break;
  case IR_LDWH: strbuf_printf(b, "JIT_LOAD(VM_HALF_LOAD, %u, %u, %uu, G, GZ)\n", a, x, z); break;
  case IR_STWH: strbuf_printf(b, "JIT_STORE(VM_HALF_STORE, %u, %u, %uu, G, GZ)\n", a, x, z); break;
  case IR_LDPH:
    strbuf_printf(b, "JIT_LOAD(VM_PRIV_HLOAD, %u, %u, %uu, P, PZ)\n", a, x, z);
    break;
  case IR_STPH:
    strbuf_printf(b, "JIT_STORE(VM_PRIV_HSTORE, %u, %u, %uu, P, PZ)\n", a, x, z);
    break;
  case IR_PZERO:
    strbuf_printf(b, "JIT_PZERO(%uu, %uu)\n", y, z);
    break;
  case IR_ATOMB: {
    const unsigned slot = z >> 8, op = z & 0xffu;
    char base[16], size[16];
    snprintf(base, sizeof base, "D%u", slot);
    snprintf(size, sizeof size, "Z%u", slot);
    strbuf_printf(b, "if (A->solo) ");
    jit_atom_plain(b, a, x, y, op, base, size);
    strbuf_printf(b, " else JIT_ATOM(%u, %u, %u, D%u, Z%u, %uu, FN->atomic_storage)\n", a, x, y, slot,
                  slot, op);
    break;
  }
  case IR_ATOMW:
    jit_atom_plain(b, a, x, y, z, "G", "GZ");
    strbuf_printf(b, "\n");
    break;
  default: break;
  }
}

/* The code of an 'S' instruction; np pieces a register. Registers are
 * passed to the macros by number (vm_jit_rt.inc pastes the pieces' names).
 * *ev: whether E holds exec's lanes here; obs: observed code. */
static void jit_special(strbuf *b, const ir_program *p, uint32_t pc, uint32_t np, int *ev,
                        int obs) {
  const ir_insn *in = &p->code[pc];
  const unsigned a = in->a, x = in->b, y = in->c, z = in->d;
  if (obs) jit_obs_before(b, p, pc);
  switch (in->op) {
  case IR_MOVM:
    if (!*ev) {
      strbuf_printf(b, "JIT_MOVM(%u, %u)\n", a, x);
      break;
    }
    for (uint32_t k = 0; k < np; k++)
      strbuf_printf(b, "R%u_%u = JSEL(E%u, R%u_%u, R%u_%u); ", a, k, k, x, k, a, k);
    strbuf_printf(b, "\n");
    break;
  case IR_FSQRT:
    strbuf_printf(b, "JIT_ROW1(%u, %u, vm_sqrt_row(t_.f, x_.f, VM_W))\n", a, x);
    break;
  case IR_FUN1:
    strbuf_printf(b, "JIT_ROW1(%u, %u, FN->fun1_row(t_.f, x_.f, %uu, VM_W))\n", a, x, z);
    break;
  case IR_FUN2:
    strbuf_printf(b, "JIT_ROW2(%u, %u, %u, FN->fun2_row(t_.f, x_.f, y_.f, %uu, VM_W))\n", a, x, y, z);
    break;
  case IR_IBIT:
    strbuf_printf(b, "JIT_ROW1(%u, %u, FN->ibit_row(t_.u, x_.u, %uu, VM_W))\n", a, x, z);
    break;
  case IR_PACKC:
    strbuf_printf(b, "JIT_ROW1(%u, %u, FN->packc_row(t_.u, x_.u, %uu, %uu, VM_W))\n", a, x, y, z);
    break;
  case IR_UNPACKC:
    strbuf_printf(b, "JIT_ROW1(%u, %u, FN->unpackc_row(t_.u, x_.u, %uu, %uu, VM_W))\n", a, x, y, z);
    break;
  case IR_IDX: {
    /* the interpreter's one bound (vm_translate_w): at most the count
     * minus one, and small enough that x * c does not overflow */
    const uint32_t top = z - 1u;
    uint32_t e = y ? UINT32_MAX / y : UINT32_MAX;
    if (top < e) e = top;
    for (uint32_t k = 0; k < np; k++)
      strbuf_printf(b, "R%u_%u = JSEL((VP)(R%u_%u <= %uu), R%u_%u * %uu, ~(VP){0}); ", a, k, x, k, e, x,
                k, y);
    strbuf_printf(b, "\n");
    break;
  }
  case IR_AADD:
    for (uint32_t k = 0; k < np; k++)
      strbuf_printf(b, "{ const VP s_ = R%u_%u + R%u_%u; R%u_%u = s_ | (VP)(s_ < R%u_%u); } ", x, k, y,
                k, a, k, x, k);
    strbuf_printf(b, "\n");
    break;
  case IR_ARRLEN:
    strbuf_printf(b, "{ const uint64_t z_ = Z%u; const uint64_t n_ = (%uu && z_ >= %uu) ? (z_ - %uu) / %uu : 0; JIT_SPLAT(%u, (uint32_t)(n_ > UINT32_MAX ? UINT32_MAX : n_)) }\n",
              x, y, z, z, y ? y : 1u, a);
    break;
  case IR_SRED: {
    /* the integer reductions of a full subgroup inline (JIT_SRED), with
     * the identity each starts from */
    static const struct {
      const char *name;
      uint32_t identity;
    } inl[IR_SG_COUNT] = {[IR_SG_ADD_I] = {"ADD_I", 0},           [IR_SG_MUL_I] = {"MUL_I", 1},
                          [IR_SG_AND] = {"AND", UINT32_MAX},      [IR_SG_OR] = {"OR", 0},
                          [IR_SG_XOR] = {"XOR", 0},               [IR_SG_MIN_U] = {"MIN_U", UINT32_MAX},
                          [IR_SG_MAX_U] = {"MAX_U", 0},           [IR_SG_MIN_S] = {"MIN_S", INT32_MAX},
                          [IR_SG_MAX_S] = {"MAX_S", 0x80000000u}};
    if (z < IR_SG_COUNT && inl[z].name)
      strbuf_printf(b, "if (exec == VM_FULL) JIT_SRED(%u, %u, %s, 0x%xu) else ", a, x, inl[z].name,
                    inl[z].identity);
    strbuf_printf(b, "{ VM_ROW x_; JIT_EACH(JIT_IN, x_, %u) JIT_SPLAT(%u, FN->sg_reduce(x_.u, exec, %uu, VM_W)) }\n",
              x, a, z);
    break;
  }
  case IR_SCANI:
  case IR_SCANX:
    strbuf_printf(b, "JIT_ROW1(%u, %u, FN->sg_scan(t_.u, x_.u, exec, %uu, %d, VM_W))\n", a, x, z,
              in->op == IR_SCANX);
    break;
  case IR_SHUF:
    strbuf_printf(b, "{ uint64_t mi_ = 0; JIT_ROW2(%u, %u, %u, mi_ = FN->sg_shuffle(t_.u, x_.u, y_.u, exec, %uu, VM_W))",
                  a, x, y, z);
    if (obs) strbuf_printf(b, " if (mi_) FN->obs_xlane(A->cx, s, %uu, exec, mi_);", pc);
    strbuf_printf(b, " (void)mi_; }\n");
    break;
  case IR_VOTE:
    strbuf_printf(b, "JIT_ROW1(%u, %u, FN->sg_vote(t_.u, JIT_NZ(%u), exec, %uu, VM_W))\n", a, x, x, z);
    break;
  case IR_BALLOT:
    if (z < 2)
      strbuf_printf(b, "JIT_SPLAT(%u, (uint32_t)((exec & JIT_NZ(%u)) >> %uu))\n", a, x, 32u * z);
    else
      strbuf_printf(b, "JIT_SPLAT(%u, 0u)\n", a);
    break;
  /* exec twice: bits for the branches and the row functions, and, from a
   * MAND / MANDN to the next jump target (*ev), lanes E<piece> computed
   * from the condition: a MOVM there is one select per piece that does not
   * wait for the bits to go through a table (in a divergent loop that wait
   * is on the critical path). Elsewhere MOVM tests the bits, which costs
   * less where exec is mostly full. Keeping slots as lanes too (so that
   * an MLOAD's MOVM would select) was measured slower: more vectors live
   * and a select where a full exec needs only a move. */
  case IR_MSAVE: strbuf_printf(b, "M[%u] = exec;\n", a); break;
  case IR_MLOAD:
    strbuf_printf(b, "exec = M[%u];\n", a);
    *ev = 0;
    break;
  case IR_MAND:
    if (obs) strbuf_printf(b, "{ const uint64_t ob_ = exec; ");
    for (uint32_t k = 0; k < np; k++) {
      if (*ev)
        strbuf_printf(b, "E%u &= (VP)(R%u_%u != 0); ", k, a, k);
      else
        strbuf_printf(b, "E%u = jit_livep(exec, %u) & (VP)(R%u_%u != 0); ", k, k, a, k);
    }
    strbuf_printf(b, "exec &= JIT_NZ(%u);", a);
    if (obs) strbuf_printf(b, " JIT_ODIV(%u, ob_) }", pc);
    strbuf_printf(b, "\n");
    *ev = 1;
    break;
  case IR_MANDN:
    for (uint32_t k = 0; k < np; k++)
      strbuf_printf(b, "E%u = jit_livep(M[%u], %u) & (VP)(R%u_%u == 0); ", k, a, k, x, k);
    strbuf_printf(b, "exec = M[%u] & ~JIT_NZ(%u) & VM_FULL;\n", a, x);
    if (obs) strbuf_printf(b, "JIT_ODIV(%u, M[%u])\n", pc, a);
    *ev = 1;
    break;
  case IR_KILL:
    for (uint32_t k = a; k < x; k++) strbuf_printf(b, "M[%u] &= ~exec; ", k);
    strbuf_printf(b, "exec = 0;\n");
    *ev = 0;
    break;
  case IR_JMP: strbuf_printf(b, "JIT_JUMP(%u, %u)\n", pc, a); break;
  case IR_JNONE: strbuf_printf(b, "if (exec == 0) JIT_JUMP(%u, %u)\n", pc, a); break;
  case IR_JANY: strbuf_printf(b, "if (exec != 0) JIT_JUMP(%u, %u)\n", pc, a); break;
  case IR_END: strbuf_printf(b, "JIT_SG_END\n"); break;
  default: jit_memory(b, p, pc); break; /* BARRIER: vm_jit_source */
  }
}

/* A JNONE at pc over a short block that is safe to run with no lane
 * active: vector operations whose results are not needed past the block,
 * and MOVM (with exec 0 it leaves its register as it was). Such a block
 * runs whether or not a lane is active, with no branch: in a divergent
 * loop at W = 8 whether any lane takes an if's side is close to a coin
 * toss, and the mispredicted branch cost more than the block (Collatz at
 * W = 8: 68 to 52 ms). A block that ends the loop (KILL) stays a branch:
 * that one is predicted, and running it through measured slower. Returns
 * the block's length, or 0 when the JNONE stays a branch (observed code
 * keeps every branch: its counts are per block run). */
#define JIT_IFCONV_MAX 8u
static uint32_t jit_ifconv(const ir_program *p, const jit_live *lv, const uint8_t *lead,
                           uint32_t pc) {
  const ir_insn *in = &p->code[pc];
  const uint32_t t = in->a;
  if (in->op != IR_JNONE || t <= pc + 1 || t - pc - 1 > JIT_IFCONV_MAX || t > p->ncode) return 0;
  const uint64_t *live = lv->in + (size_t)t * lv->words;
  for (uint32_t q = pc + 1; q < t; q++) {
    const ir_insn *b = &p->code[q];
    if (lead[q] & 2) return 0; /* something else jumps in */
    if (b->op == IR_MOVM) continue;
    const char k = jit_forms[b->op].kind;
    if ((k != 'V' && k != 'C') || !jit_writes_a(b->op) || JBIT(live, b->a)) return 0;
  }
  return t - pc - 1;
}

/* A condition made of compares whose 0/1 rows only the MAND that ends it
 * reads: from a compare at pc, straight-line compares, XORs with 1 (a
 * negated condition: a loop's exit test), ANDs and ORs of those, and
 * MSAVEs (they read exec before the MAND changes it), up to a MAND of one
 * of them, every result dead after it (an if's or a loop's condition).
 * Each is then its lanes as a mask in a local, and the MAND takes the last
 * one's bits with one movemask a piece, with no 0/1 row to make and test
 * against 0. Counts are per block, so nothing changes there. Returns the
 * instructions emitted, or 0; *ev as jit_special's. */
#define JIT_COND_MAX 16u
/* The window instruction (an index into mask, whose first n entries are
 * the registers each made a mask of, or UINT32_MAX) that last made
 * register r a mask, or -1. */
static int jit_mask_of(const uint32_t *mask, uint32_t n, uint32_t r) {
  int w = -1;
  for (uint32_t j = 0; j < n; j++)
    if (mask[j] == r) w = (int)j;
  return w;
}

static uint32_t jit_cmp_mand(strbuf *b, const ir_program *p, const jit_live *lv,
                             const uint8_t *lead, const uint32_t *seg, uint32_t pc, uint32_t np,
                             int *ev, int obs) {
  if (jit_forms[p->code[pc].op].kind != 'C') return 0;
  uint32_t mask[JIT_COND_MAX];
  uint32_t q = pc;
  for (;; q++) {
    const uint32_t i = q - pc;
    if (i >= JIT_COND_MAX || q >= p->ncode || (i && (lead[q] || (seg && seg[q] == q)))) return 0;
    const ir_insn *in = &p->code[q];
    const int mb = jit_mask_of(mask, i, in->b), mc = jit_mask_of(mask, i, in->c);
    mask[i] = UINT32_MAX;
    if (jit_forms[in->op].kind == 'C') {
      if (mb >= 0 || mc >= 0) return 0; /* its operands are rows, not masks */
      mask[i] = in->a;
    } else if (in->op == IR_XOR) {
      const uint32_t o = mb >= 0 ? in->c : in->b;
      if ((mb >= 0) == (mc >= 0) || o >= p->nconsts || p->consts[o] != 1u) return 0;
      mask[i] = in->a;
    } else if (in->op == IR_AND || in->op == IR_OR) {
      if (mb < 0 || mc < 0) return 0;
      mask[i] = in->a;
    } else if (in->op == IR_MAND) {
      if (jit_mask_of(mask, i, in->a) < 0) return 0;
      break;
    } else if (in->op != IR_MSAVE) {
      return 0;
    }
  }
  const uint32_t n = q - pc;
  const uint64_t *after = lv->in + (size_t)(q + 1) * lv->words;
  for (uint32_t j = 0; j < n; j++)
    if (mask[j] != UINT32_MAX && JBIT(after, mask[j])) return 0;
  strbuf_printf(b, "/* %u %s .. %u MAND */ { ", pc, ir_op_name(p->code[pc].op), q);
  for (uint32_t j = 1; j < n; j++)
    if (p->code[pc + j].op == IR_MSAVE) strbuf_printf(b, "M[%u] = exec; ", p->code[pc + j].a);
  if (obs) strbuf_printf(b, "const uint64_t ob_ = exec; ");
  for (uint32_t j = 0; j < n; j++) {
    const ir_insn *in = &p->code[pc + j];
    if (mask[j] == UINT32_MAX) continue;
    const int mb = jit_mask_of(mask, j, in->b), mc = jit_mask_of(mask, j, in->c);
    for (uint32_t k = 0; k < np; k++) {
      strbuf_printf(b, "const VP c%u_%u = ", j, k);
      if (jit_forms[in->op].kind == 'C')
        jit_expand(b, jit_forms[in->op].text, in, k);
      else if (in->op == IR_XOR)
        strbuf_printf(b, "~c%d_%u", mb >= 0 ? mb : mc, k);
      else
        strbuf_printf(b, "c%d_%u %c c%d_%u", mb, k, in->op == IR_AND ? '&' : '|', mc, k);
      strbuf_printf(b, "; ");
    }
  }
  const int last = jit_mask_of(mask, n, p->code[q].a);
  for (uint32_t k = 0; k < np; k++) {
    if (*ev)
      strbuf_printf(b, "E%u &= c%d_%u; ", k, last, k);
    else
      strbuf_printf(b, "E%u = jit_livep(exec, %u) & c%d_%u; ", k, k, last, k);
  }
  strbuf_printf(b, "exec &= 0");
  for (uint32_t k = 0; k < np; k++)
    strbuf_printf(b, " | (uint64_t)jit_mskp(c%d_%u) << (VM_PL * %u)", last, k, k);
  strbuf_printf(b, ";");
  if (obs) strbuf_printf(b, " JIT_ODIV(%u, ob_)", q);
  strbuf_printf(b, " }\n");
  *ev = 1;
  return n + 1;
}

/* The built-in register r holds from the start (a VM_F_* op, component
 * in *k, as vm_fill_steps gives them), or -1. */
static int jit_builtin(const ir_program *p, uint32_t r, unsigned *k) {
  for (unsigned i = 0; i < vm_fill_nsteps; i++) {
    const vm_fill_step *st = &vm_fill_steps[i];
    const uint32_t b = p->builtin_reg[st->bi];
    if (b != IR_NO_REG && r >= b && r - b < st->comps) {
      *k = st->k0 + (r - b);
      return st->op;
    }
  }
  return -1;
}

/* Piece q of built-in op (component k) into register r: what VM_START
 * writes to its row, in the same u32 arithmetic, computed here so that no
 * row is filled and read back (the set-up was a tenth of a small
 * workgroup's time). */
static void jit_builtin_piece(strbuf *b, const ir_program *p, int op, unsigned k, uint32_t r,
                              uint32_t q) {
  strbuf_printf(b, "R%u_%u = ", r, q);
  switch ((vm_fill_op)op) {
  case VM_F_LID: strbuf_printf(b, "JIT_LID(%u, %u); ", k, q); break;
  case VM_F_GID:
    strbuf_printf(b, "((VP){0} + A->gid[%u] * %uu) + JIT_LID(%u, %u); ", k, p->wg_size[k], k + 1, q);
    break;
  case VM_F_WGID: strbuf_printf(b, "(VP){0} + A->gid[%u]; ", k); break;
  case VM_F_NWG: strbuf_printf(b, "(VP){0} + A->groups[%u]; ", k); break;
  case VM_F_WGINDEX:
    strbuf_printf(b, "(VP){0} + (A->gid[0] + A->gid[1] * A->groups[0] + "
                  "A->gid[2] * A->groups[0] * A->groups[1]); ");
    break;
  case VM_F_GINDEX:
    strbuf_printf(b, "((VP){0} + A->gid[0] * %1$uu + JIT_LID(1, %4$u)) + "
                  "((VP){0} + A->gid[1] * %2$uu + JIT_LID(2, %4$u)) * (%1$uu * A->groups[0]) + "
                  "((VP){0} + A->gid[2] * %3$uu + JIT_LID(3, %4$u)) * "
                  "(%1$uu * A->groups[0] * %2$uu * A->groups[1]); ",
                  p->wg_size[0], p->wg_size[1], p->wg_size[2], q);
    break;
  case VM_F_SGLANE: strbuf_printf(b, "JIT_IOTA + VM_PL * %uu; ", q); break;
  case VM_F_SGSIZE: strbuf_printf(b, "(VP){0} + VM_W; "); break;
  case VM_F_SGID: strbuf_printf(b, "(VP){0} + s; "); break;
  case VM_F_NSG: strbuf_printf(b, "(VP){0} + A->nsub; "); break;
  }
}

/* The registers live at pc (after a barrier, or at the start), saved to
 * the subgroup's rows (store) or taken back from them. A register no
 * instruction writes is never saved: a built-in is computed again (at the
 * start, every built-in is), and any other keeps the row it has had since
 * the dispatch began. */
static void jit_rows(strbuf *b, const ir_program *p, const jit_live *lv, uint32_t pc, int store,
                     uint32_t np, uint32_t pl, int masks, int start) {
  const uint64_t *live = lv->in + (size_t)pc * lv->words;
  for (uint32_t r = p->nconsts; r < p->nregs; r++) {
    if (!JBIT(live, r) || (store && !JBIT(lv->set, r))) continue;
    unsigned k = 0;
    const int op = store ? -1 : jit_builtin(p, r, &k);
    for (uint32_t q = 0; q < np; q++) {
      if (op >= 0 && (start || !JBIT(lv->set, r)))
        jit_builtin_piece(b, p, op, k, r, q);
      else
        strbuf_printf(b, store ? "jit_st(RS + %uu, R%u_%u); " : "R%2$u_%3$u = jit_ld(RS + %1$uu); ",
                      r * np * pl + q * pl, r, q);
    }
  }
  if (p->nmasks && masks)
    strbuf_printf(b, store ? "memcpy(A->masks + (size_t)s * %u, M, sizeof M);"
                       : "memcpy(M, A->masks + (size_t)s * %u, sizeof M);",
              p->nmasks);
  strbuf_printf(b, "\n");
}

int vm_jit_compilable(const ir_program *p) {
  for (uint32_t pc = 0; pc < p->ncode; pc++)
    if (p->code[pc].op >= IR_OPCODE_COUNT || !jit_forms[p->code[pc].op].kind) return 0;
  return p->ncode > 0;
}

char *vm_jit_source(const ir_program *p, uint32_t W, uint32_t pl, uint64_t check,
                    const char *prelude, int obs) {
  if (!vm_jit_compilable(p) || (pl != 4 && pl != 8) || W % pl) return NULL;
  jit_live lv = {0};
  if (!jit_liveness(p, &lv, obs)) {
    jit_live_free(&lv);
    return NULL;
  }
  const uint32_t n = p->ncode, np = W / pl;
  uint8_t *lead = calloc((size_t)n + 1, 1);
  uint32_t *seg = obs ? malloc(((size_t)n + 1) * sizeof *seg) : NULL;
  strbuf b = {0};
  if (!lead || (obs && !seg)) {
    free(lead);
    free(seg);
    jit_live_free(&lv);
    return NULL;
  }
  /* observed code counts where the observed interpreter does: at the first
   * pc of each straight-line run */
  if (obs) vm_segments(p, seg);
  lead[0] = 3; /* 1: a block starts; 2: entered by a jump (E unknown) */
  for (uint32_t pc = 0; pc < n; pc++) {
    const ir_insn *in = &p->code[pc];
    if (jit_is_jump(in->op)) lead[pc + 1] = 1;
    if (in->op == IR_JMP || in->op == IR_JNONE || in->op == IR_JANY) lead[in->a] = 3;
    if (in->op == IR_BARRIER) lead[pc + 1] = 3;
  }

  strbuf_printf(&b, "#define VM_W %u\n#define VM_PL %u\n#define VM_NO_INTRIN 1\n%s\n", W, pl, prelude);
  const size_t body = b.n;
  strbuf_printf(&b, "#define JIT_EACH(M_, t_, r_)");
  for (uint32_t k = 0; k < np; k++) strbuf_printf(&b, " M_(t_, r_, %u)", k);
  strbuf_printf(&b, "\nconst uint64_t vm_jit_check = UINT64_C(0x%016llx);\n", (unsigned long long)check);
  /* One call runs every subgroup from s on, one after the other as the
   * runner would, each up to its next barrier or its end, so that the
   * workgroup's set-up (bindings, constants) is done once per call: at
   * W = 8 a call per subgroup costs as much as a short kernel's work. A
   * subgroup that ended has pc UINT32_MAX until the next workgroup. */
  strbuf_printf(&b, "#define JIT_SG_END { A->pc[s] = UINT32_MAX; goto next_sg; }\n");
  strbuf_printf(&b, "int vm_jit_sg(vm_jit_args *A, uint32_t s) {\n"
                "const vm_jit_fns *const FN = A->fn;\n"
                "uint8_t *const G = A->wg; const uint64_t GZ = A->wg_size;\n"
                "const uint64_t PZ = A->priv_size;\n"
                "uint64_t cnt = A->cnt, limit = A->limit;\n"
                "(void)G; (void)GZ; (void)PZ; (void)FN;\n");
  if (obs) strbuf_printf(&b, "JIT_OBS_ARGS\n");
  for (uint32_t i = 0; i < p->nbindings; i++)
    strbuf_printf(&b, "uint8_t *const D%u = A->bind[%u].data; const uint64_t Z%u = A->bind[%u].size; "
                  "(void)D%u; (void)Z%u;\n", i, i, i, i, i, i);
  for (uint32_t r = 0; r < p->nregs; r++) {
    for (uint32_t k = 0; k < np; k++) {
      if (r < p->nconsts)
        strbuf_printf(&b, "const VP R%u_%u = (VP){0} + 0x%xu; ", r, k, p->consts[r]);
      else
        strbuf_printf(&b, "VP R%u_%u = {0}; ", r, k);
    }
    strbuf_printf(&b, "\n");
  }
  for (uint32_t k = 0; k < np; k++) strbuf_printf(&b, "VP E%u = {0}; ", k);
  strbuf_printf(&b, "\n");
  /* The code runs the next pass itself once every survivor waits at a
   * barrier (all may then go on), rather than returning to the runner for
   * each: a reduction's nine barriers were ten calls a workgroup, each
   * setting up the bindings and constants again. Observed code first tells
   * the observer where the subgroups wait (vm_jit_fns.obs_release). */
  strbuf_printf(&b, "int wait_ = 0;\nagain:\n");
  strbuf_printf(&b, "for (; s < A->nsub; s++) {\nif (A->pc[s] == UINT32_MAX) continue;\n");
  /* the mask slots are zeroed only at the start: a resumption takes them
   * all back from the rows (at a barrier-heavy kernel's every pass) */
  strbuf_printf(&b, "uint32_t *const RS = A->regs + (size_t)s * %uu * VM_W;\n"
                "uint32_t *const P = A->priv + (size_t)s * A->priv_words * VM_W;\n"
                "uint64_t exec = A->exec[s];\n"
                "uint64_t M[%u];\n"
                "(void)P; (void)RS;\n",
            p->nregs, p->nmasks ? p->nmasks : 1u);
  if (obs) strbuf_printf(&b, "uint64_t wr = A->wrote[s];\n");
  /* where a subgroup resumes after a barrier */
  strbuf_printf(&b, "switch (A->pc[s]) {\ncase 0: break;\n");
  for (uint32_t pc = 0; pc < n; pc++) {
    if (p->code[pc].op != IR_BARRIER) continue;
    strbuf_printf(&b, "case %u: ", pc + 1);
    jit_rows(&b, p, &lv, pc + 1, 0, np, pl, 1, 0);
    strbuf_printf(&b, "exec = A->exec[s]; goto L%u;\n", pc + 1);
  }
  strbuf_printf(&b, "default: break;\n}\n");
  /* at the start: the built-ins, and whatever else is read before it is
   * written */
  strbuf_printf(&b, "memset(M, 0, sizeof M);\n");
  jit_rows(&b, p, &lv, 0, 0, np, pl, 0, 1);
  int ev = 0;
  uint32_t conv_end = 0; /* a block run through (jit_ifconv) ends here */
  for (uint32_t pc = 0; pc <= n; pc++) {
    if (lead[pc] & 2) ev = 0;
    if (lead[pc]) {
      uint32_t len = 0;
      while (pc + len < n && (len == 0 || !lead[pc + len])) {
        len++;
        if (jit_is_jump(p->code[pc + len - 1].op)) break;
      }
      if (pc < conv_end) /* counted at the JNONE */
        strbuf_printf(&b, "L%u:;\n", pc);
      else
        strbuf_printf(&b, "L%u: cnt += %u;\n", pc, len);
    }
    if (obs && seg[pc] == pc) strbuf_printf(&b, "JIT_OSEG(%u) ", pc);
    if (pc == n) {
      /* past the last instruction: an END that was not there */
      if (obs) strbuf_printf(&b, "JIT_OEND(%s) ", p->nmasks ? "M[0]" : "exec");
      strbuf_printf(&b, "JIT_SG_END\n");
      break;
    }
    const ir_insn *in = &p->code[pc];
    const jit_form *f = &jit_forms[in->op];
    if (in->op == IR_BARRIER) {
      strbuf_printf(&b, "/* %u BARRIER */ ", pc);
      if (obs) jit_obs_before(&b, p, pc);
      jit_rows(&b, p, &lv, pc + 1, 1, np, pl, 1, 0);
      strbuf_printf(&b, "A->pc[s] = %uu; A->exec[s] = exec; %sgoto next_sg;\n", pc + 1,
                    obs ? "A->wrote[s] = wr; wait_ = 1; " : "wait_ = 1; ");
      continue;
    }
    const uint32_t fused = jit_cmp_mand(&b, p, &lv, lead, obs ? seg : NULL, pc, np, &ev, obs);
    if (fused) {
      pc += fused - 1;
      continue;
    }
    const uint32_t conv = obs ? 0 : jit_ifconv(p, &lv, lead, pc);
    if (conv) {
      /* the block's count only when a lane runs it; the budget looked at
       * only when the jump would have been taken, as JIT_JUMP does */
      strbuf_printf(&b, "/* %u JNONE, run through */ { const uint64_t on_ = exec != 0; "
                    "cnt += on_ * %uu; if (VM_UNLIKELY((cnt > limit) & (on_ == 0)) && "
                    "!FN->checkpoint(A->cx, cnt, &limit)) { A->fail_pc = %uu; A->cnt = cnt; "
                    "return VM_JIT_BUDGET; } }\n",
                    pc, conv, pc);
      conv_end = pc + 1 + conv;
      continue;
    }
    strbuf_printf(&b, "/* %u %s */ ", pc, ir_op_name(in->op));
    const char *form = ir_op_form(in->op);
    for (uint32_t k = 0; k < np && f->kind != 'S'; k++) {
      if (f->kind == 'V' || f->kind == 'C') {
        strbuf_printf(&b, "R%u_%u = ", in->a, k);
        jit_expand(&b, f->text, in, k);
        strbuf_printf(&b, f->kind == 'C' ? " & 1u; " : "; ");
      } else {
        strbuf_printf(&b, "{ const VP o_ = R%u_%u, a_ = R%u_%u, b_ = R%u_%u, c_ = R%u_%u; VP r_; "
                      "for (int l = 0; l < VM_PL; l++) { const uint32_t o = o_[l], a = a_[l], b = b_[l], c = c_[l]; (void)o; (void)b; (void)c; r_[l] = ",
                  in->a, k, in->b, k, form[2] == 'r' ? in->c : in->b, k,
                  form[3] == 'r' ? in->d : in->b, k);
        jit_expand(&b, f->text, in, k);
        strbuf_printf(&b, "; } R%u_%u = r_; } ", in->a, k);
      }
    }
    if (f->kind == 'S')
      jit_special(&b, p, pc, np, &ev, obs);
    else
      strbuf_printf(&b, "\n");
  }
  strbuf_printf(&b, "next_sg:;\n}\n");
  strbuf_printf(&b, "if (wait_) { wait_ = 0; s = 0; %sgoto again; }\n",
                obs ? "FN->obs_release(A->cx, A->pc, A->nsub); " : "");
  strbuf_printf(&b, "JIT_RETURN(VM_JIT_ALL)\n");
  strbuf_printf(&b, "}\n");
  free(lead);
  free(seg);
  jit_live_free(&lv);
  if (b.failed || b.n - body > JIT_MAX_BODY) {
    free(b.s);
    return NULL;
  }
  return b.s;
}
