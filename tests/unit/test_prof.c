/*
 * test_prof.c — unit tests of the SIMT profiler (src/prof) and the dispatch
 * planner: the seed lessons' claims with exact figures, measured through
 * the public API (ls_profiler_attach on a device, a real dispatch), plus
 * bank conflicts, atomics, barriers, the lane-activity trace, profile
 * checks, the reports, and texel traffic (texels and tiles per request).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lockstep.h"

/* ------------------------------------------------------------ harness */

typedef struct run {
  ls_adapter *adapter;
  ls_device *dev;
  ls_profiler *prof;
} run;

typedef struct buf_spec {
  uint32_t binding;
  ls_binding_type type;
  const uint32_t *init; /* NULL = zeros */
  size_t words;
  /* a texture binding (type one of LS_BINDING_*_TEXTURE): a 2D texture of
   * tex_w x tex_h texels of this format, zeroed; init and words unused */
  ls_texture_format tex_format;
  uint32_t tex_w, tex_h;
  uint32_t tex_layers; /* 0 or 1: one layer; more: bound as a 2D array */
} buf_spec;

static void on_error(void *user, ls_error_type t, const char *m) {
  fprintf(stderr, "unexpected error: %s\n", m);
  fail();
}

/* Compiles src, runs entry over groups with the buffers, profiled. */
static void run_wgsl(run *r, const char *profile, uint32_t width, uint32_t threads,
                     const char *src, const char *entry, const buf_spec *bs, size_t nb,
                     uint32_t gx, uint32_t gy, uint32_t gz, const ls_profiler_options *po) {
  memset(r, 0, sizeof *r);
  ls_adapter_options ao = {sizeof ao, profile, width, threads, 0};
  char err[256];
  r->adapter = ls_adapter_create(&ao, err, sizeof err);
  assert_non_null(r->adapter);
  ls_status st;
  r->dev = ls_adapter_create_device(r->adapter, NULL, &st, err, sizeof err);
  assert_non_null(r->dev);
  ls_device_set_error_callback(r->dev, on_error, NULL);
  r->prof = ls_profiler_attach(r->dev, po, err, sizeof err);
  assert_non_null(r->prof);
  ls_shader_module_desc sd = {.code = src, .label = "test.wgsl"};
  ls_shader_module *m = ls_device_create_shader_module(r->dev, &sd);
  if (!ls_shader_module_is_valid(m)) fprintf(stderr, "%s\n", ls_shader_module_format_messages(m));
  assert_true(ls_shader_module_is_valid(m));
  ls_bind_group_layout_entry le[8];
  ls_bind_group_entry be[8];
  ls_buffer *bufs[8] = {0};
  ls_texture *texs[8] = {0};
  ls_texture_view *views[8] = {0};
  for (size_t i = 0; i < nb; i++) {
    if (bs[i].tex_w) {
      ls_texture_desc td;
      memset(&td, 0, sizeof td);
      td.size = (ls_extent3d){bs[i].tex_w, bs[i].tex_h, bs[i].tex_layers ? bs[i].tex_layers : 1};
      td.format = bs[i].tex_format;
      td.usage = LS_TEXTURE_USAGE_COPY_DST | LS_TEXTURE_USAGE_COPY_SRC |
                 (bs[i].type == LS_BINDING_SAMPLED_TEXTURE ? LS_TEXTURE_USAGE_TEXTURE_BINDING
                                                           : LS_TEXTURE_USAGE_STORAGE_BINDING);
      texs[i] = ls_device_create_texture(r->dev, &td);
      assert_non_null(texs[i]);
      views[i] = ls_texture_create_view(texs[i], NULL);
      assert_non_null(views[i]);
      memset(&le[i], 0, sizeof le[i]);
      le[i].binding = bs[i].binding;
      le[i].type = bs[i].type;
      if (bs[i].type != LS_BINDING_SAMPLED_TEXTURE) le[i].format = bs[i].tex_format;
      if (bs[i].tex_layers > 1) le[i].view_dimension = LS_VIEW_DIMENSION_2D_ARRAY;
      memset(&be[i], 0, sizeof be[i]);
      be[i].binding = bs[i].binding;
      be[i].texture_view = views[i];
      continue;
    }
    ls_buffer_desc bd = {.size = bs[i].words * 4, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST |
                             LS_BUFFER_USAGE_COPY_SRC | (bs[i].type == LS_BINDING_UNIFORM
                                                             ? LS_BUFFER_USAGE_UNIFORM
                                                             : 0), .label = NULL};
    bufs[i] = ls_device_create_buffer(r->dev, &bd);
    assert_non_null(bufs[i]);
    if (bs[i].init) ls_queue_write_buffer(r->dev, bufs[i], 0, bs[i].init, bs[i].words * 4);
    le[i] = (ls_bind_group_layout_entry){bs[i].binding, bs[i].type, 0};
    be[i] = (ls_bind_group_entry){bs[i].binding, bufs[i], 0, LS_WHOLE_SIZE};
  }
  ls_bind_group_layout *bgl = ls_device_create_bind_group_layout(r->dev, &(ls_bind_group_layout_desc){.entries = le, .entry_count = nb});
  ls_pipeline_layout *pl = ls_device_create_pipeline_layout(r->dev, &(ls_pipeline_layout_desc){.bind_group_layouts = &bgl, .bind_group_layout_count = 1});
  ls_compute_pipeline_desc pd = {.module = m, .entry_point = entry, .constants = NULL, .constant_count = 0, .layout = pl, .label = NULL};
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(r->dev, &pd);
  assert_non_null(p);
  ls_bind_group *bg = ls_device_create_bind_group(r->dev, &(ls_bind_group_desc){.layout = bgl, .entries = be, .entry_count = nb});
  assert_non_null(bg);
  ls_command_encoder *enc = ls_device_create_command_encoder(r->dev, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, bg, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, gx, gy, gz);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_int_equal(ls_queue_submit(r->dev, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  ls_bind_group_release(bg);
  ls_compute_pipeline_release(p);
  ls_pipeline_layout_release(pl);
  ls_bind_group_layout_release(bgl);
  for (size_t i = 0; i < nb; i++) {
    ls_buffer_release(bufs[i]);
    ls_texture_view_release(views[i]);
    ls_texture_release(texs[i]);
  }
  ls_shader_module_release(m);
  assert_int_equal(ls_profiler_dispatch_count(r->prof), 1);
}

static void run_free(run *r) {
  ls_profiler_destroy(r->prof);
  ls_device_release(r->dev);
  ls_adapter_release(r->adapter);
}

static const ls_prof_mem *find_mem(const ls_prof_dispatch *d, ls_prof_access a,
                                   const char *var) {
  for (size_t i = 0; i < d->nmem; i++)
    if (d->mem[i].access == a && (!var || (d->mem[i].variable && !strcmp(d->mem[i].variable, var))))
      return &d->mem[i];
  return NULL;
}

/* The seed kernel of lesson 002 (tests/kernels/002_workgroup.wgsl). */
static const char *k_workgroup =
    "@group(0) @binding(0) var<storage, read_write> datos: array<f32>;\n"
    "@group(0) @binding(1) var<storage, read_write> quien: array<u32>;\n"
    "@compute @workgroup_size(100)\n"
    "fn peor(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u,\n"
    "        @builtin(local_invocation_index) li: u32) {\n"
    "  let i = gid.x;\n"
    "  if (i >= arrayLength(&datos)) { return; }\n"
    "  datos[i] = datos[i] * 2.0 + 1.0;\n"
    "  quien[i] = (wid.x << 8u) | li;\n"
    "}\n"
    "@compute @workgroup_size(64)\n"
    "fn mejor(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u,\n"
    "         @builtin(local_invocation_index) li: u32) {\n"
    "  let i = gid.x;\n"
    "  if (i >= arrayLength(&datos)) { return; }\n"
    "  datos[i] = datos[i] * 2.0 + 1.0;\n"
    "  quien[i] = (wid.x << 8u) | li;\n"
    "}\n";

/* ------------------------------------------------------- seed claims */

/* Lesson 002: @workgroup_size(100) at W = 32 allocates 128 lanes, 28 idle
 * (21.9%); 64 wastes none. */
static void test_workgroup_100_idle_lanes(void **state) {
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 100000}, {1, LS_BINDING_STORAGE, NULL, 100000}};
  run r;
  run_wgsl(&r, "nvidia", 0, 2, k_workgroup, "peor", bs, 2, 1000, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->width, 32);
  assert_int_equal(d->group_lanes, 128);
  assert_int_equal(d->group_idle, 28);
  assert_int_equal(d->lanes_allocated, 128000);
  assert_int_equal(d->lanes_idle, 28000);
  assert_int_equal(d->invocations, 100000);
  assert_int_equal(d->subgroups, 4000);
  assert_true(fabs(d->idle_fraction - 28.0 / 128.0) < 1e-12);
  assert_int_equal((int)lround(d->idle_fraction * 1000), 219); /* 21.9% */
  assert_int_equal(d->tail_invocations, 0);
  run_free(&r);

  run_wgsl(&r, "nvidia", 0, 2, k_workgroup, "mejor", bs, 2, 1563, 1, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->group_lanes, 64);
  assert_int_equal(d->group_idle, 0);
  assert_int_equal(d->lanes_idle, 0);
  /* 100032 invocations for 100000 words: the guard's tail of 32 lanes sits
   * in the last workgroup alone */
  assert_int_equal(d->tail_invocations, 32);
  assert_int_equal(d->tail_groups, 1);
  assert_int_equal(d->tail_first_group, 1562);
  assert_int_equal(d->tail_last_group, 1562);
  run_free(&r);

  /* the same workgroup of 100 at W = 8: 104 lanes, 4 idle */
  run_wgsl(&r, "mobile", 0, 1, k_workgroup, "peor", bs, 2, 1000, 1, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->group_lanes, 104);
  assert_int_equal(d->group_idle, 4);
  run_free(&r);
}

/* Lesson 000: the guard of a ceil division stops the tail, and only in the
 * last workgroup: 1000 elements, workgroups of 64 -> 16 groups, 24 lanes
 * past the end, all in group 15. */
static void test_guard_tail_last_group(void **state) {
  const char *k = "struct Params { conteo: u32 };\n"
                  "@group(0) @binding(0) var<uniform> params: Params;\n"
                  "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
                  "  if (gid.x >= params.conteo) { return; }\n"
                  "  datos[gid.x] = datos[gid.x] * 0.99;\n"
                  "}\n";
  uint32_t conteo[4] = {1000, 0, 0, 0};
  buf_spec bs[] = {{0, LS_BINDING_UNIFORM, conteo, 4}, {1, LS_BINDING_STORAGE, NULL, 1024}};
  for (uint32_t threads = 1; threads <= 3; threads += 2) {
    run r;
    run_wgsl(&r, "nvidia", 0, threads, k, "main", bs, 2, 16, 1, 1, NULL);
    const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
    assert_int_equal(d->early_exits, 24);
    assert_int_equal(d->tail_invocations, 24);
    assert_int_equal(d->tail_groups, 1);
    assert_int_equal(d->tail_first_group, 15);
    assert_int_equal(d->tail_last_group, 15);
    /* the guard diverges in one subgroup only: lanes 40..63 of group 15
     * are subgroup 1, split 8 / 24 */
    assert_int_equal(d->divergent_branches, 1);
    run_free(&r);
  }
}

/* The JSON report writes a whole-number cost exactly: lesson 000's kernel
 * over 4,000,000 elements costs over a million issue slots, which the
 * report wrote as 2.15628e+06-style rounding before. cost = issued +
 * sectors here (no workgroup memory, no textures). */
static void test_json_cost_exact(void **state) {
  const char *k = "@group(0) @binding(0) var<uniform> conteo: u32;\n"
                  "@group(0) @binding(1) var<storage, read_write> datos: array<f32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
                  "  if (gid.x >= conteo) { return; }\n"
                  "  datos[gid.x] = datos[gid.x] * 0.99;\n"
                  "}\n";
  uint32_t conteo[4] = {4000000, 0, 0, 0};
  buf_spec bs[] = {{0, LS_BINDING_UNIFORM, conteo, 4}, {1, LS_BINDING_STORAGE, NULL, 4000000}};
  run r;
  run_wgsl(&r, "nvidia", 0, 1, k, "main", bs, 2, 62500, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_true(d->cost > 1e6);
  assert_true(d->cost == (double)(d->issued + d->sectors));
  char want[64];
  snprintf(want, sizeof want, "\"cost\": %llu", (unsigned long long)(d->issued + d->sectors));
  char *j = ls_profiler_report_json(r.prof, "nvidia");
  const char *at = strstr(j, want);
  assert_non_null(at);
  at += strlen(want);
  assert_true(*at == ',' || *at == '}' || *at == '\n'); /* the whole number, no exponent */
  ls_free(j);
  run_free(&r);
}

/* Lesson 002: 32 lanes reading 32 consecutive f32 touch one 128-byte line
 * (4 sectors); a stride of 32 elements touches 32 lines (32 sectors). */
static void test_coalesced_vs_strided(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read> entrada: array<f32>;\n"
                  "@group(0) @binding(1) var<storage, read_write> salida: array<f32>;\n"
                  "@compute @workgroup_size(32)\n"
                  "fn contiguo(@builtin(global_invocation_id) gid: vec3u) {\n"
                  "  salida[gid.x] = entrada[gid.x];\n"
                  "}\n"
                  "@compute @workgroup_size(32)\n"
                  "fn zancada(@builtin(global_invocation_id) gid: vec3u) {\n"
                  "  salida[gid.x] = entrada[gid.x * 32u];\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_READ_ONLY_STORAGE, NULL, 1024},
                   {1, LS_BINDING_STORAGE, NULL, 32}};
  run r;
  run_wgsl(&r, "nvidia", 0, 1, k, "contiguo", bs, 2, 1, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  const ls_prof_mem *m = find_mem(d, LS_PROF_LOAD, "entrada");
  assert_non_null(m);
  assert_int_equal(m->requests, 1);
  assert_int_equal(m->bytes, 128);
  assert_int_equal(m->lines, 1);
  assert_int_equal(m->sectors, 4);
  assert_true(m->efficiency == 1.0);
  run_free(&r);

  run_wgsl(&r, "nvidia", 0, 1, k, "zancada", bs, 2, 1, 1, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  m = find_mem(d, LS_PROF_LOAD, "entrada");
  assert_non_null(m);
  assert_int_equal(m->requests, 1);
  assert_int_equal(m->bytes, 128);
  assert_int_equal(m->lines, 32);
  assert_int_equal(m->sectors, 32);
  assert_true(fabs(m->efficiency - 4.0 / 32.0) < 1e-12); /* 128 of 1024 bytes moved */
  /* the store stays coalesced */
  m = find_mem(d, LS_PROF_STORE, "salida");
  assert_int_equal(m->lines, 1);
  run_free(&r);

  /* the same stride over 512 words: lanes 16 to 31 (byte 2048 on) read
   * past the end, counted as out of bounds and not as traffic */
  bs[0].words = 512;
  run_wgsl(&r, "nvidia", 0, 1, k, "zancada", bs, 2, 1, 1, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  m = find_mem(d, LS_PROF_LOAD, "entrada");
  assert_non_null(m);
  assert_int_equal(m->requests, 1);
  assert_int_equal(m->lanes, 32);
  assert_int_equal(m->oob_lanes, 16);
  assert_int_equal(m->lines, 16);
  assert_int_equal(m->sectors, 16);
  run_free(&r);
}

/* Lesson 001: an 8x8 workgroup reading a row-major image by gid.xy at
 * W = 32: each subgroup holds 4 rows of 8 pixels, 4 separate 32-byte
 * segments per request. */
static void test_image_8x8_segments(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read> imagen: array<f32>;\n"
                  "@group(0) @binding(1) var<storage, read_write> salida: array<f32>;\n"
                  "const ANCHO: u32 = 64u;\n"
                  "@compute @workgroup_size(8, 8)\n"
                  "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
                  "  let i = gid.y * ANCHO + gid.x;\n"
                  "  salida[i] = imagen[i] * 2.0;\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_READ_ONLY_STORAGE, NULL, 4096},
                   {1, LS_BINDING_STORAGE, NULL, 4096}};
  run r;
  run_wgsl(&r, "nvidia", 0, 2, k, "main", bs, 2, 8, 8, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  const ls_prof_mem *m = find_mem(d, LS_PROF_LOAD, "imagen");
  assert_non_null(m);
  assert_int_equal(m->requests, 128); /* 64 workgroups x 2 subgroups */
  assert_int_equal(m->sectors, 128 * 4);
  assert_int_equal(m->max_sectors, 4);
  assert_true(m->sectors_per_request == 4.0);
  assert_true(m->lines_per_request == 4.0); /* rows are 256 bytes apart */
  assert_true(m->efficiency == 1.0);        /* each segment fully used */
  run_free(&r);

  /* at W = 64 one subgroup holds the 8 rows: 8 segments per request */
  run_wgsl(&r, "amd", 0, 1, k, "main", bs, 2, 8, 8, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  m = find_mem(d, LS_PROF_LOAD, "imagen");
  assert_int_equal(m->requests, 64);
  assert_true(m->sectors_per_request == 8.0);
  run_free(&r);
}

/* Lesson 002: n = 3 on 31 lanes and 500 on one: the subgroup iterates 500
 * times; the average lane 593/32. */
static void test_loop_longest_lane(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read> limite: array<u32>;\n"
                  "@group(0) @binding(1) var<storage, read_write> acumulado: array<u32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
                  "  let n = limite[gid.x];\n"
                  "  var i = 0u;\n"
                  "  var a = 0u;\n"
                  "  while (i < n) {\n"
                  "    a = a * 31u + i;\n"
                  "    i++;\n"
                  "  }\n"
                  "  acumulado[gid.x] = a;\n"
                  "}\n";
  uint32_t lim[256];
  for (int i = 0; i < 256; i++) lim[i] = i % 32 == 7 ? 500 : 3;
  buf_spec bs[] = {{0, LS_BINDING_READ_ONLY_STORAGE, lim, 256},
                   {1, LS_BINDING_STORAGE, NULL, 256}};
  run r;
  run_wgsl(&r, "nvidia", 0, 2, k, "main", bs, 2, 4, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->nloop, 1);
  const ls_prof_loop *l = &d->loop[0];
  assert_int_equal(l->line, 8);
  assert_int_equal(l->instances, 8);
  assert_int_equal(l->max_trips, 500);
  assert_int_equal(l->subgroup_trips, 8 * 500);
  assert_true(l->avg_subgroup_trips == 500.0);
  assert_int_equal(l->lane_trips, 8 * 593);
  assert_int_equal(l->lanes, 8 * 32);
  assert_true(fabs(l->avg_lane_trips - 593.0 / 32) < 1e-12);
  assert_true(fabs(l->max_spread - (500 - 593.0 / 32)) < 1e-9);
  assert_true(fabs(l->efficiency - 593.0 / (500.0 * 32)) < 1e-12);
  /* the exit test diverges once per subgroup (when the 31 leave): a loop
   * exit, not a branch; 8 instances x 501 tests */
  assert_int_equal(d->divergent_loop_exits, 8);
  assert_int_equal(d->loop_exits, 8 * 501);
  assert_int_equal(d->divergent_branches, 0);
  run_free(&r);

  /* 3 on every lane: no spread */
  for (int i = 0; i < 256; i++) lim[i] = 3;
  run_wgsl(&r, "nvidia", 0, 1, k, "main", bs, 2, 4, 1, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->loop[0].max_trips, 3);
  assert_true(d->loop[0].max_spread == 0.0);
  assert_int_equal(d->divergent_branches, 0);
  run_free(&r);
}

/* A converged loop with no idle lane: every instruction a GPU issues has
 * all 32 lanes, so SIMT efficiency is exactly 100%. The VM runs a few
 * instructions with no live lane (the jump past the exit when no lane
 * leaves, the rest of the body after the last trip's exit); those are not
 * issued (they read 86.7% before), traced or not, alone or beside the
 * sanitizer's observer. */
static void test_converged_loop_full(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(global_invocation_id) g: vec3u) {\n"
                  "  var acc = 0u;\n"
                  "  for (var i = 0u; i < 10u; i++) {\n"
                  "    acc += i * g.x;\n"
                  "  }\n"
                  "  o[g.x] = acc;\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 256}};
  uint64_t issued = 0;
  for (int traced = 0; traced < 2; traced++) {
    ls_profiler_options po = {sizeof po};
    po.trace = traced;
    po.trace_group[0] = 2;
    run r;
    run_wgsl(&r, "nvidia", 0, 2, k, "main", bs, 1, 4, 1, 1, &po);
    const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
    assert_int_equal(d->lanes_idle, 0);
    assert_int_equal(d->live_lanes, d->issued * 32);
    assert_true(d->simt_efficiency == 1.0);
    assert_int_equal(d->loop[0].max_trips, 10);
    for (size_t i = 0; i < d->nline; i++) assert_true(d->line[i].simt_efficiency == 1.0);
    if (traced) assert_int_equal(d->issued, issued);
    issued = d->issued;
    run_free(&r);
  }
  assert_true(issued > 8 * 10); /* at least a trip's worth per subgroup */
}

/* A fully divergent if inside a converged loop reads as 100% divergent
 * branches, with the loop's exit tests apart (none divergent): counted
 * together, the headline said 10 divergent of 21 tests per subgroup. */
static void test_branches_apart_from_loop_exits(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(local_invocation_index) li: u32) {\n"
                  "  var s = 0u;\n"
                  "  for (var i = 0u; i < 10u; i++) {\n"
                  "    if ((li & 1u) == 0u) { s += i; }\n"
                  "  }\n"
                  "  o[li] = s;\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 64}};
  run r;
  run_wgsl(&r, "nvidia", 0, 1, k, "main", bs, 1, 1, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  /* 2 subgroups x 10 trips: the if is tested 20 times and always splits */
  assert_int_equal(d->branches, 20);
  assert_int_equal(d->divergent_branches, 20);
  /* the loop's test: 11 a subgroup (10 trips and the last), never split */
  assert_int_equal(d->loop_exits, 22);
  assert_int_equal(d->divergent_loop_exits, 0);
  int exits = 0, ifs = 0;
  for (size_t i = 0; i < d->nbranch; i++) {
    if (d->branch[i].is_loop_exit) {
      exits++;
      assert_int_equal(d->branch[i].line, 5);
    } else if (!d->branch[i].is_else) {
      ifs++;
      assert_int_equal(d->branch[i].line, 6);
    }
  }
  assert_int_equal(exits, 1);
  assert_int_equal(ifs, 1);
  char *j = ls_profiler_report_json(r.prof, "nvidia");
  assert_non_null(strstr(j, "\"branches\": 20, \"divergentBranches\": 20, \"loopExits\": 22, "
                            "\"divergentLoopExits\": 0"));
  ls_free(j);
  run_free(&r);
}

/* -------------------------------------------------- workgroup memory */

static void test_bank_conflicts(void **state) {
  const char *k = "var<workgroup> t: array<u32, 2048>;\n"
                  "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                  "@compute @workgroup_size(32)\n"
                  "fn uno(@builtin(local_invocation_index) li: u32) {\n"
                  "  t[li] = li;\n"
                  "  workgroupBarrier();\n"
                  "  o[li] = t[li * 2u];\n"
                  "}\n"
                  "@compute @workgroup_size(32)\n"
                  "fn todos(@builtin(local_invocation_index) li: u32) {\n"
                  "  t[li * 32u] = li;\n"
                  "  o[li] = t[5];\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 32}};
  run r;
  run_wgsl(&r, "nvidia", 0, 1, k, "uno", bs, 1, 1, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  const ls_prof_mem *st = find_mem(d, LS_PROF_STORE, NULL);
  assert_int_equal(st->space, LS_PROF_WORKGROUP);
  assert_int_equal(st->conflict_max, 1); /* t[li]: one word per bank */
  const ls_prof_mem *ld = NULL;
  for (size_t i = 0; i < d->nmem; i++)
    if (d->mem[i].space == LS_PROF_WORKGROUP && d->mem[i].access == LS_PROF_LOAD) ld = &d->mem[i];
  assert_non_null(ld);
  assert_int_equal(ld->conflict_max, 2); /* t[2 li]: two words per bank */
  assert_int_equal(d->conflicts, 1);     /* one replay */
  assert_int_equal(d->barriers, 1);
  run_free(&r);

  run_wgsl(&r, "nvidia", 0, 1, k, "todos", bs, 1, 1, 1, 1, NULL);
  d = ls_profiler_dispatch(r.prof, 0);
  st = find_mem(d, LS_PROF_STORE, NULL);
  assert_int_equal(st->conflict_max, 32); /* stride 32 words: one bank */
  for (size_t i = 0; i < d->nmem; i++)
    if (d->mem[i].space == LS_PROF_WORKGROUP && d->mem[i].access == LS_PROF_LOAD)
      assert_int_equal(d->mem[i].conflict_max, 1); /* the same word: broadcast */
  run_free(&r);
}

static void test_atomics_same_address(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read_write> c: array<atomic<u32>>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(local_invocation_index) li: u32) {\n"
                  "  atomicAdd(&c[0], 1u);\n"
                  "  atomicAdd(&c[1u + li % 4u], 1u);\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 8}};
  run r;
  run_wgsl(&r, "nvidia", 0, 1, k, "main", bs, 1, 2, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->atomics, 8); /* 2 instructions x 4 subgroups */
  int seen = 0;
  for (size_t i = 0; i < d->nmem; i++) {
    if (d->mem[i].access != LS_PROF_ATOMIC) continue;
    assert_int_equal(d->mem[i].same_address_max, seen == 0 ? 32 : 8);
    seen++;
  }
  assert_int_equal(seen, 2);
  run_free(&r);
}

/* ------------------------------------------------- SIMT, trace, lines */

static void test_divergence_and_trace(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(local_invocation_index) li: u32) {\n"
                  "  var r = 0u;\n"
                  "  if ((li & 1u) == 0u) {\n"
                  "    r = li * 3u;\n"
                  "  } else {\n"
                  "    r = li + 7u;\n"
                  "  }\n"
                  "  o[li] = r;\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 128}};
  ls_profiler_options po;
  memset(&po, 0, sizeof po);
  po.struct_size = sizeof po;
  po.trace = 1;
  po.trace_group[0] = 1;
  run r;
  run_wgsl(&r, "nvidia", 0, 2, k, "main", bs, 1, 2, 1, 1, &po);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->divergent_branches, 4); /* one per subgroup */
  assert_true(d->simt_efficiency < 1.0 && d->simt_efficiency > 0.5);
  /* every issued instruction's live lanes are counted once */
  uint64_t issued = 0, live = 0;
  for (size_t i = 0; i < d->nline; i++) {
    issued += d->line[i].issued;
    live += d->line[i].live_lanes;
  }
  assert_int_equal(issued, d->issued);
  assert_int_equal(live, d->live_lanes);
  /* the trace of workgroup 1: 2 subgroups; the then side runs on the even
   * lanes, the else side on the odd ones, and they meet again */
  assert_non_null(d->trace);
  assert_int_equal(d->trace->group[0], 1);
  assert_int_equal(d->trace->subgroups, 2);
  for (uint32_t s = 0; s < 2; s++) {
    uint32_t n = d->trace->nsteps[s];
    const ls_prof_step *st = d->trace->steps[s];
    assert_true(n > 5);
    int even = 0, odd = 0, div = 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (st[i].mask == 0x5555555555555555ull >> 32 || st[i].mask == 0x55555555u) even = 1;
      if (st[i].mask == 0xAAAAAAAAu) odd = 1;
      if (st[i].flags & LS_PROF_STEP_DIVERGENT) div++;
      total += (uint64_t)__builtin_popcountll(st[i].mask);
    }
    assert_true(even && odd);
    assert_int_equal(div, 1);
    assert_int_equal(st[n - 1].mask, 0xFFFFFFFFu); /* reconverged at END */
    (void)total;
  }
  /* the trace replays exactly what was issued: per subgroup, steps equal
   * the subgroup's instructions (issued / subgroups, all alike here) */
  assert_int_equal((uint64_t)d->trace->nsteps[0] * 4, d->issued);
  run_free(&r);
}

/* The VM hands the profiler most requests as counts (observe.h,
 * summarise) and runs only the traced workgroup event by event; both
 * roads must give the same figures. The first load of a is 32 consecutive
 * words from byte 20 + 128k in each full subgroup k = 0..3: bytes 20..147
 * modulo a line, 5 sectors of 32 bytes and 2 lines of 128; subgroup 4 has
 * lanes 0..21 live (gid 128..149 < 150): bytes 532..619, sectors 16..19,
 * line 4; subgroup 5 returns whole (gid 160..191). */
static void test_summaries_match_events(void **state) {
  const char *k = "@group(0) @binding(0) var<storage, read> a: array<u32>;\n"
                  "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\n"
                  "@group(0) @binding(2) var<uniform> n: vec4u;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(global_invocation_id) gid: vec3u,\n"
                  "        @builtin(local_invocation_index) li: u32) {\n"
                  "  if (gid.x >= n.x) { return; }\n"
                  "  var s = a[gid.x + 5u] + a[li * 2u] + n.y;\n"
                  "  for (var j = 0u; j < (li & 3u); j++) { s += a[j]; }\n"
                  "  o[gid.x] = s;\n"
                  "}\n";
  uint32_t nv[4] = {150, 7, 0, 0};
  buf_spec bs[] = {{0, LS_BINDING_READ_ONLY_STORAGE, NULL, 160},
                   {1, LS_BINDING_STORAGE, NULL, 192},
                   {2, LS_BINDING_UNIFORM, nv, 4}};
  char *json[4];
  /* v = 0..3: untraced, then each group traced, one thread; v = 4: three
   * threads (each with its own summaries), untraced */
  for (int v = 0; v < 5; v++) {
    ls_profiler_options po;
    memset(&po, 0, sizeof po);
    po.struct_size = sizeof po;
    po.trace = v > 0 && v < 4;
    po.trace_group[0] = (uint32_t)v - 1; /* groups 0, 1, 2 in turn */
    run r;
    run_wgsl(&r, "nvidia", 0, v < 4 ? 1 : 3, k, "main", bs, 3, 3, 1, 1, &po);
    const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
    assert_int_equal(d->trace != NULL, v > 0 && v < 4);
    const ls_prof_mem *m = find_mem(d, LS_PROF_LOAD, "a");
    assert_non_null(m);
    assert_int_equal(m->requests, 5);
    assert_int_equal(m->lanes, 4 * 32 + 22);
    assert_int_equal(m->unique_bytes, (4 * 32 + 22) * 4);
    assert_int_equal(m->sectors, 4 * 5 + 4);
    assert_int_equal(m->lines, 4 * 2 + 1);
    assert_int_equal(m->max_sectors, 5);
    assert_int_equal(m->max_lines, 2);
    assert_int_equal(d->early_exits, 42);
    assert_int_equal(d->tail_invocations, 42);
    if (v < 4) {
      json[v] = ls_profiler_report_json(r.prof, "nvidia");
      assert_non_null(json[v]);
    }
    run_free(&r);
  }
  for (int v = 1; v < 4; v++) assert_string_equal(json[0], json[v]);
  for (int v = 0; v < 4; v++) ls_free(json[v]);
}

static void test_reports(void **state) {
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 1000}, {1, LS_BINDING_STORAGE, NULL, 1000}};
  ls_profiler_options po;
  memset(&po, 0, sizeof po);
  po.struct_size = sizeof po;
  po.trace = 1;
  run r;
  run_wgsl(&r, "nvidia", 0, 1, k_workgroup, "peor", bs, 2, 10, 1, 1, &po);
  char *t = ls_profiler_report_text(r.prof, "nvidia");
  assert_non_null(t);
  assert_non_null(strstr(t, "-- Launch and occupancy"));
  assert_non_null(strstr(t, "28 per workgroup, 21.9%"));
  assert_non_null(strstr(t, "-- Memory"));
  ls_free(t);
  t = ls_profiler_report_json(r.prof, "nvidia");
  assert_non_null(t);
  assert_non_null(strstr(t, "\"groupIdle\": 28"));
  assert_non_null(strstr(t, "\"format\": \"lockstep-profile/1\""));
  ls_free(t);
  t = ls_profiler_annotate(r.prof, 0);
  assert_non_null(t);
  assert_non_null(strstr(t, "datos[i] = datos[i] * 2.0 + 1.0;"));
  ls_free(t);
  t = ls_profiler_report_html(r.prof, "nvidia", "test <page>");
  assert_non_null(t);
  assert_non_null(strstr(t, "<!DOCTYPE html>"));
  assert_null(strstr(t, "http://"));
  assert_null(strstr(t, "https://"));
  assert_non_null(strstr(t, "test &lt;page&gt;"));
  ls_free(t);
  assert_null(ls_profiler_annotate(r.prof, 5));
  run_free(&r);
}

/* ------------------------------------------------ profiles and plans */

static void test_profiles(void **state) {
  ls_profile_desc d;
  memset(&d, 0, sizeof d);
  assert_int_equal(ls_profile_describe("nvidia", &d), LS_OK);
  assert_int_equal(d.subgroup_size, 32);
  assert_int_equal(d.sector_bytes, 32);
  assert_int_equal(d.line_bytes, 128);
  assert_int_equal(d.banks, 32);
  assert_int_equal(d.bank_bytes, 4);
  assert_non_null(d.source);
  char err[256];
  for (const char *const *n = ls_profile_names(); *n; n++) {
    assert_int_equal(ls_profile_describe(*n, &d), LS_OK);
    assert_int_equal(ls_profile_check(&d, err, sizeof err), 0);
    assert_true(d.subgroup_min_size <= d.subgroup_size && d.subgroup_size <= d.subgroup_max_size);
  }
  assert_int_equal(ls_profile_describe("amd", &d), LS_OK);
  assert_int_equal(d.subgroup_size, 64);
  assert_int_equal(ls_profile_describe("nope", &d), LS_OPERATION);
  ls_profile_describe("nvidia", &d);
  d.subgroup_size = 48;
  assert_int_equal(ls_profile_check(&d, err, sizeof err), -1);
  assert_non_null(strstr(err, "not a power of two"));
  d.subgroup_size = 256;
  d.subgroup_max_size = 256;
  assert_int_equal(ls_profile_check(&d, err, sizeof err), -1);
  assert_non_null(strstr(err, "above 128"));
  ls_profile_describe("nvidia", &d);
  d.line_bytes = 16;
  assert_int_equal(ls_profile_check(&d, err, sizeof err), -1);
  /* a profiler with impossible memory figures is refused */
  ls_adapter_options ao = {sizeof ao, "nvidia", 0, 1, 0};
  ls_adapter *a = ls_adapter_create(&ao, err, sizeof err);
  ls_status st;
  ls_device *dev = ls_adapter_create_device(a, NULL, &st, err, sizeof err);
  ls_profiler_options po;
  memset(&po, 0, sizeof po);
  po.struct_size = sizeof po;
  po.memory.sector_bytes = 24;
  assert_null(ls_profiler_attach(dev, &po, err, sizeof err));
  assert_non_null(strstr(err, "sector size 24"));
  /* min(wanted, available) */
  uint64_t v = 0;
  assert_true(ls_adapter_limit_up_to(a, "maxComputeInvocationsPerWorkgroup", 4096, &v));
  assert_int_equal(v, 1024);
  assert_true(ls_adapter_limit_up_to(a, "maxComputeInvocationsPerWorkgroup", 512, &v));
  assert_int_equal(v, 512);
  assert_true(ls_adapter_limit_up_to(a, "minStorageBufferOffsetAlignment", 64, &v));
  assert_int_equal(v, 256);
  assert_false(ls_adapter_limit_up_to(a, "maxNothing", 1, &v));
  ls_device_release(dev);
  ls_adapter_release(a);
}

/* ------------------------------------------------------- texel traffic */

/* The tile model (docs/profiler.md): tile_bytes / texel bytes texels,
 * 2^ceil(k/2) wide and 2^floor(k/2) tall. Default profile: 128-byte tiles,
 * so r32float (4 bytes) tiles are 8 x 4 texels and rgba32float (16 bytes)
 * 4 x 2; W = 32. Every store is in bounds and the subgroups are full, so
 * each request's tiles follow from the rectangle its 32 lanes cover (lane
 * l = local index l: x varies fastest). */
#define K_TEX_STORE(FMT)                                                       \
  "@group(0) @binding(0) var img: texture_storage_2d<" FMT ", write>;\n"        \
  "@compute @workgroup_size(8, 8)\n"                                            \
  "fn square(@builtin(global_invocation_id) g: vec3u) {\n"                      \
  "  textureStore(img, g.xy, vec4f(1.0));\n"                                    \
  "}\n"                                                                         \
  "@compute @workgroup_size(64, 1)\n"                                           \
  "fn row(@builtin(global_invocation_id) g: vec3u) {\n"                         \
  "  textureStore(img, g.xy, vec4f(1.0));\n"                                    \
  "}\n"                                                                         \
  "@compute @workgroup_size(1, 64)\n"                                           \
  "fn column(@builtin(global_invocation_id) g: vec3u) {\n"                      \
  "  textureStore(img, g.xy, vec4f(1.0));\n"                                    \
  "}\n"                                                                         \
  "@compute @workgroup_size(8, 8)\n"                                            \
  "fn alternate(@builtin(global_invocation_id) g: vec3u) {\n"                   \
  "  textureStore(img, vec2u(g.x % 2u * 8u, g.y), vec4f(1.0));\n"              \
  "}\n"
static const char *k_tex_store = K_TEX_STORE("r32float");
static const char *k_tex_store16 = K_TEX_STORE("rgba32float");

/* Runs entry (of src, default k_tex_store) storing to the texture binding
 * bs, profiled, and returns its texture-store record after checking that
 * texel traffic is counted as such and not as buffer traffic. */
static const ls_prof_mem *tex_store_in(run *r, const char *profile, uint32_t w, const char *entry,
                                       const buf_spec *bs, uint32_t gx, uint32_t gy,
                                       const ls_profiler_options *po, const char *src) {
  run_wgsl(r, profile, w, 1, src ? src : k_tex_store, entry, bs, 1, gx, gy, 1, po);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r->prof, 0);
  const ls_prof_mem *m = find_mem(d, LS_PROF_STORE, "img");
  assert_non_null(m);
  assert_int_equal(m->space, LS_PROF_TEXTURE);
  assert_int_equal(m->sectors, 0); /* texel traffic is not buffer traffic */
  assert_int_equal(d->requests, 0);
  assert_int_equal(d->texel_requests, m->requests);
  assert_int_equal(d->tiles, m->tiles);
  return m;
}

/* tex_store_in on a 64x64 texture of format f. */
static const ls_prof_mem *tex_store(run *r, const char *profile, uint32_t w, const char *entry,
                                    ls_texture_format f, uint32_t gx, uint32_t gy,
                                    const ls_profiler_options *po, const char *src) {
  const buf_spec bs[] = {{0, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, NULL, 0, f, 64, 64}};
  return tex_store_in(r, profile, w, entry, bs, gx, gy, po, src);
}

/* Texels that differ only in their layer are distinct texels, in distinct
 * tiles: 32 lanes store to x = lane / 2 of row 0, layer lane % 2, of an
 * r32float 2D array (8x4-texel tiles). 16 columns x 2 layers = 32 texels;
 * columns 0-7 and 8-15 of each layer, 4 tiles. In lane order the keys go
 * down at every other lane, so the counts take the unordered path. */
static void test_texture_layers(void **state) {
  (void)state;
  const char *k = "@group(0) @binding(0) var img: texture_storage_2d_array<r32float, write>;\n"
                  "@compute @workgroup_size(32)\n"
                  "fn layers(@builtin(local_invocation_index) i: u32) {\n"
                  "  textureStore(img, vec2u(i / 2u, 0u), i % 2u, vec4f(1.0));\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_WRITE_ONLY_STORAGE_TEXTURE, NULL, 0, LS_FORMAT_R32FLOAT, 64, 64, 2}};
  run r;
  const ls_prof_mem *m = tex_store_in(&r, "default", 32, "layers", bs, 1, 1, NULL, k);
  assert_int_equal(m->requests, 1);
  assert_int_equal(m->lanes, 32);
  assert_int_equal(m->texels, 32);
  assert_int_equal(m->tiles, 4);
  run_free(&r);
}

static void test_texture_tiles(void **state) {
  (void)state;
  run r;
  /* 8x8 workgroups over 64x64: a subgroup is rows 4s..4s+3 of 8 columns
   * starting at a multiple of 8, one 8x4 tile exactly; 64 workgroups x 2
   * subgroups = 128 requests of 32 texels, 128 tiles, every tile byte used */
  const ls_prof_mem *m = tex_store(&r, "default", 0, "square", LS_FORMAT_R32FLOAT, 8, 8, NULL, NULL);
  assert_int_equal(m->requests, 128);
  assert_int_equal(m->lanes, 4096);
  assert_int_equal(m->texels, 4096);
  assert_int_equal(m->bytes, 4096 * 4);
  assert_int_equal(m->tiles, 128);
  assert_int_equal(m->max_tiles, 1);
  assert_int_equal(m->tile_width, 8);
  assert_int_equal(m->tile_height, 4);
  assert_true(fabs(m->efficiency - 1.0) < 1e-12);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->memory.tile_bytes, 128);
  run_free(&r);
  /* a row of 32 texels: x 0..31 or 32..63 of one row, 32 / 8 = 4 tiles;
   * 64 workgroups (one per row) x 2 subgroups; 32 x 4 B of 4 x 128 B */
  m = tex_store(&r, "default", 0, "row", LS_FORMAT_R32FLOAT, 1, 64, NULL, NULL);
  assert_int_equal(m->requests, 128);
  assert_int_equal(m->tiles, 512);
  assert_true(fabs(m->tiles_per_request - 4.0) < 1e-12);
  assert_true(fabs(m->efficiency - 0.25) < 1e-12);
  run_free(&r);
  /* a column of 32 texels: 32 / 4 = 8 tiles per request */
  m = tex_store(&r, "default", 0, "column", LS_FORMAT_R32FLOAT, 64, 1, NULL, NULL);
  assert_int_equal(m->requests, 128);
  assert_int_equal(m->tiles, 1024);
  assert_true(fabs(m->efficiency - 0.125) < 1e-12);
  run_free(&r);
  /* texels and tiles out of lane order, repeated: each row's 8 lanes
   * store to x = 0, 8, 0, 8, ... of tiles 0 and 1 of the row's band; a
   * subgroup's 4 rows: 8 texels, 2 tiles */
  m = tex_store(&r, "default", 0, "alternate", LS_FORMAT_R32FLOAT, 8, 8, NULL, NULL);
  assert_int_equal(m->requests, 128);
  assert_int_equal(m->texels, 128 * 8);
  assert_int_equal(m->tiles, 128 * 2);
  assert_int_equal(m->max_tiles, 2);
  run_free(&r);
  /* rgba32float: 8 texels of 16 B, 4 x 2; the 8x4 patch of a subgroup
   * covers 2 x 2 tiles */
  m = tex_store(&r, "default", 0, "square", LS_FORMAT_RGBA32FLOAT, 8, 8, NULL, k_tex_store16);
  assert_int_equal(m->tile_width, 4);
  assert_int_equal(m->tile_height, 2);
  assert_int_equal(m->tiles, 512);
  assert_int_equal(m->bytes, 4096 * 16);
  run_free(&r);
  /* amd: W = 64, 128-byte tiles: a subgroup is the whole 8x8 workgroup,
   * two 8x4 tiles; 64 requests */
  m = tex_store(&r, "amd", 0, "square", LS_FORMAT_R32FLOAT, 8, 8, NULL, NULL);
  assert_int_equal(m->requests, 64);
  assert_int_equal(m->tiles, 128);
  run_free(&r);
  /* intel: W = 16, 64-byte tiles: 16 texels, 4 x 4; a subgroup is 8
   * columns of 2 rows (within one 4-row band): 2 tiles; 64 x 4 requests */
  m = tex_store(&r, "intel", 0, "square", LS_FORMAT_R32FLOAT, 8, 8, NULL, NULL);
  assert_int_equal(m->tile_width, 4);
  assert_int_equal(m->tile_height, 4);
  assert_int_equal(m->requests, 256);
  assert_int_equal(m->tiles, 512);
  run_free(&r);
  /* a tile size from the options: 256 B = 64 r32float texels, 8 x 8; at
   * W = 64 each subgroup is one tile */
  ls_profiler_options po;
  memset(&po, 0, sizeof po);
  po.struct_size = sizeof po;
  po.memory.tile_bytes = 256;
  m = tex_store(&r, "default", 64, "square", LS_FORMAT_R32FLOAT, 8, 8, &po, NULL);
  assert_int_equal(m->tile_width, 8);
  assert_int_equal(m->tile_height, 8);
  assert_int_equal(m->requests, 64);
  assert_int_equal(m->tiles, 64);
  run_free(&r);
}

/* Loads: lanes on one texel count it once; lanes out of bounds are
 * counted as such and fetch nothing; the per-line figures and the cost. */
static void test_texture_loads(void **state) {
  (void)state;
  static const char *src =
      "@group(0) @binding(0) var src: texture_2d<f32>;\n"
      "@group(0) @binding(1) var<storage, read_write> out: array<f32>;\n"
      "@compute @workgroup_size(32)\n"
      "fn main(@builtin(local_invocation_index) i: u32) {\n"
      "  let a = textureLoad(src, vec2u(0u, 0u), 0).x;\n"
      "  let b = textureLoad(src, vec2u(i, 0u), 0).x;\n"
      "  out[i] = a + b;\n"
      "}\n";
  buf_spec bs[] = {{0, LS_BINDING_SAMPLED_TEXTURE, NULL, 0, LS_FORMAT_RGBA8UNORM, 20, 4},
                   {1, LS_BINDING_STORAGE, NULL, 32, 0, 0, 0}};
  run r;
  run_wgsl(&r, "default", 32, 1, src, "main", bs, 2, 3, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  const ls_prof_mem *a = NULL, *b = NULL;
  for (size_t i = 0; i < d->nmem; i++) {
    if (d->mem[i].space != LS_PROF_TEXTURE) continue;
    if (d->mem[i].line == 5) a = &d->mem[i];
    if (d->mem[i].line == 6) b = &d->mem[i];
  }
  assert_non_null(a);
  assert_non_null(b);
  /* 3 workgroups of one full subgroup each: 3 requests per load */
  assert_int_equal(a->requests, 3);
  assert_int_equal(a->lanes, 96);
  assert_int_equal(a->texels, 3); /* one texel per request */
  assert_int_equal(a->tiles, 3);
  assert_int_equal(a->unique_bytes, 12);
  /* x = 0..31 on a 20-wide texture: lanes 20..31 out of bounds (12 per
   * request), x 0..19 in 8x4 tiles: 3 tiles (0..7, 8..15, 16..19) */
  assert_int_equal(b->oob_lanes, 36);
  assert_int_equal(b->texels, 60);
  assert_int_equal(b->tiles, 9);
  assert_int_equal(b->max_tiles, 3);
  assert_int_equal(d->texel_requests, 6);
  assert_int_equal(d->tiles, 12);
  /* cost: issued + buffer sectors + tiles (no bank replays here) */
  assert_true(fabs(d->cost - (double)(d->issued + d->sectors + 12)) < 1e-9);
  for (size_t i = 0; i < d->nline; i++)
    if (d->line[i].line == 6) {
      assert_int_equal(d->line[i].texel_requests, 3);
      assert_int_equal(d->line[i].tiles, 9);
      assert_int_equal(d->line[i].requests, 0);
    }
  char *j = ls_profiler_report_json(r.prof, "default");
  assert_non_null(j);
  assert_non_null(strstr(j, "\"texture\": {\"tileBytes\": 128, \"requests\": 6,"));
  assert_non_null(strstr(j, "\"space\": \"texture\", \"variable\": \"src\""));
  ls_free(j);
  char *t = ls_profiler_report_text(r.prof, "default");
  assert_non_null(t);
  assert_non_null(strstr(t, "-- Texture memory (tiles of 128 B"));
  assert_non_null(strstr(t, "texture totals: 6 requests, 63 texels, 12 tiles"));
  ls_free(t);
  run_free(&r);
}

/* The texture figures are the same whether the workgroup holding the
 * requests is run in detail (traced) or not. */
static void test_texture_traced(void **state) {
  (void)state;
  char *ref = NULL;
  for (int traced = 0; traced <= 4; traced++) {
    ls_profiler_options po;
    memset(&po, 0, sizeof po);
    po.struct_size = sizeof po;
    if (traced) {
      po.trace = 1;
      po.trace_group[0] = (uint32_t)(traced - 1) % 2;
      po.trace_group[1] = (uint32_t)(traced - 1) / 2;
    }
    run r;
    tex_store(&r, "default", 0, "square", LS_FORMAT_R32FLOAT, 2, 2, &po, NULL);
    char *j = ls_profiler_report_json(r.prof, "default");
    assert_non_null(j);
    if (!ref) ref = j;
    else {
      assert_string_equal(j, ref);
      ls_free(j);
    }
    run_free(&r);
  }
  ls_free(ref);
}

/* ------------------------------------------------------- cost model */

/* Every built-in profile has a possible model; nvidia's is calibrated,
 * the others are not; impossible parameters are refused by name. */
static void test_cost_models(void **state) {
  const char *const *names = ls_profile_names();
  for (size_t i = 0; names[i]; i++) {
    ls_cost_model m;
    assert_int_equal(ls_cost_model_describe(names[i], &m), LS_OK);
    char err[256];
    assert_int_equal(ls_cost_model_check(&m, err, sizeof err), 0);
    assert_int_equal(m.calibrated, !strcmp(names[i], "nvidia") || !strcmp(names[i], "default"));
  }
  ls_cost_model m;
  assert_int_equal(ls_cost_model_describe("voodoo", &m), LS_OPERATION);
  assert_int_equal(ls_cost_model_describe("nvidia", &m), LS_OK);
  assert_true(m.sms == 132 && m.clock_mhz == 1980 && m.l2_bytes == 50.0 * 1024 * 1024);
  struct {
    const char *param;
    double value;
    const char *says;
  } bad[] = {{"sms", 0, "sms = 0 must be greater than 0"},
             {"dramGBs", 0, "dramGBs = 0 must be greater than 0"},
             {"groupNs", -1, "groupNs = -1 must not be negative"},
             {"cpiTrans", -0.5, "cpiTrans = -0.5 must not be negative"},
             {"l2Resident", 1.5, "l2Resident = 1.5 is a fraction of the L2"},
             {"clockMHz", NAN, "clockMHz = nan is not a finite number"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ls_cost_model b = m;
    double *f = ls_cost_model_param(&b, bad[i].param);
    assert_non_null(f);
    *f = bad[i].value;
    char err[256];
    assert_int_equal(ls_cost_model_check(&b, err, sizeof err), -1);
    if (!strstr(err, bad[i].says)) fprintf(stderr, "%s\n", err);
    assert_non_null(strstr(err, bad[i].says));
  }
  assert_null(ls_cost_model_param(&m, "smCount"));
  assert_non_null(ls_cost_model_param_name(0));
}

/* 2^32 - 1 workgroups of huge loops: every term in double, saturating at
 * 1e300, never inf or NaN; the bound still named. */
static void test_cost_saturates(void **state) {
  ls_cost_model m;
  assert_int_equal(ls_cost_model_describe("nvidia", &m), LS_OK);
  ls_prof_mem mem = {0};
  mem.access = LS_PROF_LOAD;
  mem.space = LS_PROF_BUFFER;
  mem.variable = "x";
  mem.requests = mem.lines = mem.sectors = mem.unique_bytes = mem.regions = UINT64_MAX;
  ls_prof_dispatch d = {0};
  d.workgroups = UINT32_MAX;
  d.subgroups = (uint64_t)UINT32_MAX * 32;
  d.width = 32;
  d.memory = (ls_memory_model){32, 128, 32, 4, 128};
  d.issued = UINT64_MAX;
  for (int c = 0; c < LS_PROF_OP_CLASSES; c++) d.class_issued[c] = UINT64_MAX;
  d.atomic_ops = d.hot_atomics = UINT64_MAX;
  d.mem = &mem;
  d.nmem = 1;
  ls_prof_prediction q;
  ls_cost_predict(&m, &d, &q);
  const double terms[] = {q.ns, q.launch_ns, q.issue_ns, q.memory_pipe_ns, q.latency_ns,
                          q.l2_ns, q.dram_ns, q.atomic_ns, q.waves, q.dram_bytes};
  for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) {
    assert_true(isfinite(terms[i]));
    assert_true(terms[i] >= 0 && terms[i] <= 1e300);
  }
  /* 2^64 instructions of each class over 132 SMs: about 6e17 ns (20 years) */
  assert_true(q.ns > 1e17);
  assert_non_null(q.bound);
  /* an enormous model: one SM, a workgroup of 1024 that does not fit */
  m.sms = 1e-300;
  m.max_threads = 1;
  ls_cost_predict(&m, &d, &q);
  assert_true(isfinite(q.ns) && q.ns <= 1e300);
  assert_int_equal(q.resident_groups, 1);
  assert_non_null(strstr(q.limiter, "does not fit"));
  /* nothing dispatched: the fixed cost */
  ls_prof_dispatch z = {0};
  ls_cost_model_describe("nvidia", &m);
  ls_cost_predict(&m, &z, &q);
  assert_true(q.ns == m.dispatch_ns);
}

/* Occupancy from workgroup memory, through a real run: 16 KiB of
 * workgroup memory (the device's default limit) leaves floor(228 KiB / 16
 * KiB) = 14 workgroups per SM; the prediction is the fixed cost plus its
 * largest term. */
static void test_cost_occupancy(void **state) {
  const char *k = "var<workgroup> t: array<u32, 4096>;\n"
                  "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                  "@compute @workgroup_size(64)\n"
                  "fn main(@builtin(global_invocation_id) g: vec3u, "
                  "@builtin(local_invocation_index) li: u32) {\n"
                  "  t[li * 64u] = g.x;\n"
                  "  workgroupBarrier();\n"
                  "  o[g.x] = t[(li ^ 1u) * 64u];\n"
                  "}\n";
  buf_spec bs[] = {{0, LS_BINDING_STORAGE, NULL, 64 * 600}};
  run r;
  run_wgsl(&r, "nvidia", 0, 2, k, "main", bs, 1, 600, 1, 1, NULL);
  const ls_prof_dispatch *d = ls_profiler_dispatch(r.prof, 0);
  assert_int_equal(d->workgroup_bytes, 16384);
  const ls_prof_prediction *q = &d->predicted;
  assert_int_equal(q->resident_groups, 14);
  assert_string_equal(q->limiter, "workgroup memory");
  /* 600 workgroups on 132 SMs, 14 at a time: 600 / 1848 waves */
  assert_true(fabs(q->waves - 600.0 / 1848) < 1e-12);
  /* the busiest SM holds ceil(600 / 132) = 5 of them: 5 x 64 of 2048 threads */
  assert_true(fabs(q->occupancy - 320.0 / 2048) < 1e-12);
  assert_true(q->calibrated);
  ls_cost_model m;
  ls_cost_model_describe("nvidia", &m);
  double worst = q->launch_ns;
  const double t[] = {q->l2_ns, q->dram_ns, q->atomic_ns};
  for (int i = 0; i < 3; i++) worst = t[i] > worst ? t[i] : worst;
  assert_true(q->ns >= m.dispatch_ns + worst - 1e-9);
  /* the busiest SM launches ceil(600 / 132) = 5 workgroups */
  assert_true(q->launch_ns >= 5 * m.group_ns);
  double share = 0;
  for (size_t i = 0; i < d->nline; i++) share += d->line[i].predicted_share;
  assert_true(fabs(share - 1) < 1e-9);
  run_free(&r);
}


static void test_plan(void **state) {
  ls_plan_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.workgroup_size = 64;
  o.elements = 3000001;
  ls_dispatch_plan p;
  char err[256];
  assert_int_equal(ls_plan_dispatch(&o, &p, err, sizeof err), LS_OK);
  assert_int_equal(p.pattern, LS_PLAN_1D);
  assert_int_equal(p.workgroups[0], 46876);
  assert_int_equal(p.excess, 63);
  assert_non_null(strstr(p.index, "gid.x"));
  /* past 65535 x 64: 2D with 4096 groups in X (lesson 000) */
  o.elements = 8000000;
  assert_int_equal(ls_plan_dispatch(&o, &p, err, sizeof err), LS_OK);
  assert_int_equal(p.pattern, LS_PLAN_2D);
  assert_int_equal(p.workgroups[0], 4096);
  assert_int_equal(p.workgroups[1], 31); /* ceil(125000 / 4096) */
  assert_non_null(strstr(p.index, "wid.y * WIDTH + wid.x"));
  o.pattern = LS_PLAN_1D;
  assert_int_equal(ls_plan_dispatch(&o, &p, err, sizeof err), LS_OPERATION);
  assert_non_null(strstr(err, "maxComputeWorkgroupsPerDimension"));
  o.pattern = LS_PLAN_GRID_STRIDE;
  o.compute_units = 8;
  assert_int_equal(ls_plan_dispatch(&o, &p, err, sizeof err), LS_OK);
  assert_int_equal(p.workgroups[0], 32);
  assert_int_equal(p.per_invocation, (8000000 + 2047) / 2048);
  assert_non_null(strstr(p.index, "nwg.x * 64u"));
  o.pattern = LS_PLAN_AUTO;
  o.workgroup_size = 512; /* over the default limit */
  assert_int_equal(ls_plan_dispatch(&o, &p, err, sizeof err), LS_OPERATION);
  o.workgroup_size = 64;
  o.elements = 0;
  assert_int_equal(ls_plan_dispatch(&o, &p, err, sizeof err), LS_OPERATION);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_workgroup_100_idle_lanes),
      cmocka_unit_test(test_guard_tail_last_group),
      cmocka_unit_test(test_json_cost_exact),
      cmocka_unit_test(test_coalesced_vs_strided),
      cmocka_unit_test(test_image_8x8_segments),
      cmocka_unit_test(test_loop_longest_lane),
      cmocka_unit_test(test_branches_apart_from_loop_exits),
      cmocka_unit_test(test_converged_loop_full),
      cmocka_unit_test(test_bank_conflicts),
      cmocka_unit_test(test_atomics_same_address),
      cmocka_unit_test(test_divergence_and_trace),
      cmocka_unit_test(test_summaries_match_events),
      cmocka_unit_test(test_reports),
      cmocka_unit_test(test_profiles),
      cmocka_unit_test(test_texture_tiles),
      cmocka_unit_test(test_texture_layers),
      cmocka_unit_test(test_texture_loads),
      cmocka_unit_test(test_texture_traced),
      cmocka_unit_test(test_cost_models),
      cmocka_unit_test(test_cost_saturates),
      cmocka_unit_test(test_cost_occupancy),
      cmocka_unit_test(test_plan),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
