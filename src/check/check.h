/*
 * check.h — the sanitizer: a vm_observer (vm/observe.h) that watches
 * dispatches and turns what it sees into findings (lockstep.h's
 * ls_check_finding), and the static lint behind `lockstep check`.
 *
 * Where it stands in the flow: the API (api/check.c) owns one chk_state per
 * device with checks enabled; before each dispatch the queue tells it what
 * each binding slot is (chk_dispatch_prepare), the VM reports every access,
 * branch, loop and barrier to chk_observer(), and after the dispatch
 * chk_dispatch_finish merges what the worker threads saw into findings with
 * the WGSL position, formatted while the program is still alive.
 *
 * Files: check.c (the observer: bounds, barriers, runaway loops; findings),
 * race.c (shadow memory for data races), report.c (text and JSON), lint.c
 * (static findings on the resolved module).
 */
#ifndef LS_CHECK_H
#define LS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "../../include/lockstep.h"
#include "../ir/ir.h"
#include "../vm/observe.h"
#include "../vm/vm.h"

typedef struct chk_state chk_state;

/* What one binding slot of the program is bound to, for messages and the
 * logical size. */
typedef struct chk_slot {
  const char *buffer_label; /* may be NULL */
  uint64_t size;            /* bytes in the bound range */
  uint64_t logical;         /* live bytes from the start of the bound range;
                               UINT64_MAX = all */
  int is_texture;
  vm_texture tex;           /* is_texture: the view's geometry (data unused) */
} chk_slot;

/* threads: the most worker threads a dispatch may use. NULL when memory
 * runs out. opts may be NULL (every check). */
chk_state *chk_create(unsigned threads, const ls_check_options *opts);
void chk_destroy(chk_state *s);
void chk_set_options(chk_state *s, const ls_check_options *opts);

/* The observer to pass in vm_dispatch_desc (valid while s lives). */
const vm_observer *chk_observer(chk_state *s);

/* Before a dispatch: the program, its slots (prog->nbindings entries, copied)
 * and the dispatch size. Returns 0 when memory runs out (the dispatch then
 * runs unchecked). */
int chk_dispatch_prepare(chk_state *s, const ir_program *prog, const chk_slot *slots,
                         const uint32_t groups[3], uint32_t width, const char *pipeline);
/* After it: turns what the threads saw into findings; st/r are what
 * vm_dispatch returned (a runaway shader becomes a finding). */
void chk_dispatch_finish(chk_state *s, vm_status st, const vm_result *r);

size_t chk_finding_count(const chk_state *s);
const ls_check_finding *chk_finding(const chk_state *s, size_t i);
uint64_t chk_dropped(const chk_state *s);
void chk_clear(chk_state *s);
/* {"findings": [...], "dropped": N}, malloc'd (report.c). */
char *chk_findings_json(const chk_state *s);
/* Counts of findings by severity. */
void chk_counts(const chk_state *s, size_t *errors, size_t *warnings, size_t *notes);

/* ---- between the files of src/check/ ---- */

/* Invocation key: workgroup linear index * 2048 + local index; ordering
 * by key is ordering by global linear invocation. */
typedef uint64_t chk_inv;

/* An access as the race detector reports it. */
typedef struct chk_race_hit {
  int same_value;
  uint32_t space;        /* vm_space */
  uint32_t slot;         /* binding slot, or wgvar index + 1 (0 unknown) */
  uint64_t offset;       /* byte offset in the slot / workgroup memory */
  uint32_t pc, other_pc;
  vm_access access, other_access;
  chk_inv inv, other_inv;
  int across_groups;     /* the other access is from another workgroup */
} chk_race_hit;

/* race.c: shadow state, per device. */
typedef struct chk_race chk_race;
chk_race *chk_race_create(unsigned threads);
void chk_race_destroy(chk_race *r);
/* Makes r the f16 detector: the caller passes every 2-byte access with its
 * addresses (and the sizes to chk_race_begin) doubled, so each half-word
 * has a cell of its own. f16 bytes are never also reached by 4-byte
 * accesses (a byte has one type), so the two detectors miss nothing. */
void chk_race_halves(chk_race *r);
/* Per dispatch of ngroups workgroups: makes sure every thread has a
 * cross-workgroup shadow of the writable storage slots (sizes[i] bytes, 0 =
 * not tracked), kept from earlier dispatches where large enough; cap_bytes
 * bounds all threads' shadows together. Returns 0 when it could not for some
 * slot: that slot's cross-workgroup part is then off for this dispatch, and
 * unchecked[i] (nslots entries, left alone for the others) gets the bytes
 * its shadow needs (over what was left of cap_bytes, or memory ran out). */
int chk_race_begin(chk_race *r, const ir_program *prog, const uint64_t *sizes, uint32_t nslots,
                   uint64_t ngroups, uint64_t cap_bytes, uint64_t *unchecked);
/* After the dispatch, on one thread: compares what workgroups that ran on
 * different threads did to the same words; races found are reported as
 * thread 0's. */
void chk_race_end(chk_race *r, void (*report)(void *user, unsigned thread, const chk_race_hit *h),
                  void *user);
void chk_race_group(chk_race *r, unsigned thread);
/* A barrier at pc released: workgroup (and storage) accesses before it are
 * ordered before those after it. */
void chk_race_barrier(chk_race *r, unsigned thread, int orders_workgroup, int orders_storage);
/* One memory event; calls report(user, thread, hit) per race found.
 * consecutive: the caller found every lane in inbounds and addr[l] =
 * addr[0] + 4 l (0 when not known; the detector then checks itself). */
void chk_race_access(chk_race *r, unsigned thread, const vm_mem_event *e, uint64_t group_linear,
                     uint64_t inbounds, int consecutive,
                     void (*report)(void *user, unsigned thread, const chk_race_hit *h),
                     void *user);
/* The same for a buffer load or store by all W lanes of w on the W
 * consecutive words from byte addr (vm_observer.mem_seq), every lane in
 * bounds: what chk_race_access finds with the event spelled out. */
void chk_race_seq(chk_race *r, unsigned thread, const vm_where *w, uint32_t pc, vm_access access,
                  uint32_t slot, uint64_t addr, const uint32_t *value, uint64_t size,
                  uint64_t group_linear,
                  void (*report)(void *user, unsigned thread, const chk_race_hit *h), void *user);
/* A mem_seq access spelled out as the VM's full event, for the paths that
 * need every lane (a[] receives the W addresses). */
static inline vm_mem_event chk_seq_event(const vm_where *w, uint32_t pc, vm_access access,
                                         uint32_t slot, uint64_t addr, const uint32_t *value,
                                         uint64_t size, uint64_t a[64]) {
  const unsigned W = w->width < 64 ? w->width : 64;
  for (unsigned l = 0; l < W; l++) a[l] = addr + 4u * l;
  const uint64_t all = W >= 64 ? UINT64_MAX : (UINT64_C(1) << W) - 1;
  return (vm_mem_event){pc, access, VM_SPACE_BUFFER, slot, 0, all, a, value, size, w, 1, 0, 4u};
}

/* report.c */
char *chk_json_escape_append(char *buf, size_t *len, size_t *cap, const char *s);

/* lint.c: static findings on a shader, printed compiler-style into *out
 * (malloc'd). Returns the number of findings (warnings and notes). */
struct wgsl_module;
typedef struct chk_lint_finding {
  const char *id;
  diag_severity severity;
  src_span span;
  char *message;
  char *fix;
} chk_lint_finding;

typedef struct chk_lint {
  chk_lint_finding *items;
  size_t count, cap;
} chk_lint;

int chk_lint_module(const struct wgsl_module *m, chk_lint *out);
void chk_lint_free(chk_lint *l);
/* Compiler-style text (file:line:col warning[id]: message, line, caret,
 * "  fix: ..."), malloc'd. */
char *chk_lint_format(const chk_lint *l, const char *src, size_t len, const char *file);

#endif
