/*
 * lower.h — pipeline creation: a resolved WGSL module, an entry point name
 * and override values in; an ir_program out. This is where override values
 * are substituted and where the spec's pipeline-creation checks happen
 * (workgroup size against the device limits, workgroup storage size,
 * overrides without a value), each reported with the limit, the value found
 * and the WGSL line.
 */
#ifndef LS_IR_LOWER_H
#define LS_IR_LOWER_H

#include <stddef.h>

#include "../../include/lockstep.h"
#include "../util/diag.h"
#include "../wgsl/wgsl.h"
#include "ir.h"

/* entry == NULL: the module's only compute entry point. Errors go to diags
 * (with spans into the module's source) and NULL is returned. The program
 * refers to the module's source text: keep the module alive. */
ir_program *lower_pipeline(const wgsl_module *m, const char *entry,
                           const ls_constant_entry *constants, size_t nconstants,
                           const ls_limits *limits, diag_list *diags);

/* Tests only (the verifier's refusal at pipeline creation needs a program
 * lowering got wrong): when set, called on every program lower_pipeline is
 * about to return. NULL otherwise; set it from one thread, with no
 * pipeline being created. */
extern void (*lower_pipeline_test_hook)(ir_program *p);

#endif
