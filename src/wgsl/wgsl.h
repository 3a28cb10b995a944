/*
 * wgsl.h — the WGSL front end seen from outside: source text in, a resolved
 * and typed module (or diagnostics) out. Lowering (ir/lower.h) consumes the
 * module to build one pipeline's bytecode.
 */
#ifndef LS_WGSL_H
#define LS_WGSL_H

#include <stddef.h>

#include "../util/diag.h"

typedef struct wgsl_module wgsl_module;

/* Lexes, parses and resolves. Returns NULL only when memory runs out; check
 * wgsl_module_ok() and read wgsl_module_diags(). The source is copied. */
wgsl_module *wgsl_module_compile(const char *src, size_t len, const char *filename);
void wgsl_module_free(wgsl_module *m);
int wgsl_module_ok(const wgsl_module *m);
const diag_list *wgsl_module_diags(const wgsl_module *m);
const char *wgsl_module_source(const wgsl_module *m, size_t *len);
const char *wgsl_module_filename(const wgsl_module *m);
/* The source's line-start table (diag_line_starts), *n entries; NULL when
 * memory ran out. Lives as long as the module. */
const uint32_t *wgsl_module_line_starts(const wgsl_module *m, uint32_t *n);
/* For a device without `feature`: every `enable ext;` of the module becomes
 * an error (WebGPU's createShaderModule validation). Returns how many. */
int wgsl_module_require_feature(wgsl_module *m, const char *ext, const char *feature);
/* The same for a feature no lockstep device has (the message says so). */
int wgsl_module_refuse_extension(wgsl_module *m, const char *ext, const char *feature);
/* The WGSL language features lockstep compiles and runs (directives.def's
 * LANGUAGE rows with runs = 1), NULL-terminated, static. */
const char *const *wgsl_language_features(void);


#endif
