/*
 * eval.h — constant folding shared by the resolver (sema*.c) and override
 * evaluation at pipeline creation (sema_eval, declared in sema.h).
 */
#ifndef LS_WGSL_EVAL_H
#define LS_WGSL_EVAL_H

#include "sema.h"

const cvalue *cv_int(wgsl_module *m, const type *t, int64_t v);
const cvalue *cv_float(wgsl_module *m, const type *t, double v);
/* bitcast<to>(v) of a constant: NULL (and an error) when the result is an
 * infinity or NaN, which a const-expression may not produce. */
const cvalue *cv_bitcast(wgsl_module *m, const cvalue *v, const type *to, src_span span,
                         diag_list *d);
/* v rounded to the nearest f16 (ties to even), +-inf past the f16 range. */
double eval_round_f16(double v);
const cvalue *cv_bool(wgsl_module *m, int b);
const cvalue *cv_composite(wgsl_module *m, const type *t, const cvalue **elems, int n);
const cvalue *cv_zero(wgsl_module *m, const type *t);
/* Value constructor conversion (u32(x), vec3<f32>(v)): floats clamp. */
const cvalue *cv_construct_convert(wgsl_module *m, const cvalue *v, const type *t,
                                   src_span span, diag_list *d);

const cvalue *fold_binary(wgsl_module *m, ast_binop op, const cvalue *a, const cvalue *b,
                          const type *rt, src_span span, diag_list *d);
const cvalue *fold_unary(wgsl_module *m, ast_unop op, const cvalue *v, const type *rt,
                         src_span span, diag_list *d);
const cvalue *fold_builtin(wgsl_module *m, builtin_fn f, const cvalue **args, int nargs,
                           const type *rt, src_span span, diag_list *d);
const cvalue *fold_construct(wgsl_module *m, const type *t, const cvalue **args, int n,
                             src_span span, diag_list *d);
/* Element i of a composite constant, NULL when out of range. */
const cvalue *fold_index(wgsl_module *m, const cvalue *base, int64_t i);

#endif
