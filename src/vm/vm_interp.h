/*
 * vm_interp.h — what vm.c and the interpreter's instruction-set variants
 * share (internal to src/vm): the per-worker execution context, the
 * translated instruction, and the lane helpers every copy of the
 * interpreter inlines.
 *
 * vm.c checks a program, lays out the contexts and hands out workgroups;
 * vm_isa_sse2.c, vm_isa_avx2.c and vm_isa_avx512.c each compile the
 * interpreter (vm_widths.inc: vm_exec.inc once per subgroup width) for one
 * instruction set. They are files of their own so that a build compiles
 * the three side by side: together they are most of the library's
 * compile time.
 */
#ifndef LS_VM_INTERP_H
#define LS_VM_INTERP_H

#include "vm.h"
#include "subgroup.h"
#include "../util/bitfn.h"

#include "vm_lane.h"
#include "vm_jit_abi.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* How a workgroup run ended. */
enum { VM_Y_END, VM_Y_BUDGET };
/* Why a run or a worker stopped early (vm_ctx.why): the status it gives. */
enum { VM_WHY_BUDGET = 1, VM_WHY_TIMEOUT, VM_WHY_CANCEL };
/* Instructions between two looks at the clock inside a workgroup: a few
 * milliseconds of work. */
#define VM_SLICE (UINT64_C(1) << 22)
enum { VM_S_RUN, VM_S_DONE };

/* One step of a subgroup's set-up (VM_START): a built-in row the code
 * reads. The plan lists only those, in a fixed order, so starting a
 * subgroup tests nothing the program does not use (at W = 8 a dispatch
 * starts four times as many subgroups as at W = 32). */
typedef enum vm_fill_op {
  VM_F_LID,     /* row k of cx->lid: local_invocation_index (k = 0), local_invocation_id.x..z */
  VM_F_GID,     /* global_invocation_id, component k */
  VM_F_WGID,    /* workgroup_id, component k */
  VM_F_NWG,     /* num_workgroups, component k */
  VM_F_WGINDEX, /* workgroup_index */
  VM_F_GINDEX,  /* global_invocation_index */
  VM_F_SGLANE,  /* subgroup_invocation_id */
  VM_F_SGSIZE,  /* subgroup_size */
  VM_F_SGID,    /* subgroup_id */
  VM_F_NSG      /* num_subgroups */
} vm_fill_op;

typedef struct vm_fill {
  uint8_t op, k;
  uint32_t reg; /* row index in the subgroup's register file */
} vm_fill;

#define VM_FILL_MAX 19 /* each (built-in, component) once: 1 + 3 * 4 + 2 + 4 */

/* Which fill op gives each built-in, and its components (vm.c): the plan
 * reads it, and so does the compiled tier, which computes the built-ins
 * in its registers itself (jit_emit.c). */
typedef struct vm_fill_step {
  uint8_t bi, op, comps, k0;
} vm_fill_step;
extern const vm_fill_step vm_fill_steps[];
extern const unsigned vm_fill_nsteps;

typedef struct vm_ctx vm_ctx;
typedef int (*vm_run_fn)(vm_ctx *cx);
/* A texture operation on rows, for compiled code (vm_exec.inc). */
typedef void (*vm_tex_rows_fn)(vm_ctx *cx, uint32_t s, uint32_t pc, uint32_t *dst,
                               const uint32_t *src, uint64_t exec);

/* Handlers beyond op.def's opcodes that translation may pick (vm_exec.inc). */
enum { VM_X_FELL_OFF = IR_OPCODE_COUNT, VM_X_IDXS, VM_X_LDBK, VM_X_BRKIF, VM_X_LOOPT, VM_X_IFZ, VM_X_COUNT };


/* One instruction as the interpreter runs it (see vm_exec.inc). */
typedef struct vm_op {
  const void *handler;
  uint32_t a, b, c, d;
  uint32_t op;
  uint32_t e; /* precomputed per instruction (IDX: largest index not to saturate) */
} vm_op;

struct vm_ctx {
  const ir_program *prog;
  const vm_binding *bind;
  vm_run_fn run;
  vm_op *tcode; /* ncode + 1 entries */
  int translated;
  uint32_t width, nsub, ninv;
  uint32_t *regs;
  uint64_t *masks;
  uint32_t *pc;
  uint64_t *exec;
  uint8_t *state;
  uint32_t *lid; /* 4 tables of nsub*W: index, x, y, z */
  uint32_t *wgmem;
  uint32_t wgmem_size; /* bytes as the program declares them */
  uint32_t *priv;
  uint32_t priv_size;  /* bytes per invocation */
  uint32_t priv_words; /* priv_size / 4 */
  uint64_t limit;      /* the next checkpoint: budget or the next clock look */
  uint64_t budget;     /* per workgroup, UINT64_MAX when unlimited */
  uint64_t deadline;   /* monotonic ns; UINT64_MAX = none */
  const _Atomic int *cancel;
  int why;             /* VM_WHY_*: why the run stopped */
  uint64_t count;      /* instructions the last workgroup run executed */
  uint32_t fail_pc;
  uint32_t gid[3];     /* current workgroup */
  uint32_t groups[3];
  vm_fill fill[VM_FILL_MAX];     /* the built-in rows a subgroup starts with */
  uint32_t nfill;
  const vm_observer *obs; /* NULL: the plain interpreter runs */
  unsigned thread;        /* worker index, passed to the observer */
  uint32_t *obs_pcs;      /* [nsub] barrier pcs for barrier_release */
  uint64_t *obs_issued, *obs_lanes; /* [ncode + 1] when the observer has none */
  uint64_t *obs_empty;              /* [ncode + 1] when the observer has no empty[] */
  int f16c;               /* the host converts f32 <-> f16 in hardware (F16R) */
  /* Observed runs count per straight-line run (observe.h): lead[pc] is the
   * first pc of pc's run, seg_issued / seg_lanes count at that pc, and
   * tcode_all counts at every pc (a workgroup seen in detail). */
  vm_op *tcode_all;
  uint32_t *lead;
  uint64_t *seg_issued, *seg_lanes, *seg_empty;
  uint64_t *obs_wrote; /* [nsub] lanes that stored, kept across barriers */
  int detail;          /* group_begin asked for this workgroup in detail */
  /* The dispatch runs on this worker alone: no other thread touches its
   * storage buffers while it runs (the queue runs one dispatch at a time),
   * so storage atomics need no locked instructions. */
  int solo;
  /* The compiled tier (jit.c): run is vm_jit_run, which calls jit for each
   * subgroup after jit_begin (the interpreter's VM_START at this width). */
  vm_jit_sg_fn jit;
  void (*jit_begin)(vm_ctx *cx);
  vm_tex_rows_fn jit_tex; /* vm_jit_fns.tex at this width and instruction set */
  /* What the compiled code reads, built once a dispatch (vm_jit_run's
   * first call): a workgroup only resets the count and the checkpoint. */
  vm_jit_args jit_args;
  /* With an observer: the observed interpreter, for the workgroups it
   * sees in detail (and to translate the code they run). */
  vm_run_fn interp;
};

/* F16R's lane loop through the host's F16C conversions (vm.c). */
void vm_r16_row_f16c(uint32_t *d, const uint32_t *x, int n);

/* A run reached its checkpoint after cnt instructions: 1 to go on (with the
 * next checkpoint in *limit), 0 to stop (cx->why says why). vm.c. */
int vm_checkpoint(vm_ctx *cx, uint64_t cnt, uint64_t *limit);

#define VM_CAT2(a, b) a##b
#define VM_CAT(a, b) VM_CAT2(a, b)

/* VM_WN(name) names one width's (and one instruction set's) copy of a
 * function: name ## VM_W ## VM_ISA. */
#define VM_WN(base) VM_CAT(VM_CAT(base, VM_W), VM_ISA)

/* The AVX2 and AVX-512 variants exist on x86-64 with GCC or clang. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(VM_NO_ISA_VARIANTS)
#define VM_HAVE_ISA_VARIANTS 1
#else
#define VM_HAVE_ISA_VARIANTS 0
#endif

/* vm_tex_rows_fn at width w */
#define VM_TEX_ROWS_DECL(w, sfx)                                               \
  void vm_tex_rows_w##w##sfx(vm_ctx *cx, uint32_t s, uint32_t pc, uint32_t *dst,          \
                             const uint32_t *src, uint64_t exec);

/* One variant's entry points: the plain and the observed interpreter at
 * each width (vm_exec.inc, vm_loop.inc), and the set-up and texture
 * operations of compiled code. */
#define VM_RUN_DECLS(sfx)                                                      \
  void vm_begin_w8##sfx(vm_ctx *cx);                                           \
  void vm_begin_w16##sfx(vm_ctx *cx);                                          \
  void vm_begin_w32##sfx(vm_ctx *cx);                                          \
  void vm_begin_w64##sfx(vm_ctx *cx);                                          \
  VM_TEX_ROWS_DECL(8, sfx)                                                     \
  VM_TEX_ROWS_DECL(16, sfx)                                                    \
  VM_TEX_ROWS_DECL(32, sfx)                                                    \
  VM_TEX_ROWS_DECL(64, sfx)                                                    \
  int vm_run_w8##sfx(vm_ctx *cx);                                              \
  int vm_run_obs_w8##sfx(vm_ctx *cx);                                          \
  int vm_run_w16##sfx(vm_ctx *cx);                                             \
  int vm_run_obs_w16##sfx(vm_ctx *cx);                                         \
  int vm_run_w32##sfx(vm_ctx *cx);                                             \
  int vm_run_obs_w32##sfx(vm_ctx *cx);                                         \
  int vm_run_w64##sfx(vm_ctx *cx);                                             \
  int vm_run_obs_w64##sfx(vm_ctx *cx);
VM_RUN_DECLS()
#if VM_HAVE_ISA_VARIANTS
VM_RUN_DECLS(_avx2)
VM_RUN_DECLS(_avx512)
#endif
#undef VM_RUN_DECLS
#undef VM_TEX_ROWS_DECL

/* cx->run when the dispatch runs compiled code (jit.c). */
int vm_jit_run(vm_ctx *cx);

/* The straight-line runs of p for the observed counts: lead[pc] is the
 * first pc of pc's run (ncode + 1 entries; vm.c). The observed interpreter
 * and observed compiled code count at those pcs. */
void vm_segments(const ir_program *p, uint32_t *lead);

#endif
