/*
 * vm_jit_abi.h — what the compiled tier's code and its runner (jit.c)
 * share: the arguments of a compiled subgroup function and the table of
 * library functions it calls for the rare operations. Self-contained
 * (stdint.h only): jit.c hands this text to the host's C compiler in the
 * prelude of every compiled program, so both sides read one definition.
 */
#ifndef LS_VM_JIT_ABI_H
#define LS_VM_JIT_ABI_H

#include <stdint.h>

/* A binding as vm.h's vm_binding lays it out (jit.c checks the layout). */
typedef struct vm_jit_mem {
  uint8_t *data;
  uint64_t size;
  const void *tex, *smp;
} vm_jit_mem;

/* The library's out-of-line helpers, the same ones the interpreter calls. */
typedef struct vm_jit_fns {
  int (*checkpoint)(void *cx, uint64_t cnt, uint64_t *limit);
  void (*fun1_row)(float *d, const float *x, unsigned fn, int n);
  void (*fun2_row)(float *d, const float *x, const float *y, unsigned fn, int n);
  void (*ibit_row)(uint32_t *d, const uint32_t *x, unsigned fn, int n);
  void (*packc_row)(uint32_t *d, const uint32_t *x, unsigned c, unsigned fn, int n);
  void (*unpackc_row)(uint32_t *d, const uint32_t *x, unsigned c, unsigned fn, int n);
  uint32_t (*atomic_storage)(uint32_t *w, unsigned op, uint32_t v, uint32_t cmp);
  uint32_t (*atomic_plain)(uint32_t *w, unsigned op, uint32_t v, uint32_t cmp);
  uint32_t (*sg_reduce)(const uint32_t *x, uint64_t live, unsigned op, unsigned w);
  void (*sg_scan)(uint32_t *d, const uint32_t *x, uint64_t live, unsigned op, int exclusive,
                  unsigned w);
  uint64_t (*sg_shuffle)(uint32_t *d, const uint32_t *x, const uint32_t *y, uint64_t live,
                         unsigned op, unsigned w);
  void (*sg_vote)(uint32_t *d, uint64_t nz, uint64_t live, unsigned op, unsigned w);
  /* An observed run's reports (jit_obs.c), made as the observed
   * interpreter makes them; s is the subgroup, addr and val rows of W. */
  void (*obs_mem)(void *cx, uint32_t s, uint32_t pc, unsigned access, unsigned space,
                  uint32_t slot, uint32_t aop, const uint32_t *addr, uint32_t disp,
                  const uint32_t *val, uint64_t size, uint64_t exec, int seq, int uni,
                  unsigned bytes);
  void (*obs_mem_seq)(void *cx, uint32_t s, uint32_t pc, unsigned access, uint32_t slot,
                      uint64_t addr, const uint32_t *val, uint64_t size);
  void (*obs_loop)(void *cx, uint32_t s, uint32_t pc, uint64_t exec);
  void (*obs_end)(void *cx, uint32_t s, uint64_t alive, uint64_t wrote);
  void (*obs_xlane)(void *cx, uint32_t s, uint32_t pc, uint64_t exec, uint64_t miss);
  /* An observer that does not summarise (the sanitizer) hears of these too */
  void (*obs_branch)(void *cx, uint32_t s, uint32_t pc, uint64_t before, uint64_t after);
  void (*obs_barrier)(void *cx, uint32_t s, uint32_t pc, uint64_t exec, uint64_t alive);
  /* Every subgroup not ended (pc[s] != UINT32_MAX) waits at the barrier
   * before pc[s]: the observer's barrier_release. */
  void (*obs_release)(void *cx, const uint32_t *pc, uint32_t nsub);
  /* The texture operation at pc (TLD, TST, TSMP, TQRY) of subgroup s as
   * the interpreter does it, on rows of W: operand rows in src, results in
   * dst; under an observer, with its texel event. */
  void (*tex)(void *cx, uint32_t s, uint32_t pc, uint32_t *dst, const uint32_t *src,
              uint64_t exec);
} vm_jit_fns;

/* One workgroup's state as a compiled subgroup function sees it. The
 * register file, mask slots, pcs and exec masks are the interpreter's
 * (vm_ctx): a subgroup keeps its registers in locals and writes the live
 * ones to its rows only at a barrier. */
typedef struct vm_jit_args {
  void *cx;
  const vm_jit_fns *fn;
  const vm_jit_mem *bind;
  uint8_t *wg;
  uint64_t wg_size;
  uint32_t *regs; /* nregs rows of W words per subgroup */
  uint64_t *masks;
  uint64_t *exec;
  uint32_t *pc; /* 0: not started; else where the subgroup resumes after a barrier */
  uint32_t *priv;
  uint32_t priv_words;
  uint64_t priv_size;
  uint64_t cnt, limit; /* instructions run in this workgroup; the next checkpoint */
  uint32_t fail_pc;
  uint32_t nsub; /* subgroups in the workgroup */
  /* What the built-ins are computed from (the generated code fills them,
   * as VM_START does for the interpreter): the workgroup's local ids (4
   * tables of nsub * W: index, x, y, z), its id and the dispatch's size
   * in workgroups. */
  const uint32_t *lid, *gid, *groups;
  int solo; /* one worker: storage atomics need no locked instructions */
  /* An observed run (code built with obs; a workgroup not seen in
   * detail: observe.h): the per-run counts, the observer's summaries (NULL
   * when it keeps none or does not summarise) and what it has. */
  uint64_t *si, *sl, *se;  /* issued, lanes, empty at each run's first pc */
  uint64_t *co, *un, *od;  /* coalesced (pc << ck), uniform, divergent */
  const uint64_t *ql;      /* quiet_loads */
  uint64_t *wrote;         /* [nsub] lanes that stored, across barriers */
  unsigned ck;
  int mem, mem_seq;        /* the observer has these callbacks */
  int sum;                 /* it summarises: private memory, branches,
                              barriers and whole subgroups' ends unreported */
  int branch, barrier;     /* it does not summarise and has these callbacks */
  int end;                 /* it has subgroup_end */
  uint32_t ninv;           /* invocations in the workgroup */
} vm_jit_args;

/* Access and space as observe.h numbers them (jit.c checks). */
enum { VM_JIT_LOAD, VM_JIT_STORE, VM_JIT_ATOMIC };
enum { VM_JIT_BUFFER, VM_JIT_WORKGROUP, VM_JIT_PRIVATE };

/* Runs subgroups s to nsub - 1 in turn, each until it ends (then its pc
 * becomes UINT32_MAX) or reaches a barrier, then further passes from
 * subgroup 0 while any subgroup waits at a barrier, and returns
 * VM_JIT_ALL with every subgroup ended; or VM_JIT_BUDGET when the budget
 * ran out on the way. */
typedef int (*vm_jit_sg_fn)(vm_jit_args *a, uint32_t s);
enum { VM_JIT_ALL, VM_JIT_BUDGET };

#endif
