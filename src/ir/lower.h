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
#include <stdint.h>

#include "../../include/lockstep.h"
#include "../util/diag.h"
#include "../wgsl/wgsl.h"
#include "ir.h"

/* lockstep's limits on an invocation's memory (docs/spec-notes.md,
 * "Limits"): the private variables an entry point uses, and its function
 * memory, the function-space variables held in memory (arrays, matrices,
 * structures with them) of every function active at once along a chain of
 * calls, with the copies of array values indexed at run time. WGSL
 * requires at least 8192 bytes of each; 1 MiB of each bounds the
 * interpreter's memory for the largest workgroup (1024 invocations) at
 * 2 GiB plus registers. Past either, pipeline creation fails with the
 * variables named. */
#define LW_MAX_PRIVATE_BYTES (UINT64_C(1) << 20)
#define LW_MAX_FUNCTION_BYTES (UINT64_C(1) << 20)

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
