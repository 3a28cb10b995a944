/*
 * test_observers.c — the observer list of a device (api/observe.c): the
 * profiler, the sanitizer and a third observer of the test's own attach to
 * one device; each must give what it gives alone (the profile JSON, the
 * findings JSON, the third one's record), the third sees the binding
 * context of every dispatch, and observers come and go independently. A
 * device without observers hands the VM none. The sanitizer's options
 * reach it through the device (the race detector's shadow budget).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit_api.h"

#include "api/api.h"

/* Everything the observers distinguish in one kernel: workgroup memory and
 * a barrier, a divergent loop, a divergent branch, reads past the logical
 * size of `data`, stores past the end of `out` (the last workgroup's last
 * four lanes) and a race on out[0] between workgroups. The loop's spread
 * grows with the workgroup, so its worst workgroup is one, whichever
 * thread ran which. */
static const char *k_src =
    "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
    "@group(0) @binding(1) var<uniform> n: vec4u;\n"
    "@group(0) @binding(2) var<storage, read_write> out: array<u32>;\n"
    "var<workgroup> sh: array<u32, 64>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid: vec3u,\n"
    "        @builtin(local_invocation_index) li: u32,\n"
    "        @builtin(workgroup_id) wid: vec3u) {\n"
    "  sh[li] = data[gid.x];\n"
    "  workgroupBarrier();\n"
    "  var s = 0u;\n"
    "  for (var j = 0u; j < (li % 5u) * (wid.x + 1u); j++) { s += sh[(li + j) % 64u]; }\n"
    "  if ((li & 1u) == 0u) { s += n.x; }\n"
    "  out[gid.x + 4u] = s;\n"
    "  out[0] = wid.x;\n"
    "}\n";

/* ------------------------------------------------- the third observer */

/* Counts what the VM reports and what the binding context says. */
typedef struct tally {
  int before, after;
  int watch; /* 0: before returns NULL (sits the dispatch out) */
  vm_observer vm;
  uint64_t *issued[8], *lanes[8];
  uint64_t events[8][8]; /* [thread][kind]: mem, branch, loop, barrier, release, end, groups */
  /* the binding context of the last dispatch */
  char labels[3][32];
  uint64_t sizes[3], logical[3], offsets[3];
  uint32_t nslots, groups[3], width;
  char pipeline[32], names[3][16];
  vm_status status;
} tally;

static void t_mem(void *u, unsigned t, const vm_mem_event *e) {
  (void)e;
  ((tally *)u)->events[t][0]++;
}
static void t_branch(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t b, uint64_t a) {
  (void)w, (void)pc, (void)b, (void)a;
  ((tally *)u)->events[t][1]++;
}
static void t_loop(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t exec) {
  (void)w, (void)pc, (void)exec;
  ((tally *)u)->events[t][2]++;
}
static void t_barrier(void *u, unsigned t, const vm_where *w, uint32_t pc, uint64_t e, uint64_t a) {
  (void)w, (void)pc, (void)e, (void)a;
  ((tally *)u)->events[t][3]++;
}
static void t_release(void *u, unsigned t, const uint32_t g[3], const uint32_t *pcs, uint32_t n) {
  (void)g, (void)pcs, (void)n;
  ((tally *)u)->events[t][4]++;
}
static void t_end(void *u, unsigned t, const vm_where *w, uint64_t alive, uint64_t wrote) {
  (void)w, (void)alive, (void)wrote;
  ((tally *)u)->events[t][5]++;
}
static int t_group_begin(void *u, unsigned t, const uint32_t g[3]) {
  (void)g;
  ((tally *)u)->events[t][6]++;
  return 0;
}
static void t_dispatch_begin(void *u, const ir_program *p, const uint32_t g[3], uint32_t w) {
  tally *t = u;
  (void)g, (void)w;
  for (unsigned i = 0; i < 8; i++) {
    free(t->issued[i]);
    free(t->lanes[i]);
    t->issued[i] = calloc(p->ncode + 1, sizeof(uint64_t));
    t->lanes[i] = calloc(p->ncode + 1, sizeof(uint64_t));
  }
}

static const vm_observer *t_before(void *u, const api_dispatch_ctx *x) {
  tally *t = u;
  t->before++;
  t->nslots = x->prog->nbindings;
  memcpy(t->groups, x->groups, sizeof t->groups);
  t->width = x->width;
  snprintf(t->pipeline, sizeof t->pipeline, "%s", x->pipeline_name);
  for (uint32_t i = 0; i < x->prog->nbindings && i < 3; i++) {
    const api_slot_ctx *s = &x->slots[i];
    const uint32_t b = s->decl->binding;
    snprintf(t->labels[b], sizeof t->labels[b], "%s", s->label ? s->label : "-");
    snprintf(t->names[b], sizeof t->names[b], "%s", s->decl->name);
    t->sizes[b] = s->size;
    t->logical[b] = s->logical;
    t->offsets[b] = s->offset;
    assert_non_null(s->buffer);
    assert_int_equal(s->vm->size, s->size);
  }
  return t->watch ? &t->vm : NULL;
}

static void t_after(void *u, const api_dispatch_ctx *x, vm_status st, const vm_result *r) {
  tally *t = u;
  (void)x, (void)r;
  t->after++;
  t->status = st;
}

static void tally_init(tally *t) {
  memset(t, 0, sizeof *t);
  t->watch = 1;
  vm_observer *o = &t->vm;
  o->user = t;
  o->issued = t->issued;
  o->lanes = t->lanes;
  o->dispatch_begin = t_dispatch_begin;
  o->group_begin = t_group_begin;
  o->mem = t_mem;
  o->branch = t_branch;
  o->loop = t_loop;
  o->barrier = t_barrier;
  o->barrier_release = t_release;
  o->subgroup_end = t_end;
}

static void tally_free(tally *t) {
  for (unsigned i = 0; i < 8; i++) {
    free(t->issued[i]);
    free(t->lanes[i]);
  }
}

/* Events and counts summed over the threads (which thread ran a workgroup
 * may vary). */
static void tally_sums(const tally *t, uint32_t ncode, uint64_t ev[7], uint64_t *issued,
                       uint64_t *lanes) {
  memset(ev, 0, 7 * sizeof *ev);
  *issued = *lanes = 0;
  for (unsigned th = 0; th < 8; th++) {
    for (unsigned k = 0; k < 7; k++) ev[k] += t->events[th][k];
    for (uint32_t pc = 0; t->issued[th] && pc <= ncode; pc++) {
      *issued += t->issued[th][pc] * (pc + 1);
      *lanes += t->lanes[th][pc] * (pc + 1);
    }
  }
}

/* ---------------------------------------------------------------- runs */

typedef struct obs_run {
  env e;
  ls_profiler *prof;
  ls_buffer *data, *n, *out;
  ls_bind_group *bg;
  ls_compute_pipeline *p;
  uint32_t ncode;
} obs_run;

enum { WITH_PROF = 1, WITH_CHECK = 2, WITH_TALLY = 4 };

static void run_open(obs_run *r, unsigned threads, int with, tally *t) {
  memset(r, 0, sizeof *r);
  r->e = tu_make_env(threads, NULL);
  ls_device *d = r->e.device;
  if (with & WITH_PROF) {
    const ls_profiler_options po = {.struct_size = sizeof po, .trace = 1, .trace_group = {1, 0, 0}};
    char err[256];
    r->prof = ls_profiler_attach(d, &po, err, sizeof err);
    assert_non_null(r->prof);
  }
  if (with & WITH_CHECK) {
    const ls_check_options co = {.struct_size = sizeof co};
    assert_int_equal(ls_device_enable_checks(d, 1, &co), LS_OK);
  }
  if (with & WITH_TALLY) {
    const api_observer ob = {.user = t, .before = t_before, .after = t_after};
    assert_true(api_observer_add(d, &ob));
  }
  const uint32_t usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST |
                         LS_BUFFER_USAGE_COPY_SRC;
  const ls_buffer_desc dd = {.size = 192 * 4, .usage = usage, .label = "data"};
  const ls_buffer_desc nd = {.size = 16, .usage = LS_BUFFER_USAGE_UNIFORM | LS_BUFFER_USAGE_COPY_DST,
                             .label = "n"};
  const ls_buffer_desc od = {.size = 192 * 4, .usage = usage, .label = "out"};
  r->data = ls_device_create_buffer(d, &dd);
  r->n = ls_device_create_buffer(d, &nd);
  r->out = ls_device_create_buffer(d, &od);
  assert_true(r->data && r->n && r->out);
  uint32_t init[192];
  for (uint32_t i = 0; i < 192; i++) init[i] = i * 3u + 1u;
  ls_queue_write_buffer(d, r->data, 0, init, sizeof init);
  const uint32_t nv[4] = {1000, 0, 0, 0};
  ls_queue_write_buffer(d, r->n, 0, nv, sizeof nv);
  ls_buffer_set_logical_size(r->data, 100 * 4);
  const ls_bind_group_layout_entry le[3] = {
      {.binding = 0, .type = LS_BINDING_STORAGE},
      {.binding = 1, .type = LS_BINDING_UNIFORM},
      {.binding = 2, .type = LS_BINDING_STORAGE}};
  ls_bind_group_layout *bgl =
      ls_device_create_bind_group_layout(d, &(ls_bind_group_layout_desc){.entries = le, .entry_count = 3});
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(
      d, &(ls_pipeline_layout_desc){.bind_group_layouts = &bgl, .bind_group_layout_count = 1});
  const ls_shader_module_desc sd = {.code = k_src, .label = "racy.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  assert_true(ls_shader_module_is_valid(m));
  const ls_compute_pipeline_desc pd = {.module = m, .layout = pl, .label = "racy"};
  r->p = ls_device_create_compute_pipeline(d, &pd);
  assert_non_null(r->p);
  const ls_bind_group_entry be[3] = {
      {.binding = 0, .buffer = r->data, .size = LS_WHOLE_SIZE},
      {.binding = 1, .buffer = r->n, .size = LS_WHOLE_SIZE},
      {.binding = 2, .buffer = r->out, .size = LS_WHOLE_SIZE}};
  r->bg = ls_device_create_bind_group(
      d, &(ls_bind_group_desc){.layout = bgl, .entries = be, .entry_count = 3});
  assert_non_null(r->bg);
  r->ncode = api_compute_pipeline_program(r->p)->ncode;
  ls_shader_module_release(m);
  ls_pipeline_layout_release(pl);
  ls_bind_group_layout_release(bgl);
  expect_no_error();
}

static void run_close(obs_run *r) {
  ls_bind_group_release(r->bg);
  ls_compute_pipeline_release(r->p);
  ls_buffer_release(r->data);
  ls_buffer_release(r->n);
  ls_buffer_release(r->out);
  ls_profiler_destroy(r->prof);
  tu_free_env(&r->e);
}

static void read_out(obs_run *r, uint32_t *w) {
  assert_int_equal(ls_queue_read_buffer(r->e.device, r->out, 0, w, 192 * 4), LS_OK);
}

/* Each finding's kind, severity, place and count, one a line. A race's
 * count is the access pairs that met, and which pairs meet between
 * workgroups depends on which ran on one thread (in order) and which on
 * different threads (compared when the dispatch ends): with several threads
 * it is left out of the comparison (with_race_counts 0). */
static char *finding_places(const ls_device *d, int with_race_counts) {
  size_t n = ls_device_check_finding_count(d);
  char *s = calloc(n + 1, 128);
  assert_non_null(s);
  for (size_t i = 0; i < n; i++) {
    const ls_check_finding *f = ls_device_check_finding(d, i);
    int race = f->kind == LS_CHECK_DATA_RACE || f->kind == LS_CHECK_RACE_SAME_VALUE;
    unsigned long long count = race && !with_race_counts ? 0 : (unsigned long long)f->count;
    snprintf(s + strlen(s), 128, "%s %d %u:%u %llu\n", f->id, (int)f->severity, f->first.line,
             f->first.column, count);
  }
  return s;
}

/* The three alone and the three together, on one thread and on three:
 * the same results, profile, findings and record. */
static void test_three_observers_each_as_alone(void **state) {
  (void)state;
  for (unsigned threads = 1; threads <= 3; threads += 2) {
    obs_run r;
    uint32_t plain[192], got[192];
    run_open(&r, threads, 0, NULL);
    assert_int_equal(tu_dispatch(r.e.device, r.p, r.bg, 3, 1), LS_OK);
    read_out(&r, plain);
    run_close(&r);

    run_open(&r, threads, WITH_PROF, NULL);
    assert_int_equal(tu_dispatch(r.e.device, r.p, r.bg, 3, 1), LS_OK);
    char *prof_alone = ls_profiler_report_json(r.prof, "default");
    assert_non_null(ls_profiler_dispatch(r.prof, 0)->trace); /* workgroup 1 in detail */
    run_close(&r);

    run_open(&r, threads, WITH_CHECK, NULL);
    assert_int_equal(tu_dispatch(r.e.device, r.p, r.bg, 3, 1), LS_OK);
    char *check_alone = ls_device_check_findings_json(r.e.device);
    char *places_alone = finding_places(r.e.device, threads == 1);
    /* past the logical size, past the end of out, the race */
    assert_true(ls_device_check_finding_count(r.e.device) >= 3);
    run_close(&r);

    tally ta;
    tally_init(&ta);
    run_open(&r, threads, WITH_TALLY, &ta);
    assert_int_equal(tu_dispatch(r.e.device, r.p, r.bg, 3, 1), LS_OK);
    uint64_t ev_alone[7], is_alone, ln_alone;
    tally_sums(&ta, r.ncode, ev_alone, &is_alone, &ln_alone);
    assert_true(ev_alone[0] > 0 && ev_alone[1] > 0 && ev_alone[3] > 0 && is_alone > 0);
    run_close(&r);

    tally tb;
    tally_init(&tb);
    run_open(&r, threads, WITH_PROF | WITH_CHECK | WITH_TALLY, &tb);
    assert_int_equal(tu_dispatch(r.e.device, r.p, r.bg, 3, 1), LS_OK);
    read_out(&r, got);
    char *prof_both = ls_profiler_report_json(r.prof, "default");
    char *check_both = ls_device_check_findings_json(r.e.device);
    char *places_both = finding_places(r.e.device, threads == 1);
    uint64_t ev_both[7], is_both, ln_both;
    tally_sums(&tb, r.ncode, ev_both, &is_both, &ln_both);
    run_close(&r);

    if (threads == 1) assert_memory_equal(plain, got, sizeof plain); /* out[0] races otherwise */
    assert_memory_equal(plain + 1, got + 1, sizeof plain - 4);
    assert_string_equal(prof_alone, prof_both);
    /* on several threads the sanitizer alone names whichever pair of the
     * racing workgroups it met first: the same findings in the same places */
    if (threads == 1) assert_string_equal(check_alone, check_both);
    assert_string_equal(places_alone, places_both);
    assert_memory_equal(ev_alone, ev_both, sizeof ev_alone);
    assert_int_equal(is_alone, is_both);
    assert_int_equal(ln_alone, ln_both);
    assert_int_equal(tb.before, 1);
    assert_int_equal(tb.after, 1);
    assert_int_equal(tb.status, VM_OK);
    ls_free(prof_alone);
    ls_free(prof_both);
    ls_free(check_alone);
    ls_free(check_both);
    free(places_alone);
    free(places_both);
    tally_free(&ta);
    tally_free(&tb);
  }
}

/* What every binding slot is bound to, as the third observer sees it. */
static void test_binding_context(void **state) {
  (void)state;
  tally t;
  tally_init(&t);
  obs_run r;
  run_open(&r, 1, WITH_TALLY, &t);
  assert_int_equal(tu_dispatch(r.e.device, r.p, r.bg, 3, 1), LS_OK);
  assert_int_equal(t.nslots, 3);
  assert_string_equal(t.pipeline, "racy");
  assert_int_equal(t.groups[0], 3);
  assert_int_equal(t.groups[1], 1);
  assert_int_equal(t.groups[2], 1);
  assert_int_equal(t.width, 32); /* the default profile */
  assert_string_equal(t.labels[0], "data");
  assert_string_equal(t.labels[1], "n");
  assert_string_equal(t.labels[2], "out");
  assert_string_equal(t.names[0], "data");
  assert_string_equal(t.names[2], "out");
  assert_int_equal(t.sizes[0], 192 * 4);
  assert_int_equal(t.sizes[1], 16);
  assert_int_equal(t.logical[0], 100 * 4);
  assert_true(t.logical[1] == UINT64_MAX && t.logical[2] == UINT64_MAX);
  assert_int_equal(t.offsets[0], 0);
  run_close(&r);
  tally_free(&t);
}

/* Observers attach and detach independently; one that sits a dispatch out
 * is not told how it ended. */
static void test_come_and_go(void **state) {
  (void)state;
  tally t;
  tally_init(&t);
  obs_run r;
  run_open(&r, 2, WITH_PROF | WITH_CHECK | WITH_TALLY, &t);
  ls_device *d = r.e.device;
  assert_int_equal(tu_dispatch(d, r.p, r.bg, 3, 1), LS_OK);
  const size_t found = ls_device_check_finding_count(d);
  assert_true(found >= 3);
  assert_int_equal(ls_profiler_dispatch_count(r.prof), 1);
  /* the sanitizer off: its findings stay, the others go on */
  assert_int_equal(ls_device_enable_checks(d, 0, NULL), LS_OK);
  ls_device_clear_check_findings(d);
  assert_int_equal(tu_dispatch(d, r.p, r.bg, 3, 1), LS_OK);
  assert_int_equal(ls_device_check_finding_count(d), 0);
  assert_int_equal(ls_profiler_dispatch_count(r.prof), 2);
  assert_int_equal(t.after, 2);
  /* the profiler gone, the sanitizer back */
  ls_profiler_destroy(r.prof);
  r.prof = NULL;
  assert_int_equal(ls_device_enable_checks(d, 1, NULL), LS_OK);
  assert_int_equal(tu_dispatch(d, r.p, r.bg, 3, 1), LS_OK);
  assert_int_equal(ls_device_check_finding_count(d), found);
  assert_int_equal(t.after, 3);
  /* sitting one out: asked, not told */
  t.watch = 0;
  assert_int_equal(tu_dispatch(d, r.p, r.bg, 3, 1), LS_OK);
  assert_int_equal(t.before, 4);
  assert_int_equal(t.after, 3);
  /* two profilers at once: the same figures */
  char err[256];
  const ls_profiler_options po = {.struct_size = sizeof po};
  ls_profiler *p1 = ls_profiler_attach(d, &po, err, sizeof err);
  ls_profiler *p2 = ls_profiler_attach(d, &po, err, sizeof err);
  assert_true(p1 && p2);
  assert_int_equal(tu_dispatch(d, r.p, r.bg, 3, 1), LS_OK);
  char *j1 = ls_profiler_report_json(p1, NULL), *j2 = ls_profiler_report_json(p2, NULL);
  assert_string_equal(j1, j2);
  ls_free(j1);
  ls_free(j2);
  ls_profiler_destroy(p1);
  ls_profiler_destroy(p2);
  run_close(&r);
  tally_free(&t);
}

/* No observer attached, or none watching: the VM gets no observer, so the
 * plain interpreter runs. */
static void test_no_observer_plain(void **state) {
  (void)state;
  env e = tu_make_env(1, NULL);
  vm_dispatch_desc desc = {.observer = (const vm_observer *)&desc};
  api_observers_before(e.device, NULL, NULL, NULL, &desc); /* no observer: nothing read */
  assert_null(desc.observer);
  tu_free_env(&e);
  tally t;
  tally_init(&t);
  t.watch = 0;
  obs_run r;
  run_open(&r, 1, WITH_TALLY, &t);
  api_cmd c = {.kind = API_CMD_DISPATCH, .pipeline = r.p, .groups = &r.bg, .ngroups = 1,
               .count = {1, 1, 1}};
  vm_binding vb[3] = {{0}};
  const uint32_t n[3] = {1, 1, 1};
  desc.observer = (const vm_observer *)&desc;
  api_observers_before(r.e.device, &c, vb, n, &desc);
  assert_null(desc.observer);
  vm_status st = VM_OK;
  api_observers_after(r.e.device, &st, NULL);
  assert_int_equal(t.before, 1);
  assert_int_equal(t.after, 0);
  run_close(&r);
  tally_free(&t);
}

/* Issue 11, through the public API: ls_check_options.race_shadow_bytes
 * reaches the sanitizer, and a binding over it gets a races-unchecked
 * warning instead of a silent gap. Four workgroups write out[0] (a race
 * between workgroups); out is 64 bytes, whose shadow on one thread is 16
 * words x 20 = 320 bytes: a budget of 100 leaves it out, the default
 * finds the race. */
static void test_issue11_races_unchecked_api(void **state) {
  (void)state;
  static const char *src =
      "@group(0) @binding(0) var<storage, read_write> out: array<u32, 16>;\n"
      "@compute @workgroup_size(1)\n"
      "fn main(@builtin(workgroup_id) wid: vec3u) { out[0] = wid.x; }\n";
  for (int small = 1; small >= 0; small--) {
    env e = tu_make_env(1, NULL);
    const ls_check_options o = {.struct_size = sizeof o, .race_shadow_bytes = small ? 100 : 0};
    assert_int_equal(ls_device_enable_checks(e.device, 1, &o), LS_OK);
    ls_buffer_desc bd = {.size = 64, .usage = LS_BUFFER_USAGE_STORAGE, .label = "out"};
    ls_buffer *b = ls_device_create_buffer(e.device, &bd);
    const ls_shader_module_desc sd = {.code = src, .label = "race.wgsl"};
    ls_shader_module *m = ls_device_create_shader_module(e.device, &sd);
    ls_compute_pipeline_desc pd = {.module = m};
    ls_compute_pipeline *p = ls_device_create_compute_pipeline(e.device, &pd);
    assert_non_null(p);
    ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
    ls_bind_group_entry be = {.binding = 0, .buffer = b, .size = LS_WHOLE_SIZE};
    ls_bind_group_desc gd = {.layout = l, .entries = &be, .entry_count = 1};
    ls_bind_group *g = ls_device_create_bind_group(e.device, &gd);
    ls_command_encoder *enc = ls_device_create_command_encoder(e.device, NULL);
    ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
    ls_compute_pass_set_pipeline(pass, p);
    ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
    ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
    ls_compute_pass_end(pass);
    ls_compute_pass_release(pass);
    ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
    ls_command_encoder_release(enc);
    assert_int_equal(ls_queue_submit(e.device, &cb, 1), LS_OK);
    ls_command_buffer_release(cb);
    assert_int_equal(ls_device_check_finding_count(e.device), 1);
    const ls_check_finding *f = ls_device_check_finding(e.device, 0);
    if (small) {
      assert_string_equal(f->id, "races-unchecked");
      assert_int_equal(f->severity, LS_CHECK_WARNING);
      assert_string_equal(f->variable, "out");
      assert_int_equal(f->first.line, 1); /* the declaration */
      assert_non_null(strstr(f->message, "would take 320 bytes"));
      assert_non_null(strstr(f->message, "budget of 100 bytes"));
    } else {
      assert_string_equal(f->id, "data-race");
      assert_non_null(strstr(f->message, "from different workgroups"));
    }
    ls_bind_group_release(g);
    ls_bind_group_layout_release(l);
    ls_compute_pipeline_release(p);
    ls_shader_module_release(m);
    ls_buffer_release(b);
    tu_free_env(&e);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_issue11_races_unchecked_api),
      cmocka_unit_test(test_three_observers_each_as_alone),
      cmocka_unit_test(test_binding_context),
      cmocka_unit_test(test_come_and_go),
      cmocka_unit_test(test_no_observer_plain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
