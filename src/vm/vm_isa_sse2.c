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
