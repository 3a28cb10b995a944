/*
 * vm_jit.h — the compiled tier (internal to src/vm): a program compiled to
 * machine code by the host's C compiler (jit_emit.c writes the C, jit.c
 * compiles, caches and runs it). It gives the interpreter's results,
 * counts and budget stops exactly and, built observed for an observer that
 * summarises (the profiler), the observed interpreter's counts and events;
 * the interpreter stays for everything else (observers that do not
 * summarise, the workgroups an observer sees in detail, programs it does
 * not compile, hosts without a C compiler).
 *
 * LOCKSTEP_JIT chooses when: "off" (or 0) never; "on" (or 1) at a
 * program's first dispatch; unset or "auto": at once when an earlier
 * process left the program's code in the cache, else once the program
 * has run 2^26 subgroup-instructions on the interpreter (a fraction of a
 * second), so that short jobs never wait for the compiler.
 * LOCKSTEP_CC names the compiler ("cc" by default), LOCKSTEP_JIT_CFLAGS
 * adds options to its command line (part of the cache key), LOCKSTEP_JIT_CACHE
 * the cache folder ($XDG_CACHE_HOME/lockstep/jit or ~/.cache/lockstep/jit
 * by default).
 */
#ifndef LS_VM_JIT_H
#define LS_VM_JIT_H

#include "../ir/ir.h"
#include "vm_jit_abi.h"

/* For tests and fuzzers: the policy as if LOCKSTEP_JIT were mode from now
 * on ("off", "on", "auto"); NULL reads LOCKSTEP_JIT again. */
void vm_jit_set_mode(const char *mode);

/* Whether every instruction of p is one the tier compiles, plain or
 * observed. */
int vm_jit_compilable(const ir_program *p);
/* The C source of p at width w after the prelude text (malloc'd), for
 * vectors of pl lanes (4 or 8), carrying check as vm_jit_check; with obs,
 * code that reports to a summarising observer (vm_jit_args); NULL when p
 * is not compilable or memory ran out. */
char *vm_jit_source(const ir_program *p, uint32_t w, uint32_t pl, uint64_t check,
                    const char *prelude, int obs);

typedef struct vm_jit_entry vm_jit_entry;
/* The compiled code of p at width w for instruction set isa (obs: the
 * observed code, vm_jit_source), when it is ready or the policy says to
 * build it now; NULL to interpret. *entry is where to report the work
 * done (vm_jit_ran), or NULL. */
vm_jit_sg_fn vm_jit_find(const ir_program *p, uint32_t w, const char *isa, int obs,
                         vm_jit_entry **entry);
/* A dispatch of the entry's program ran n subgroup-instructions. */
void vm_jit_ran(vm_jit_entry *e, uint64_t n);
/* What the last build that failed said, for tests and --version ("" if
 * none failed). */
const char *vm_jit_last_error(void);

/* Dispatches (or parts of one, per worker) that ran compiled code so far
 * in this process: for tests. */
uint64_t vm_jit_runs(void);

/* Observed compiled code's reports (jit_obs.c; vm_jit_fns.obs_*). */
void vm_jit_obs_mem(void *cx, uint32_t s, uint32_t pc, unsigned access, unsigned space,
                    uint32_t slot, uint32_t aop, const uint32_t *addr, uint32_t disp,
                    const uint32_t *val, uint64_t size, uint64_t exec, int seq, int uni,
                    unsigned bytes);
void vm_jit_obs_mem_seq(void *cx, uint32_t s, uint32_t pc, unsigned access, uint32_t slot,
                        uint64_t addr, const uint32_t *val, uint64_t size);
void vm_jit_obs_loop(void *cx, uint32_t s, uint32_t pc, uint64_t exec);
void vm_jit_obs_end(void *cx, uint32_t s, uint64_t alive, uint64_t wrote);
void vm_jit_obs_xlane(void *cx, uint32_t s, uint32_t pc, uint64_t exec, uint64_t miss);
void vm_jit_obs_branch(void *cx, uint32_t s, uint32_t pc, uint64_t before, uint64_t after);
void vm_jit_obs_barrier(void *cx, uint32_t s, uint32_t pc, uint64_t exec, uint64_t alive);
void vm_jit_obs_release(void *cx, const uint32_t *pc, uint32_t nsub);

/* The library's helpers for compiled code (vm_isa_sse2.c). */
extern const vm_jit_fns vm_jit_helpers;

#endif
