/*
 * vm_asm.h - the hand assembler of the VM's unit tests (test_vm.c,
 * test_vm_control.c): programs written the way lowering would emit them,
 * and a runner over vm_dispatch. Header-only: each test file is its own
 * executable, with its own two pools.
 */
#ifndef LOCKSTEP_VM_ASM_H
#define LOCKSTEP_VM_ASM_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/ir.h"
#include "vm/vm.h"

/* ------------------------------------------------------------- assembler */

/* Register plan of every test program: constants in [0, 32), temporaries
 * in [32, 100), built-ins from 100 on. */
enum {
  NREGS = 128,
  LIDX = 100,
  LID = 101,
  GID = 104,
  WID = 107,
  NWG = 110,
};
#define T(n) (32u + (n))
#define NO 0u

static vm_pool *pool1, *pool2;

static inline ir_program *prog_new(uint32_t sx, uint32_t sy, uint32_t sz) {
  ir_program *p = calloc(1, sizeof *p);
  assert_non_null(p);
  p->nregs = NREGS;
  p->nmasks = 8;
  p->consts = calloc(32, sizeof *p->consts);
  assert_non_null(p->consts);
  for (int i = 0; i < IR_BI_COUNT; i++) p->builtin_reg[i] = IR_NO_REG;
  p->builtin_reg[IR_BI_LOCAL_INVOCATION_INDEX] = LIDX;
  p->builtin_reg[IR_BI_LOCAL_INVOCATION_ID] = LID;
  p->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID] = GID;
  p->builtin_reg[IR_BI_WORKGROUP_ID] = WID;
  p->builtin_reg[IR_BI_NUM_WORKGROUPS] = NWG;
  p->wg_size[0] = sx;
  p->wg_size[1] = sy;
  p->wg_size[2] = sz;
  p->entry_point = strdup("main");
  return p;
}

static inline void prog_bindings(ir_program *p, uint32_t n) {
  p->bindings = calloc(n, sizeof *p->bindings);
  assert_non_null(p->bindings);
  p->nbindings = n;
  for (uint32_t i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof name, "buf%u", (unsigned)i);
    p->bindings[i].name = strdup(name);
    p->bindings[i].binding = i;
    p->bindings[i].kind = IR_BIND_STORAGE;
    p->bindings[i].min_size = 4;
  }
}

/* The register holding constant v (added on first use). */
static inline uint32_t K(ir_program *p, uint32_t v) {
  for (uint32_t i = 0; i < p->nconsts; i++)
    if (p->consts[i] == v) return i;
  assert_true(p->nconsts < 32);
  p->consts[p->nconsts] = v;
  return p->nconsts++;
}

static inline uint32_t KF(ir_program *p, float f) { return K(p, vm_f2u_bits(f)); }

/* Appends one instruction; returns its pc. */
static inline uint32_t E(ir_program *p, unsigned op, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  ir_insn *code = realloc(p->code, (p->ncode + 1) * sizeof *code);
  assert_non_null(code);
  p->code = code;
  code[p->ncode] = (ir_insn){.op = (uint16_t)op, .a = a, .b = b, .c = c, .d = d};
  return p->ncode++;
}

static inline uint32_t here(const ir_program *p) { return p->ncode; }
static inline void patch(ir_program *p, uint32_t pc, uint32_t target) { p->code[pc].a = target; }
static inline uint32_t atom(unsigned sub, uint32_t slot) { return sub | slot << 8; }

static inline vm_binding bind(void *data, uint64_t size) { return (vm_binding){data, size}; }

static inline vm_status run(vm_pool *pool, const ir_program *p, const vm_binding *b, uint32_t gx,
                     uint32_t gy, uint32_t gz, uint32_t width, uint64_t budget, vm_result *res) {
  vm_dispatch_desc d = {.prog = p, .bindings = b, .groups = {gx, gy, gz}, .width = width,
                        .budget = budget};
  vm_result local;
  vm_status st = vm_dispatch(pool, &d, res ? res : &local);
  assert_int_equal((res ? res : &local)->status, st);
  return st;
}

static const uint32_t widths[4] = {8, 16, 32, 64};

/* A program both files run: for (i = 0; i < lidx; i++) sum += i: every lane has its own trip count
 * and the subgroup loops until its last lane leaves. */
static inline ir_program *loop_prog(uint32_t n) {
  ir_program *p = prog_new(n, 1, 1);
  prog_bindings(p, 1);
  E(p, IR_MOV, T(0), K(p, 0), NO, NO); /* i */
  E(p, IR_MOV, T(1), K(p, 0), NO, NO); /* sum */
  E(p, IR_MSAVE, 0, NO, NO, NO);
  uint32_t top = E(p, IR_ULT, T(2), T(0), LIDX, NO);
  E(p, IR_MAND, T(2), NO, NO, NO);
  uint32_t jexit = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_IADD, T(3), T(1), T(0), NO);
  E(p, IR_MOVM, T(1), T(3), NO, NO);
  E(p, IR_IADD, T(3), T(0), K(p, 1), NO);
  E(p, IR_MOVM, T(0), T(3), NO, NO);
  E(p, IR_JANY, top, NO, NO, NO);
  patch(p, jexit, here(p));
  E(p, IR_MLOAD, 0, NO, NO, NO);
  E(p, IR_SHL, T(4), LIDX, K(p, 2), NO);
  E(p, IR_STB, T(4), T(1), 0, 0);
  E(p, IR_END, 0, 0, 0, 0);
  return p;
}

static inline int asm_setup(void **state) {
  (void)state;
  pool1 = vm_pool_create(1);
  pool2 = vm_pool_create(2);
  return pool1 && pool2 ? 0 : -1;
}

static inline int asm_teardown(void **state) {
  (void)state;
  vm_pool_destroy(pool1);
  vm_pool_destroy(pool2);
  return 0;
}

#endif
