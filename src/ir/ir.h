/*
 * ir.h — the bytecode one compute pipeline runs: the output of lowering
 * (lower.c), checked by the verifier (verify.c), the input of the VM (vm/).
 * A program is built once per pipeline with override values substituted,
 * and is immutable afterwards.
 *
 * Instruction format: 16-bit opcode, four 32-bit operand fields a b c d whose
 * meaning op.def gives per opcode.
 *
 * Registers: every register is 32 bits x W lanes. Registers [0, nconsts)
 * hold constants (the VM fills each lane with consts[i] once per context);
 * vectors occupy consecutive registers. Built-in inputs are written by the VM
 * into the registers builtin_reg[] names before a subgroup starts.
 */
#ifndef LS_IR_H
#define LS_IR_H

#include <stddef.h>
#include <stdint.h>

#include "../util/diag.h"

typedef enum ir_opcode {
#define DEF(name, form, doc) IR_##name,
#include "op.def"
#undef DEF
  IR_OPCODE_COUNT
} ir_opcode;

typedef struct ir_insn {
  uint16_t op;
  uint16_t flags; /* for observers: a workgroup variable (below), IR_FLAG_LOOP_TEST */
  uint32_t a, b, c, d;
} ir_insn;

/* Sub-operations of ATOMB / ATOMW (operand d, low 8 bits). */
#define IR_ATOMS(X)                                                            \
  X(LOAD) X(STORE) X(ADD) X(SUB) X(MAX_S) X(MAX_U) X(MIN_S) X(MIN_U)           \
  X(AND) X(OR) X(XOR) X(XCHG) X(CMPX)
typedef enum ir_atom {
#define X_(n) IR_ATOM_##n,
  IR_ATOMS(X_)
#undef X_
  IR_ATOM_COUNT
} ir_atom;

/* IR_ATOM_CMPX (atomicCompareExchangeWeak) also reads r[a]: the value to
 * compare with; r[c] is the value to store when they are equal. */

/* Sub-operations of FUN1 (f32 -> f32), FUN2 (f32, f32|i32 -> f32), IBIT
 * (u32 -> u32) and PACKC / UNPACKC (pack and unpack built-ins), operand d.
 * One family per row of op.def keeps the table short; the handler picks
 * the lane loop once per instruction, not per lane. FREXPF / FREXPE are
 * frexp's two members (fraction, and the exponent as i32 bits). */
#define IR_F1S(X)                                                              \
  X(ROUND) X(TRUNC) X(INVSQRT) X(EXP) X(EXP2) X(LOG) X(LOG2) X(SIN) X(COS)     \
  X(TAN) X(ASIN) X(ACOS) X(ATAN) X(SINH) X(COSH) X(TANH) X(ASINH) X(ACOSH)     \
  X(ATANH) X(QUANT16) X(FREXPF) X(FREXPE)
#define IR_F2S(X) X(ATAN2) X(POW) X(LDEXP)
#define IR_IBS(X) X(POPCNT) X(CLZ) X(CTZ) X(FLBU) X(FLBS) X(FTB) X(REV)
#define IR_PKS(X)                                                              \
  X(4X8SNORM) X(4X8UNORM) X(2X16SNORM) X(2X16UNORM) X(2X16FLOAT) X(4XI8)        \
  X(4XU8) X(4XI8C) X(4XU8C)
/* FUN1 / FUN2 operand d | IR_FUN_F16: round the (double) result once to
 * f16 instead of to f32 (the row then holds an f16 value as f32). */
#define IR_FUN_F16 0x100u
typedef enum ir_f1 {
#define X_(n) IR_F1_##n,
  IR_F1S(X_)
#undef X_
  IR_F1_COUNT
} ir_f1;
typedef enum ir_f2 {
#define X_(n) IR_F2_##n,
  IR_F2S(X_)
#undef X_
  IR_F2_COUNT
} ir_f2;
typedef enum ir_ib {
#define X_(n) IR_IB_##n,
  IR_IBS(X_)
#undef X_
  IR_IB_COUNT
} ir_ib;
typedef enum ir_pk {
#define X_(n) IR_PK_##n,
  IR_PKS(X_)
#undef X_
  IR_PK_COUNT
} ir_pk;

/* Sub-operations of the subgroup opcodes (operand d): SRED takes every
 * IR_SG_*, SCANI / SCANX the ADD and MUL ones (up to MUL_H); SHUF's lane
 * selection IR_SH_*; VOTE's IR_VT_*. ADD_H / MUL_H are the f16 ones: each
 * step in f32, rounded to f16 (min, max and the lane moves need no f16
 * variant: an f16 value is held as the f32 equal to it). */
#define IR_SGS(X)                                                              \
  X(ADD_I) X(ADD_F) X(MUL_I) X(MUL_F) X(ADD_H) X(MUL_H) X(MIN_S) X(MIN_U)      \
  X(MIN_F) X(MAX_S) X(MAX_U) X(MAX_F) X(AND) X(OR) X(XOR)
/* IDX: lane r[c]; XOR: lane ^ r[c]; UP: lane - r[c]; DOWN: lane + r[c];
 * QUAD: (lane & ~3) | r[c]; FIRST: the lowest active lane (r[c] unused) */
#define IR_SHS(X) X(IDX) X(XOR) X(UP) X(DOWN) X(QUAD) X(FIRST)
#define IR_VTS(X) X(ALL) X(ANY) X(ELECT)
typedef enum ir_sg {
#define X_(n) IR_SG_##n,
  IR_SGS(X_)
#undef X_
  IR_SG_COUNT
} ir_sg;
typedef enum ir_sh {
#define X_(n) IR_SH_##n,
  IR_SHS(X_)
#undef X_
  IR_SH_COUNT
} ir_sh;
typedef enum ir_vt {
#define X_(n) IR_VT_##n,
  IR_VTS(X_)
#undef X_
  IR_VT_COUNT
} ir_vt;

/* Built-in input values; vector ones take 3 consecutive registers. The
 * subgroup ones follow from W: lane l of subgroup s is the invocation with
 * local_invocation_index s*W + l. */
typedef enum ir_builtin {
  IR_BI_LOCAL_INVOCATION_INDEX,
  IR_BI_LOCAL_INVOCATION_ID,
  IR_BI_GLOBAL_INVOCATION_ID,
  IR_BI_WORKGROUP_ID,
  IR_BI_NUM_WORKGROUPS,
  IR_BI_SUBGROUP_INVOCATION_ID, /* l */
  IR_BI_SUBGROUP_SIZE,          /* W */
  IR_BI_SUBGROUP_ID,            /* s */
  IR_BI_NUM_SUBGROUPS,          /* ceil(workgroup invocations / W) */
  IR_BI_GLOBAL_INVOCATION_INDEX, /* linear_indexing: gid.x + gid.y * (size.x * groups.x)
                                    + gid.z * (size.x * groups.x * size.y * groups.y) */
  IR_BI_WORKGROUP_INDEX,         /* wid.x + wid.y * groups.x + wid.z * groups.x * groups.y */
  IR_BI_COUNT
} ir_builtin;

#define IR_NO_REG UINT32_MAX

typedef enum ir_binding_kind {
  IR_BIND_UNIFORM = 1,
  IR_BIND_STORAGE,           /* var<storage, read_write> */
  IR_BIND_READ_ONLY_STORAGE, /* var<storage, read> / var<storage> */
  IR_BIND_SAMPLED_TEXTURE,   /* texture_1d<T> ... texture_3d<T> */
  IR_BIND_WRITE_ONLY_STORAGE_TEXTURE, /* texture_storage_*<F, write> */
  IR_BIND_READ_ONLY_STORAGE_TEXTURE,  /* texture_storage_*<F, read> */
  IR_BIND_READ_WRITE_STORAGE_TEXTURE, /* texture_storage_*<F, read_write> */
  IR_BIND_SAMPLER,                    /* sampler */
  IR_BIND_COMPARISON_SAMPLER,         /* sampler_comparison */
  IR_BIND_IMMEDIATE                   /* var<immediate>: the pass's immediate
                                         data (group and binding UINT32_MAX) */
} ir_binding_kind;

#define IR_BIND_IS_TEXTURE(k) ((k) >= IR_BIND_SAMPLED_TEXTURE && (k) <= IR_BIND_READ_WRITE_STORAGE_TEXTURE)
#define IR_BIND_IS_SAMPLER(k) ((k) == IR_BIND_SAMPLER || (k) == IR_BIND_COMPARISON_SAMPLER)

/* The view dimension a texture binding declares; the values of
 * ls_view_dimension (lockstep.h). */
typedef enum ir_tex_dim {
  IR_TEXDIM_1D = 1,
  IR_TEXDIM_2D,
  IR_TEXDIM_2D_ARRAY,
  IR_TEXDIM_CUBE,
  IR_TEXDIM_CUBE_ARRAY,
  IR_TEXDIM_3D
} ir_tex_dim;

/* The sampled type of a sampled texture binding; DEPTH: texture_depth_*. */
typedef enum ir_tex_sample { IR_TEXS_F32, IR_TEXS_I32, IR_TEXS_U32, IR_TEXS_DEPTH } ir_tex_sample;

/* What one sampling instruction (TSMP) does: ir_program.samples[d]. The
 * WGSL built-in it came from, the texture and sampler binding slots, and
 * the const operands (gather component, texel offset). */
typedef enum ir_smp_kind {
  IR_SMP_LEVEL,      /* textureSampleLevel */
  IR_SMP_GRAD,       /* textureSampleGrad */
  IR_SMP_BASE_CLAMP, /* textureSampleBaseClampToEdge */
  IR_SMP_GATHER,     /* textureGather */
  IR_SMP_GATHER_CMP, /* textureGatherCompare */
  IR_SMP_CMP_LEVEL   /* textureSampleCompareLevel */
} ir_smp_kind;

/* ir_sample.flags */
#define IR_SMPF_INDEX_U32 1u /* the array index is u32 (else i32) */
#define IR_SMPF_LEVEL_INT 2u /* the level is an integer (depth textures) */
#define IR_SMPF_LEVEL_U32 4u /* ... a u32 */

typedef struct ir_sample {
  uint32_t texture, sampler; /* binding slots */
  uint8_t kind;              /* ir_smp_kind */
  uint8_t component;         /* textureGather: the channel */
  uint8_t flags;             /* IR_SMPF_* */
  int8_t offset[3];          /* texel offset; 0 when none */
  src_span span;             /* the call */
} ir_sample;

/* The input block of TSMP: IR_SMPIN_COUNT registers from operand b. */
enum {
  IR_SMPIN_COORD = 0, /* 3: coordinates (f32), what the dimension lacks is 0 */
  IR_SMPIN_INDEX = 3, /* the array index */
  IR_SMPIN_LEVEL = 4, /* the level (f32, or an integer per flags) */
  IR_SMPIN_DDX = 5,   /* 3: textureSampleGrad's ddx */
  IR_SMPIN_DDY = 8,   /* 3: ... ddy */
  IR_SMPIN_REF = 11,  /* depth_ref (f32) */
  IR_SMPIN_COUNT = 12
};

/* A resource the entry point uses; slot i of the program is bindings[i]. */
typedef struct ir_binding {
  uint32_t group, binding;
  ir_binding_kind kind;
  uint64_t min_size;   /* minimum binding size: SizeOf(store type), or for a
                          runtime-sized array its fixed part + one element */
  const char *name;    /* the WGSL variable */
  src_span span;       /* its declaration */
  /* textures */
  ir_tex_dim tex_dim;
  uint32_t tex_format; /* storage textures: the ls_texture_format */
  ir_tex_sample tex_sample; /* sampled textures */
  int tex_ms;               /* texture_multisampled_2d / texture_depth_multisampled_2d */
  int tex_external;         /* texture_external: a 2D f32 view, bound as an
                               external texture */
} ir_binding;

/* ir_insn.flags of a MAND that is a loop's exit test (the condition of a
 * for or while loop, `break if`): the profiler counts its divergence apart
 * from that of the program's branches. */
#define IR_FLAG_LOOP_TEST 1

/* A workgroup variable the entry point uses: where it lives in workgroup
 * memory, so that observers (the sanitizer) can name what an access hit.
 * Workgroup memory instructions (LDW, STW, ATOMW) carry the variable's index
 * + 1 in ir_insn.flags. */
typedef struct ir_wgvar {
  char *name;
  uint32_t offset, size; /* bytes in workgroup memory */
  src_span span;         /* its declaration */
} ir_wgvar;

typedef struct ir_program {
  ir_insn *code;
  src_span *spans;      /* spans[pc]: the WGSL source the instruction came from */
  uint32_t ncode;
  uint32_t nregs;       /* including constants and builtins */
  uint32_t nmasks;      /* mask slots */
  uint32_t *consts;
  uint32_t nconsts;
  uint32_t builtin_reg[IR_BI_COUNT]; /* IR_NO_REG when unused */
  uint32_t wg_size[3];
  uint32_t subgroup_size;   /* @subgroup_size(N): the width it must run at; 0 = any */
  src_span subgroup_size_span;
  uint32_t wg_mem_size;   /* bytes of workgroup memory (zeroed per workgroup) */
  uint32_t priv_mem_size; /* bytes of private memory per invocation (zeroed) */
  ir_binding *bindings;
  uint32_t nbindings;
  uint64_t imm_slots;   /* AccessibleSlots of the var<immediate> the entry
                           point uses: bit i = bytes [4i, 4i + 4) (the
                           slots setImmediates must have set) */
  ir_sample *samples;   /* the TSMP descriptors; the texture-sampler pairs
                           the API validates */
  uint32_t nsamples;
  ir_wgvar *wgvars;       /* in order of placement */
  uint32_t nwgvars;
  char *entry_point;
  const char *source;     /* the module's WGSL text and file name, for */
  const char *filename;   /* messages; owned by the module */
  uint32_t source_len;
  const uint32_t *line_starts; /* the source's line-start table (the module's; */
  uint32_t nlines;             /* NULL: ir_line_col scans the source) */
} ir_program;

void ir_program_free(ir_program *p);
/* The 1-based WGSL line and column (in bytes) where instruction pc came
 * from; 0, 0 without a source. A binary search in the line-start table. */
void ir_line_col(const ir_program *p, uint32_t pc, uint32_t *line, uint32_t *col);
/* Opcode name ("IADD") and operand form ("rrr-") from op.def. */
const char *ir_op_name(unsigned op);
const char *ir_op_form(unsigned op);
/* What an operand means beyond the form, from the verifier's table
 * (verify.c): whether op's operand a is read rather than written (stores,
 * TST, MAND), and how many consecutive registers operand k (0..3, a 'r'
 * operand) spans, 1 but for the texture operations' blocks. */
int ir_op_reads_a(unsigned op);
unsigned ir_op_run(unsigned op, unsigned k);
/* Human-readable listing of the program, malloc'd. */
char *ir_disassemble(const ir_program *p);
/* The bytecode verifier (verify.c): 1 when every operand of every
 * instruction fits op.def's form and the program's own sizes (registers,
 * mask slots, code, binding slots of the right kind, memory, sampling
 * descriptors) and the tables agree; 0 otherwise, with the first problem in
 * err (e.g. "pc 12 LDB: operand c = s7 is not a binding slot (the program
 * has 3)"). err may be NULL. */
int ir_verify(const ir_program *p, char *err, size_t errlen);
/* Whether pipeline creation verifies every program it lowers: always in
 * Debug builds and with the CMake option LOCKSTEP_VERIFY_IR, otherwise when
 * the environment variable LOCKSTEP_VERIFY_IR is set to anything but "" or
 * "0". */
int ir_verify_wanted(void);

#endif
