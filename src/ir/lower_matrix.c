/*
 * lower_matrix.c — matrices of f32 to bytecode. A matCxR value occupies
 * C*R registers, column-major: register k*R + r holds column k, row r (the
 * order of the spec's memory layout, so loads and stores are the generic
 * leaf copies of lower_expr.c). Component-wise operators (+, -, scalar
 * products) need nothing special and stay in lw_binary; this file holds the
 * products that combine components, transpose and determinant, plus the
 * select chain used to pick a runtime-indexed element out of a value held
 * in registers. Everything is plain FMUL/FADD/FSUB, one rounding per
 * operation, as the arithmetic the WGSL accuracy rules describe.
 */
#include "lower_int.h"

static uint32_t op3(lw *L, unsigned op, uint32_t x, uint32_t y) {
  uint32_t d = lw_reg(L, 1);
  lw_emit(L, op, d, x, y, 0);
  return d;
}

/* sum over k < n of x[k] * y[k], left to right: the dot product of a
 * matrix row and a column. */
static uint32_t dot_regs(lw *L, const uint32_t *x, const uint32_t *y, uint32_t n) {
  uint32_t acc = op3(L, IR_FMUL, x[0], y[0]);
  for (uint32_t k = 1; k < n; k++) lw_emit(L, IR_FADD, acc, acc, op3(L, IR_FMUL, x[k], y[k]), 0);
  return acc;
}

val lw_matrix_mul(lw *L, val a, val b, const type *rt) {
  const type *at = a.type, *bt = b.type;
  uint32_t x[4], y[4];
  uint32_t d = lw_reg(L, rt->words);
  if (at->kind == TY_MAT && bt->kind == TY_MAT) {
    /* (A B)[c][r] = sum_k A[k][r] * B[c][k]; A is KxR, B is CxK */
    uint32_t R = at->rows, K = at->n;
    for (uint32_t c = 0; c < bt->n; c++)
      for (uint32_t r = 0; r < R; r++) {
        for (uint32_t k = 0; k < K; k++) x[k] = a.reg + k * R + r, y[k] = b.reg + c * K + k;
        lw_emit(L, IR_MOV, d + c * R + r, dot_regs(L, x, y, K), 0, 0);
      }
  } else if (at->kind == TY_MAT) {
    /* (M v)[r] = sum_k M[k][r] * v[k] */
    uint32_t R = at->rows;
    for (uint32_t r = 0; r < R; r++) {
      for (uint32_t k = 0; k < at->n; k++) x[k] = a.reg + k * R + r, y[k] = b.reg + k;
      lw_emit(L, IR_MOV, d + r, dot_regs(L, x, y, at->n), 0, 0);
    }
  } else {
    /* (v M)[c] = dot(v, M[c]) */
    uint32_t R = bt->rows;
    for (uint32_t c = 0; c < bt->n; c++) {
      for (uint32_t k = 0; k < R; k++) x[k] = a.reg + k, y[k] = b.reg + c * R + k;
      lw_emit(L, IR_MOV, d + c, dot_regs(L, x, y, R), 0, 0);
    }
  }
  return (val){.reg = d, .n = rt->words, .type = rt};
}

val lw_transpose(lw *L, val m, const type *rt) {
  /* m is CxR, the result RxC: result[r][c] = m[c][r] */
  uint32_t C = m.type->n, R = m.type->rows;
  uint32_t d = lw_reg(L, C * R);
  for (uint32_t c = 0; c < C; c++)
    for (uint32_t r = 0; r < R; r++) lw_emit(L, IR_MOV, d + r * C + c, m.reg + c * R + r, 0, 0);
  return (val){.reg = d, .n = C * R, .type = rt};
}

/* Determinant of the n x n sub-matrix of m (side N) made of columns
 * cols[0..n) and rows rows[0..n), by cofactor expansion along its first
 * column; 2x2 directly as a*d - c*b. */
static uint32_t det_sub(lw *L, uint32_t m, uint32_t N, const uint32_t *cols, const uint32_t *rows,
                        uint32_t n) {
#define AT(c, r) (m + cols[c] * N + rows[r])
  if (n == 2) {
    uint32_t p = op3(L, IR_FMUL, AT(0, 0), AT(1, 1));
    uint32_t q = op3(L, IR_FMUL, AT(1, 0), AT(0, 1));
    return op3(L, IR_FSUB, p, q);
  }
  uint32_t acc = IR_NO_REG;
  for (uint32_t r = 0; r < n; r++) {
    uint32_t sub_rows[3];
    for (uint32_t i = 0, k = 0; i < n; i++)
      if (i != r) sub_rows[k++] = rows[i];
    uint32_t minor = det_sub(L, m, N, cols + 1, sub_rows, n - 1);
    uint32_t term = op3(L, IR_FMUL, AT(0, r), minor);
    if (acc == IR_NO_REG) acc = term;
    else lw_emit(L, (r & 1) ? IR_FSUB : IR_FADD, acc, acc, term, 0);
  }
  return acc;
#undef AT
}

val lw_determinant(lw *L, val m, const type *rt) {
  static const uint32_t idx[4] = {0, 1, 2, 3};
  uint32_t N = m.type->n;
  return (val){.reg = det_sub(L, m.reg, N, idx, idx, N), .n = 1, .type = rt};
}

val lw_select_element(lw *L, val base, uint32_t idx, uint32_t width, uint32_t count, const type *et) {
  /* element 0 unless the index names another one; an index out of range
   * gives element 0, one of the values the spec allows */
  uint32_t d = lw_reg(L, width);
  for (uint32_t w = 0; w < width; w++) lw_emit(L, IR_MOV, d + w, base.reg + w, 0, 0);
  for (uint32_t k = 1; k < count; k++) {
    uint32_t eq = op3(L, IR_IEQ, idx, lw_const(L, k));
    for (uint32_t w = 0; w < width; w++) lw_emit(L, IR_SELECT, d + w, d + w, base.reg + k * width + w, eq);
  }
  return (val){.reg = d, .n = width, .type = et};
}
