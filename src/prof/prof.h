/*
 * prof.h — internals shared by the files of src/prof/, the SIMT profiler.
 *
 * Where it stands: prof.c is a vm_observer (vm/observe.h) that the API's
 * glue (api/prof.c) attaches to a device's observer list; the VM reports
 * memory accesses, branch masks, loop back edges, barriers and subgroup
 * ends, and fills per-pc counters. prof.c turns them into the figures of lockstep.h's
 * ls_prof_dispatch at the end of every dispatch; prof_report.c and
 * prof_html.c print those figures (text, JSON, annotated source, HTML) and
 * prof_plan.c holds the dispatch planner. Only public types cross from
 * prof.c to the report files.
 */
#ifndef LS_PROF_H
#define LS_PROF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "../../include/lockstep.h"

#if defined(__GNUC__)
#define PROF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PROF_PRINTF(a, b)
#endif

/* A growable string; `failed` sticks once memory runs out so that callers
 * check once at the end. */
typedef struct prof_buf {
  char *s;
  size_t len, cap;
  int failed;
} prof_buf;

void prof_buf_printf(prof_buf *b, const char *fmt, ...) PROF_PRINTF(2, 3);
void prof_buf_put(prof_buf *b, const char *s, size_t n);
/* s with the characters that JSON / HTML need escaped. */
void prof_buf_json_string(prof_buf *b, const char *s, size_t n);
void prof_buf_html(prof_buf *b, const char *s, size_t n);
/* Hands the text over (NULL when memory ran out; the buffer is freed). */
char *prof_buf_take(prof_buf *b);

/* prof.c, for the API's glue (api/prof.c), which resolves the device's
 * memory model and attaches the observer. opts is read as current (size
 * handled by the caller); model complete. NULL when memory runs out. */
struct vm_observer;
ls_profiler *prof_create(const ls_profiler_options *opts, const ls_memory_model *model,
                         const ls_cost_model *cost, unsigned threads);
void prof_destroy(ls_profiler *p);
const struct vm_observer *prof_observer(ls_profiler *p);
/* The bound bytes of each binding slot of the dispatch about to run (the
 * cost model's footprint is never more than a binding holds); copied. */
void prof_set_binding_sizes(ls_profiler *p, const uint64_t *sizes, uint32_t n);
/* The device the glue attached it to. */
void prof_set_host(ls_profiler *p, void *host);
void *prof_host(const ls_profiler *p);

/* Text of one source line (1-based) of a dispatch: start and length. */
int prof_source_line(const ls_prof_dispatch *d, uint32_t line, const char **start, size_t *len);
uint32_t prof_source_lines(const ls_prof_dispatch *d);
const char *prof_access_name(ls_prof_access a);
const char *prof_space_name(ls_prof_space s);

/* prof_report.c: a time in ns as text with a unit ("12.3 us"). */
void prof_time(char *out, size_t n, double ns);

/* prof_cost.c: the cost model (docs/profiler.md, "Cost model"). */
struct ir_insn;
ls_prof_op_class prof_cost_class(const struct ir_insn *in);
/* SM cycles an instruction's requests spend in the memory pipeline. */
double prof_cost_mem_cycles(const ls_cost_model *m, const ls_prof_mem *x);

#endif
