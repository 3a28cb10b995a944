/*
 * vm_isa_sse2.c — the interpreter at every subgroup width (vm_widths.inc)
 * for the library's baseline: SSE2 on x86-64, no -march, so that one
 * binary runs on any host. vm.c picks this copy where the CPU has nothing
 * wider, or where LOCKSTEP_ISA=sse2 asks for it.
 */
#include "vm_interp.h"
#include "vm_rows.inc"

#define VM_ISA
#include "vm_widths.inc"
#undef VM_ISA

/* The helpers compiled code calls (vm_jit_abi.h): this copy's out-of-line
 * rows and atomics, the same functions every variant's interpreter runs. */
#include "vm_jit.h"

static int vm_jit_checkpoint(void *cx, uint64_t cnt, uint64_t *limit) {
  return vm_checkpoint(cx, cnt, limit);
}

static void vm_jit_tex(void *cx, uint32_t s, uint32_t pc, uint32_t *dst, const uint32_t *src,
                       uint64_t exec) {
  ((vm_ctx *)cx)->jit_tex(cx, s, pc, dst, src, exec);
}

const vm_jit_fns vm_jit_helpers = {
    vm_jit_checkpoint, vm_fun1_row,        vm_fun2_row,  vm_ibit_row,    vm_packc_row,
    vm_unpackc_row,    vm_atomic_storage,  vm_atomic_plain, vm_sg_reduce, vm_sg_scan,
    vm_sg_shuffle,     vm_sg_vote,         vm_jit_obs_mem, vm_jit_obs_mem_seq, vm_jit_obs_loop,
    vm_jit_obs_end,    vm_jit_obs_xlane,   vm_jit_obs_branch, vm_jit_obs_barrier,
    vm_jit_obs_release, vm_jit_tex,
};
