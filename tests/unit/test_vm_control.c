/*
 * test_vm_control.c - unit tests of the SIMT VM (src/vm): atomics (totals
 * and the order of their results), the instruction budget (where a runaway
 * loop stops, at every width) and the plain interpreter's fused `break`
 * against the observed interpreter at every budget (and, run again under
 * LOCKSTEP_JIT=on, the compiled tier's), and every built-in's value in
 * a 3D workgroup of partial subgroups (the compiled tier computes the
 * built-ins itself; a program that differs only in which register holds
 * which built-in must not share its compiled code). Programs are assembled
 * by hand (vm_asm.h) and checked against C reference code.
 */
#include "vm_asm.h"
#include "vm/vm_jit.h"

#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- atomics */

static void test_atomics_totals(void **state) {
  (void)state;
  enum { N = 64, G = 500 };
  ir_program *p = prog_new(N, 1, 1);
  prog_bindings(p, 1);
  E(p, IR_ATOMB, T(0), K(p, 0), K(p, 1), atom(IR_ATOM_ADD, 0));
  E(p, IR_ATOMB, T(0), K(p, 4), GID, atom(IR_ATOM_MAX_U, 0));
  E(p, IR_INEG, T(1), GID, NO, NO);
  E(p, IR_ATOMB, T(0), K(p, 8), T(1), atom(IR_ATOM_MIN_S, 0));
  E(p, IR_AND, T(2), GID, K(p, 31), NO);
  E(p, IR_SHL, T(2), K(p, 1), T(2), NO);
  E(p, IR_ATOMB, T(0), K(p, 12), T(2), atom(IR_ATOM_OR, 0));
  E(p, IR_ATOMB, T(0), K(p, 16), GID, atom(IR_ATOM_XOR, 0));
  E(p, IR_ATOMB, T(0), K(p, 20), K(p, 3), atom(IR_ATOM_SUB, 0));
  E(p, IR_NOT, T(3), T(2), NO, NO);
  E(p, IR_ATOMB, T(0), K(p, 24), T(3), atom(IR_ATOM_AND, 0));
  E(p, IR_ISUB, T(4), GID, K(p, 16000), NO);
  E(p, IR_ATOMB, T(0), K(p, 28), T(4), atom(IR_ATOM_MAX_S, 0));
  E(p, IR_IADD, T(5), GID, K(p, 5), NO);
  E(p, IR_ATOMB, T(0), K(p, 32), T(5), atom(IR_ATOM_MIN_U, 0));
  E(p, IR_ATOMB, T(0), K(p, 0xFFFFFFFCu), K(p, 1), atom(IR_ATOM_ADD, 0)); /* out: no effect */
  E(p, IR_STB, K(p, 36), T(0), 0, 0); /* ... and returns 0 */
  E(p, IR_END, 0, 0, 0, 0);
  uint32_t xor_all = 0;
  for (uint32_t i = 0; i < N * G; i++) xor_all ^= i;
  for (int pi = 0; pi < 2; pi++)
    for (int wi = 0; wi < 4; wi++) {
      uint32_t v[10] = {0, 0, 0x7FFFFFFF, 0, 0, 0, 0xFFFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 99};
      vm_binding b = bind(v, sizeof v);
      assert_int_equal(run(pi ? pool2 : pool1, p, &b, G, 1, 1, widths[wi], 0, NULL), VM_OK);
      assert_int_equal(v[0], N * G);
      assert_int_equal(v[1], N * G - 1);
      assert_int_equal(v[2], (uint32_t)-(int32_t)(N * G - 1));
      assert_int_equal(v[3], 0xFFFFFFFFu);
      assert_int_equal(v[4], xor_all);
      assert_int_equal(v[5], 0u - 3u * N * G);
      assert_int_equal(v[6], 0);
      assert_int_equal(v[7], N * G - 1 - 16000);
      assert_int_equal(v[8], 5);
      assert_int_equal(v[9], 0);
    }
  ir_program_free(p);
}

/* Within a subgroup, lanes apply in lane order and get the old values. */
static void test_atomics_order(void **state) {
  (void)state;
  for (int wi = 0; wi < 4; wi++) {
    const uint32_t w = widths[wi];
    ir_program *p = prog_new(w, 1, 1);
    prog_bindings(p, 2);
    p->wg_mem_size = 16;
    E(p, IR_SHL, T(0), LIDX, K(p, 2), NO);
    E(p, IR_ATOMB, T(1), K(p, 0), K(p, 1), atom(IR_ATOM_ADD, 0));
    E(p, IR_STB, T(0), T(1), 1, 0);
    E(p, IR_IADD, T(2), LIDX, K(p, 100), NO);
    E(p, IR_ATOMB, T(1), K(p, 4), T(2), atom(IR_ATOM_XCHG, 0));
    E(p, IR_STB, T(0), T(1), 1, 256);
    E(p, IR_ATOMB, T(1), K(p, 8), LIDX, atom(IR_ATOM_STORE, 0));
    E(p, IR_ATOMB, T(1), K(p, 8), NO, atom(IR_ATOM_LOAD, 0));
    E(p, IR_STB, T(0), T(1), 1, 512);
    E(p, IR_ATOMW, T(1), K(p, 4), K(p, 2), IR_ATOM_ADD);
    E(p, IR_STB, T(0), T(1), 1, 768);
    E(p, IR_ATOMW, T(1), K(p, 64), K(p, 2), IR_ATOM_ADD); /* out of bounds */
    E(p, IR_STB, T(0), T(1), 1, 1024);
    E(p, IR_END, 0, 0, 0, 0);
    uint32_t v[3] = {0, 7, 0}, out[5 * 64];
    memset(out, 0xEE, sizeof out);
    vm_binding b[2] = {bind(v, sizeof v), bind(out, sizeof out)};
    assert_int_equal(run(pool1, p, b, 1, 1, 1, w, 0, NULL), VM_OK);
    for (uint32_t l = 0; l < w; l++) {
      assert_int_equal(out[l], l);
      assert_int_equal(out[64 + l], l ? 100 + l - 1 : 7);
      assert_int_equal(out[128 + l], w - 1);
      assert_int_equal(out[192 + l], 2 * l);
      assert_int_equal(out[256 + l], 0);
    }
    assert_int_equal(v[0], w);
    assert_int_equal(v[1], 100 + w - 1);
    assert_int_equal(v[2], w - 1);
    ir_program_free(p);
  }
}

/* ------------------------------------------------------------------ budget */

/* A Collatz-style loop whose exit test is `if (c) { break; }` in the seven
 * instructions lowering emits (MSAVE; MAND; JNONE +3; KILL; JMP +1; MLOAD;
 * JNONE), or (loop_test 1) the test of a while loop, `while (n > 1)`, in its
 * seven (MSAVE; XOR; MAND; JNONE +2; KILL; MLOAD; JNONE), either of which
 * the plain interpreter runs as one fused step; loop_test 2 is the first
 * with its body as an if (MSAVE; MAND; JNONE, which the plain interpreter
 * also fuses) and an else. The observed
 * interpreter runs the seven as they are for an observer that sees
 * branches (and fuses them too for one that sees neither branches nor
 * per-pc counts), so all three must agree on everything: outputs, status,
 * the instruction count and where a budget stops the run, for every budget
 * around the run's length. */
static ir_program *break_prog(int loop_test) {
  ir_program *p = prog_new(64, 1, 1);
  prog_bindings(p, 1);
  E(p, IR_IADD, T(0), LIDX, K(p, 1), NO); /* n = lane + 1 */
  E(p, IR_MOV, T(1), K(p, 0), NO, NO);    /* steps */
  E(p, IR_MSAVE, 1, NO, NO, NO);
  E(p, IR_MSAVE, 2, NO, NO, NO);
  const uint32_t top = E(p, IR_MSAVE, 3, NO, NO, NO);
  if (loop_test == 1) {
    E(p, IR_ULT, T(2), K(p, 1), T(0), NO); /* n > 1 */
    const uint32_t pat = E(p, IR_MSAVE, 4, NO, NO, NO);
    E(p, IR_XOR, T(8), T(2), K(p, 1), NO);
    E(p, IR_MAND, T(8), NO, NO, NO);
    E(p, IR_JNONE, pat + 5, NO, NO, NO);
    E(p, IR_KILL, 2, 5, NO, NO);
  } else {
    E(p, IR_ULE, T(2), T(0), K(p, 1), NO);
    const uint32_t pat = E(p, IR_MSAVE, 4, NO, NO, NO);
    E(p, IR_MAND, T(2), NO, NO, NO);
    E(p, IR_JNONE, pat + 5, NO, NO, NO);
    E(p, IR_KILL, 2, 5, NO, NO);
    E(p, IR_JMP, pat + 5, NO, NO, NO);
  }
  E(p, IR_MLOAD, 4, NO, NO, NO);
  const uint32_t jout = E(p, IR_JNONE, 0, NO, NO, NO);
  E(p, IR_AND, T(3), T(0), K(p, 1), NO); /* odd: 3n + 1, even: n / 2 */
  if (loop_test == 2) {
    /* as lowering emits if (odd) { n = 3n + 1; } else { n = n / 2; } */
    const uint32_t odd = E(p, IR_MSAVE, 5, NO, NO, NO);
    E(p, IR_MAND, T(3), NO, NO, NO);
    E(p, IR_JNONE, odd + 6, NO, NO, NO);
    E(p, IR_IMUL, T(4), T(0), K(p, 3), NO);
    E(p, IR_IADD, T(4), T(4), K(p, 1), NO);
    E(p, IR_MOVM, T(0), T(4), NO, NO);
    E(p, IR_MANDN, 5, T(3), NO, NO);
    E(p, IR_JNONE, odd + 10, NO, NO, NO);
    E(p, IR_SHRU, T(5), T(0), K(p, 1), NO);
    E(p, IR_MOVM, T(0), T(5), NO, NO);
    E(p, IR_MLOAD, 5, NO, NO, NO);
  } else {
    E(p, IR_IMUL, T(4), T(0), K(p, 3), NO);
    E(p, IR_IADD, T(4), T(4), K(p, 1), NO);
    E(p, IR_SHRU, T(5), T(0), K(p, 1), NO);
    E(p, IR_SELECT, T(7), T(5), T(4), T(3));
    E(p, IR_MOVM, T(0), T(7), NO, NO); /* arithmetic writes every lane: assign the live ones */
  }
  E(p, IR_IADD, T(7), T(1), K(p, 1), NO);
  E(p, IR_MOVM, T(1), T(7), NO, NO);
  patch(p, jout, here(p));
  E(p, IR_MLOAD, 3, NO, NO, NO);
  E(p, IR_MLOAD, 2, NO, NO, NO);
  E(p, IR_JANY, top, NO, NO, NO);
  E(p, IR_MLOAD, 1, NO, NO, NO);
  E(p, IR_SHL, T(6), LIDX, K(p, 2), NO);
  E(p, IR_STB, T(6), T(1), 0, 0);
  E(p, IR_END, 0, 0, 0, 0);
  return p;
}

static void obs_noop_end(void *user, unsigned thread, const vm_where *w, uint64_t alive,
                         uint64_t wrote) {
  (void)user, (void)thread, (void)w, (void)alive, (void)wrote;
}

static void obs_noop_branch(void *user, unsigned thread, const vm_where *w, uint32_t pc,
                            uint64_t before, uint64_t after) {
  (void)user, (void)thread, (void)w, (void)pc, (void)before, (void)after;
}

static void test_fused_break_matches_observed(void **state) {
  (void)state;
  for (int form = 0; form < 3; form++) {
  ir_program *p = break_prog(form);
  for (int wi = 0; wi < 4; wi++) {
    const uint32_t w = widths[wi];
    uint32_t out[64], out_obs[64];
    vm_binding b = bind(out, sizeof out), bo = bind(out_obs, sizeof out_obs);
    vm_observer o, quiet;
    memset(&o, 0, sizeof o);
    o.subgroup_end = obs_noop_end;
    quiet = o;
    o.branch = obs_noop_branch; /* the seven as they are */
    vm_result full;
    assert_int_equal(run(pool1, p, &b, 1, 1, 1, w, 0, &full), VM_OK);
    /* steps of n = 1 .. 64 (n = 27 takes 111), computed here */
    for (uint32_t l = 0; l < 64; l++) {
      uint32_t n = l + 1, k = 0;
      while (n > 1) n = n & 1 ? 3 * n + 1 : n / 2, k++;
      assert_int_equal(out[l], k);
    }
    for (uint64_t budget = 1; budget <= full.instructions + 3; budget += budget < 300 ? 1 : 37) {
      vm_result r, ro;
      memset(out, 0, sizeof out);
      memset(out_obs, 0, sizeof out_obs);
      vm_status st = run(pool1, p, &b, 1, 1, 1, w, budget, &r);
      vm_dispatch_desc d = {.prog = p, .bindings = &bo, .groups = {1, 1, 1}, .width = w,
                            .budget = budget, .observer = &o};
      vm_status sto = vm_dispatch(pool1, &d, &ro);
      assert_int_equal(st, sto);
      assert_int_equal(r.instructions, ro.instructions);
      if (st == VM_BUDGET_EXCEEDED) assert_int_equal(r.pc, ro.pc);
      assert_memory_equal(out, out_obs, sizeof out);
      memset(out_obs, 0, sizeof out_obs);
      d.observer = &quiet;
      assert_int_equal(vm_dispatch(pool1, &d, &ro), st);
      assert_int_equal(r.instructions, ro.instructions);
      if (st == VM_BUDGET_EXCEEDED) assert_int_equal(r.pc, ro.pc);
      assert_memory_equal(out, out_obs, sizeof out);
    }
  }
  ir_program_free(p);
  }
}


static void test_budget(void **state) {
  (void)state;
  /* an infinite loop: exec never empties */
  ir_program *p = prog_new(64, 1, 1);
  E(p, IR_IADD, T(0), T(0), K(p, 1), NO);
  uint32_t back = E(p, IR_JANY, 0, NO, NO, NO);
  E(p, IR_END, 0, 0, 0, 0);
  vm_result res;
  for (int wi = 0; wi < 4; wi++) {
    assert_int_equal(run(pool1, p, NULL, 1, 1, 1, widths[wi], 1000, &res), VM_BUDGET_EXCEEDED);
    assert_int_equal(res.pc, back);
    assert_int_equal(res.group[0], 0);
    assert_int_equal(res.instructions, 1002); /* checked at the back edge */
  }
  /* many workgroups on two threads: stops, does not hang */
  assert_int_equal(run(pool2, p, NULL, 1000, 1000, 1, 16, 5000, &res), VM_BUDGET_EXCEEDED);
  assert_int_equal(res.pc, back);
  assert_true(res.group[0] < 1000 && res.group[1] < 1000 && res.group[2] == 0);
  assert_true(res.instructions < 1000000);
  ir_program_free(p);

  /* only workgroup (3, 1, 0) loops forever (JMP); the others end */
  p = prog_new(8, 1, 1);
  E(p, IR_IEQ, T(0), WID, K(p, 3), NO);
  E(p, IR_IEQ, T(1), WID + 1, K(p, 1), NO);
  E(p, IR_AND, T(0), T(0), T(1), NO);
  E(p, IR_MAND, T(0), NO, NO, NO);
  uint32_t j = E(p, IR_JNONE, 0, NO, NO, NO);
  uint32_t spin = E(p, IR_JMP, 0, NO, NO, NO);
  patch(p, spin, spin);
  patch(p, j, here(p));
  E(p, IR_END, 0, 0, 0, 0);
  assert_int_equal(run(pool1, p, NULL, 5, 2, 1, 8, 100, &res), VM_BUDGET_EXCEEDED);
  assert_int_equal(res.pc, spin);
  assert_int_equal(res.group[0], 3);
  assert_int_equal(res.group[1], 1);
  assert_int_equal(res.group[2], 0);
  assert_int_equal(run(pool2, p, NULL, 5, 2, 1, 8, 100, &res), VM_BUDGET_EXCEEDED);
  assert_int_equal(res.group[0], 3);
  assert_int_equal(res.group[1], 1);
  ir_program_free(p);

  /* a finite loop within budget runs to the end; the same loop with a
   * smaller budget stops at the first back edge past it */
  p = loop_prog(24);
  uint32_t out[24];
  vm_binding b = bind(out, sizeof out);
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 32, 194, &res), VM_OK);
  assert_int_equal(res.instructions, 194);
  assert_int_equal(out[23], 23 * 22 / 2);
  assert_int_equal(run(pool1, p, &b, 1, 1, 1, 32, 100, &res), VM_BUDGET_EXCEEDED);
  assert_int_equal(res.instructions, 107); /* 3 + 8 * 13 */
  assert_int_equal(res.pc, 10);
  ir_program_free(p);
}


/* ------------------------------------------------------------ built-ins */

enum { BI_N = 19, BI_MAXINV = 32 };
enum { SGLANE = 113, SGSIZE, SGID, NSG, GINDEX, WGINDEX };

/* Every built-in a workgroup of sx * sy * sz starts with, 19 words per
 * invocation at word (workgroup_index * BI_MAXINV + local_invocation_index)
 * * 19, in the order of regs[]. */
static ir_program *builtins_prog(const uint32_t regs[BI_N], const uint32_t size[3]) {
  ir_program *p = prog_new(size[0], size[1], size[2]);
  prog_bindings(p, 1);
  p->builtin_reg[IR_BI_SUBGROUP_INVOCATION_ID] = SGLANE;
  p->builtin_reg[IR_BI_SUBGROUP_SIZE] = SGSIZE;
  p->builtin_reg[IR_BI_SUBGROUP_ID] = SGID;
  p->builtin_reg[IR_BI_NUM_SUBGROUPS] = NSG;
  p->builtin_reg[IR_BI_GLOBAL_INVOCATION_INDEX] = GINDEX;
  p->builtin_reg[IR_BI_WORKGROUP_INDEX] = WGINDEX;
  E(p, IR_IMUL, T(0), WGINDEX, K(p, BI_MAXINV), NO);
  E(p, IR_IADD, T(0), T(0), LIDX, NO);
  E(p, IR_IMUL, T(0), T(0), K(p, 4 * BI_N), NO);
  for (uint32_t j = 0; j < BI_N; j++) {
    E(p, IR_IADD, T(1), T(0), K(p, 4 * j), NO);
    E(p, IR_STB, T(1), regs[j], 0, 0);
  }
  E(p, IR_END, 0, 0, 0, 0);
  return p;
}

/* Two workgroup shapes, of sizes that are powers of two and that are not
 * (a local id is index % sx, index / sx % sy and index / sx / sy), each
 * with partial subgroups at every width. */
static void test_builtins(void **state) {
  (void)state;
  enum { GX = 2, GY = 3, GZ = 2, NG = GX * GY * GZ };
  static const uint32_t shapes[2][3] = {{4, 2, 3}, {3, 5, 2}};
  /* the register of each of the 19 values, and the value it must hold */
  const uint32_t regs[BI_N] = {LIDX,   LID,    LID + 1, LID + 2, GID,    GID + 1, GID + 2,
                               WID,    WID + 1, WID + 2, NWG,   NWG + 1, NWG + 2, SGLANE,
                               SGSIZE, SGID,   NSG,     GINDEX, WGINDEX};
  static uint32_t out[NG * BI_MAXINV * BI_N];
  const vm_binding b = bind(out, sizeof out);
  for (int sh = 0; sh < 2; sh++) {
    const uint32_t *size = shapes[sh], ninv = size[0] * size[1] * size[2];
    ir_program *p = builtins_prog(regs, size);
    /* the same code, local and global invocation ids in each other's
     * registers: the second column of values trades places */
    ir_program *q = builtins_prog(regs, size);
    q->builtin_reg[IR_BI_LOCAL_INVOCATION_ID] = GID;
    q->builtin_reg[IR_BI_GLOBAL_INVOCATION_ID] = LID;
    for (int wi = 0; wi < 4; wi++) {
      const uint32_t W = widths[wi];
      for (int swap = 0; swap < 2; swap++) {
        memset(out, 0xee, sizeof out);
        assert_int_equal(run(pool1, swap ? q : p, &b, GX, GY, GZ, W, 0, NULL), VM_OK);
        for (uint32_t g = 0; g < NG; g++)
          for (uint32_t li = 0; li < ninv; li++) {
            const uint32_t wid[3] = {g % GX, g / GX % GY, g / GX / GY};
            const uint32_t lid[3] = {li % size[0], li / size[0] % size[1],
                                     li / size[0] / size[1]};
            const uint32_t groups[3] = {GX, GY, GZ};
            uint32_t want[BI_N], gid[3];
            want[0] = li;
            for (int c = 0; c < 3; c++) {
              gid[c] = wid[c] * size[c] + lid[c];
              want[1 + c] = swap ? gid[c] : lid[c];
              want[4 + c] = swap ? lid[c] : gid[c];
              want[7 + c] = wid[c];
              want[10 + c] = groups[c];
            }
            want[13] = li % W;
            want[14] = W;
            want[15] = li / W;
            want[16] = (ninv + W - 1) / W;
            want[17] = gid[0] + gid[1] * (size[0] * GX) + gid[2] * (size[0] * GX * size[1] * GY);
            want[18] = g;
            const uint32_t *got = out + ((size_t)g * BI_MAXINV + li) * BI_N;
            for (int j = 0; j < BI_N; j++) {
              if (got[j] == want[j]) continue;
              fprintf(stderr, "%ux%ux%u, W = %u, %s, workgroup %u, invocation %u: value %d is %u, "
                      "not %u\n", size[0], size[1], size[2], W, swap ? "swapped" : "in place", g,
                      li, j, got[j], want[j]);
              fail();
            }
          }
      }
    }
    ir_program_free(p);
    ir_program_free(q);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_atomics_totals),
      cmocka_unit_test(test_atomics_order),
      cmocka_unit_test(test_budget),
      cmocka_unit_test(test_fused_break_matches_observed),
      cmocka_unit_test(test_builtins),
  };
  const int failed = cmocka_run_group_tests(tests, asm_setup, asm_teardown);
  /* under LOCKSTEP_JIT=on (tests/jit.cmake) the plain runs above must have
   * been the compiled tier's, compared with the observed interpreter's */
  const char *jit = getenv("LOCKSTEP_JIT");
  if (jit && !strcmp(jit, "on") && vm_jit_runs() == 0) {
    fprintf(stderr, "LOCKSTEP_JIT=on, but no dispatch ran compiled code: %s\n", vm_jit_last_error());
    return 1;
  }
  return failed;
}
