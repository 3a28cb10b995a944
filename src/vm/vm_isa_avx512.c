/*
 * vm_isa_avx512.c — the interpreter at every subgroup width (vm_widths.inc)
 * for AVX-512 (F, VL, BW, DQ, CD, with 512-bit vectors preferred), chosen once at run time (vm.c) from what the CPU and the OS,
 * which must save the wider registers, support. Only the instruction
 * selection differs from vm_isa_sse2.c: the C is the same and FMA is
 * never contracted (-ffp-contract=off holds), so every variant gives the
 * same bits (tests/isa.cmake checks it). FMA is in the target list for
 * the one place that asks for it by name (VM_HAS_FMA: sampling's decode,
 * vm_sample.inc, where it computes the same bits as the baseline's way). The helpers of
 * vm_interp.h are inlined into this copy and compiled for its target; the
 * out-of-line ones (vm_rows.inc, included before the pragma) and those of
 * other files (subgroup operations, sampling) stay baseline code.
 */
#include "vm_interp.h"
#include "vm_rows.inc"

#define VM_ISA _avx512
#define VM_HAS_FMA 1
#define VM_TARGET_GCC "avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,fma,bmi,bmi2,lzcnt,popcnt,prefer-vector-width=512"
#define VM_TARGET_CLANG "avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx2,fma,bmi,bmi2,lzcnt,popcnt"
#include "vm_variant.inc"
