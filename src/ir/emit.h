/*
 * emit.h — the lowering's emitter (emit.c): appending instructions, the
 * register and mask-slot stacks, the constant pool, and failing with a
 * diagnostic. Every lowering file calls these; the emitter calls none of
 * them back, so it is the leaf of the lowering's call graph:
 *
 *   lower.c (driver, statements, calls) -> lower_global.c, lower_expr.c,
 *                      lower_texture.c (lw_handle_slot), emit.c
 *   lower_global.c (module-scope variables) -> emit.c
 *   lower_expr.c (expressions) -> lower_builtin.c, lower_matrix.c,
 *                      lower_global.c, emit.c, and lower.c for lw_call only
 *                      (a call inlines a body of statements)
 *   lower_builtin.c -> lower_expr.c, lower_texture.c, lower_matrix.c, emit.c
 *   lower_texture.c -> lower_expr.c, lower_global.c, emit.c
 *   lower_matrix.c  -> emit.c
 *   emit.c -> none of them (ir.c for operand forms, diag.c)
 *
 * The state the emitter owns lives in struct lw (lower_int.h, the "emitter"
 * block). During lowering, temporaries are numbered from 0 and constants
 * carry LW_CONST_TAG; lw_emit_finish renumbers them so that constants come
 * first, as ir.h requires. Include lower_int.h rather than this file.
 *
 * Includes form a chain, no cycle: emit.h -> ir.h; lower_int.h -> emit.h,
 * lower.h, sema.h; every lowering .c (emit.c too) -> lower_int.h, which no
 * header includes.
 */
#ifndef LS_IR_EMIT_H
#define LS_IR_EMIT_H

#include <stdint.h>

#include "../util/diag.h"
#include "ir.h"

#define LW_CONST_TAG 0x80000000u

typedef struct lw lw;

/* Appends an instruction at the current span (L->span) and returns its pc;
 * after a failure it emits nothing and returns 0. In f16 mode (L->f16) an
 * f32 arithmetic result is rounded to f16 (F16R after it; FUN1/FUN2 take
 * IR_FUN_F16). */
uint32_t lw_emit(lw *L, unsigned op, uint32_t a, uint32_t b, uint32_t c, uint32_t d);
/* n consecutive temporaries, the first returned (a stack: callers restore
 * L->top when the values die). */
uint32_t lw_reg(lw *L, uint32_t n);
/* The register of constant bits (LW_CONST_TAG | pool index): one pool
 * entry per distinct value, in order of first use, found through a hash
 * index so that a program with many constants lowers in linear time. */
uint32_t lw_const(lw *L, uint32_t bits);
/* A fresh mask slot (a stack: callers restore L->mtop). */
uint32_t lw_mask(lw *L);
/* Reports an error at s and stops emitting. */
void lw_fail(lw *L, src_span s, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* The final pass: constant registers move to [0, nconsts), temporaries
 * after them (in the code and in L->builtin_reg); frees the pool's index. */
void lw_emit_finish(lw *L);
/* Frees what the emitter holds (code, spans, pool, index): after a
 * failure, or for a program that is not kept. */
void lw_emit_release(lw *L);

#endif
