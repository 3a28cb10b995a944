/*
 * prof_report.c — the profiler's figures as text: a readable report with
 * sections (occupancy, SIMT efficiency, divergence, loops, memory,
 * texture memory, workgroup memory, synchronisation), JSON for tools, and
 * the WGSL source annotated line by line. Texel figures appear only for a
 * dispatch that made texel requests, so reports of the others keep their
 * exact form.
 *
 * Where it stands: after the run, from the ls_prof_dispatch results prof.c
 * built; the CLI (src/cli/cli_prof.c) prints or writes what these return.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"

/* ----------------------------------------------------------- the buffer */

void prof_buf_put(prof_buf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t nc = b->cap ? b->cap : 1024;
    while (nc < b->len + n + 1) nc *= 2;
    char *ns = realloc(b->s, nc);
    if (!ns) {
      b->failed = 1;
      return;
    }
    b->s = ns;
    b->cap = nc;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void prof_buf_printf(prof_buf *b, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof tmp) {
    prof_buf_put(b, tmp, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    b->failed = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  prof_buf_put(b, big, (size_t)n);
  free(big);
}

void prof_buf_json_string(prof_buf *b, const char *s, size_t n) {
  prof_buf_put(b, "\"", 1);
  for (size_t i = 0; s && i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      prof_buf_put(b, e, 2);
    } else if (c == '\n')
      prof_buf_put(b, "\\n", 2);
    else if (c == '\t')
      prof_buf_put(b, "\\t", 2);
    else if (c < 0x20 || c == '<') /* '<' so that JSON can sit in a <script> */
      prof_buf_printf(b, "\\u%04x", c);
    else
      prof_buf_put(b, (const char *)&s[i], 1);
  }
  prof_buf_put(b, "\"", 1);
}

void prof_buf_html(prof_buf *b, const char *s, size_t n) {
  size_t from = 0;
  for (size_t i = 0; s && i < n; i++) {
    const char *e = NULL;
    switch (s[i]) {
    case '<': e = "&lt;"; break;
    case '>': e = "&gt;"; break;
    case '&': e = "&amp;"; break;
    case '"': e = "&quot;"; break;
    default: break;
    }
    if (!e) continue;
    prof_buf_put(b, s + from, i - from);
    prof_buf_put(b, e, strlen(e));
    from = i + 1;
  }
  if (s) prof_buf_put(b, s + from, n - from);
}

char *prof_buf_take(prof_buf *b) {
  if (b->failed) {
    free(b->s);
    return NULL;
  }
  if (!b->s) {
    b->s = malloc(1);
    if (b->s) b->s[0] = 0;
  }
  return b->s;
}

/* ---------------------------------------------------------------- source */

uint32_t prof_source_lines(const ls_prof_dispatch *d) {
  if (!d->source) return 0;
  uint32_t n = 1;
  for (uint32_t i = 0; i < d->source_len; i++) n += d->source[i] == '\n';
  if (d->source_len && d->source[d->source_len - 1] == '\n') n--;
  return n;
}

int prof_source_line(const ls_prof_dispatch *d, uint32_t line, const char **start, size_t *len) {
  if (!d->source || line == 0) return 0;
  const char *s = d->source, *end = d->source + d->source_len;
  for (uint32_t l = 1; l < line; l++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl) return 0;
    s = nl + 1;
  }
  const char *nl = memchr(s, '\n', (size_t)(end - s));
  *start = s;
  *len = nl ? (size_t)(nl - s) : (size_t)(end - s);
  return 1;
}

const char *prof_access_name(ls_prof_access a) {
  return a == LS_PROF_LOAD ? "load" : a == LS_PROF_STORE ? "store" : "atomic";
}

const char *prof_space_name(ls_prof_space s) {
  return s == LS_PROF_BUFFER ? "buffer" : s == LS_PROF_TEXTURE ? "texture" : "workgroup";
}

static const ls_prof_line *prof_find_line(const ls_prof_dispatch *d, uint32_t line) {
  for (size_t i = 0; i < d->nline; i++)
    if (d->line[i].line == line) return &d->line[i];
  return NULL;
}

/* The source line trimmed, at most max bytes, for tables. */
static void prof_snippet(const ls_prof_dispatch *d, uint32_t line, char *out, size_t max) {
  const char *s;
  size_t n;
  out[0] = 0;
  if (!prof_source_line(d, line, &s, &n)) return;
  while (n && (*s == ' ' || *s == '\t')) s++, n--;
  if (n >= max) n = max - 1;
  memcpy(out, s, n);
  out[n] = 0;
}

/* ------------------------------------------------------------------ text */

/* A time in ns with a unit that keeps it short. */
void prof_time(char *out, size_t n, double ns) {
  if (ns >= 1e300) snprintf(out, n, "over 1e291 s");
  else if (ns >= 1e9) snprintf(out, n, "%.3g s", ns / 1e9);
  else if (ns >= 1e6) snprintf(out, n, "%.3g ms", ns / 1e6);
  else if (ns >= 1e3) snprintf(out, n, "%.3g us", ns / 1e3);
  else snprintf(out, n, "%.3g ns", ns);
}

/* The cost model's prediction and its main terms (docs/profiler.md). */
static void prof_text_predicted(prof_buf *b, const ls_prof_dispatch *d) {
  const ls_prof_prediction *q = &d->predicted;
  char t[32];
  prof_time(t, sizeof t, q->ns);
  prof_buf_printf(b, "  predicted time        %s, bound by: %s%s\n", t, q->bound ? q->bound : "?",
                  q->calibrated ? "" : " (model not calibrated for this profile)");
  static const char *const names[] = {"launch", "issue", "memory pipeline", "latency", "L2",
                                      "DRAM", "atomics"};
  const double v[] = {q->launch_ns, q->issue_ns, q->memory_pipe_ns, q->latency_ns,
                      q->l2_ns, q->dram_ns, q->atomic_ns};
  prof_buf_printf(b, "  terms                ");
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    prof_time(t, sizeof t, v[i]);
    prof_buf_printf(b, "%s %s %s", i ? "," : "", names[i], t);
  }
  prof_buf_printf(b, "\n  occupancy             %.0f%% (%u workgroups per SM, limited by %s), "
                     "%.3g waves\n",
                  100.0 * q->occupancy, q->resident_groups, q->limiter ? q->limiter : "?",
                  q->waves);
}

static void prof_text_dispatch(prof_buf *b, const ls_prof_dispatch *d) {
  char snip[64];
  prof_buf_printf(b, "== dispatch %u: %s (%s)  %u x %u x %u workgroups of %u x %u x %u, W = %u\n",
                  d->index + 1, d->entry_point ? d->entry_point : "?",
                  d->filename ? d->filename : "?", d->groups[0], d->groups[1], d->groups[2],
                  d->wg_size[0], d->wg_size[1], d->wg_size[2], d->width);
  prof_text_predicted(b, d);
  prof_buf_printf(b, "\n-- Launch and occupancy\n");
  prof_buf_printf(b, "  workgroups            %llu\n", (unsigned long long)d->workgroups);
  prof_buf_printf(b, "  invocations           %llu\n", (unsigned long long)d->invocations);
  prof_buf_printf(b, "  subgroups             %llu (%u per workgroup)\n",
                  (unsigned long long)d->subgroups,
                  d->width ? d->group_lanes / d->width : 0);
  prof_buf_printf(b, "  lanes allocated       %llu (%u per workgroup)\n",
                  (unsigned long long)d->lanes_allocated, d->group_lanes);
  prof_buf_printf(b, "  idle lanes            %llu (%u per workgroup, %.1f%%)%s\n",
                  (unsigned long long)d->lanes_idle, d->group_idle, 100.0 * d->idle_fraction,
                  d->group_idle ? "  <- workgroup size is no multiple of W" : "");
  prof_buf_printf(b, "  early exits           %llu invocations returned before the end\n",
                  (unsigned long long)d->early_exits);
  if (d->tail_invocations)
    prof_buf_printf(b,
                    "  guard's tail          %llu invocations exited before any memory write, in "
                    "%llu workgroup(s) (flat index %llu..%llu of %llu)\n",
                    (unsigned long long)d->tail_invocations, (unsigned long long)d->tail_groups,
                    (unsigned long long)d->tail_first_group,
                    (unsigned long long)d->tail_last_group,
                    (unsigned long long)(d->workgroups ? d->workgroups - 1 : 0));
  else
    prof_buf_printf(b, "  guard's tail          none\n");

  prof_buf_printf(b, "\n-- SIMT efficiency\n");
  prof_buf_printf(b, "  instructions issued   %llu subgroup-instructions\n",
                  (unsigned long long)d->issued);
  prof_buf_printf(b, "  live lanes            %llu\n", (unsigned long long)d->live_lanes);
  prof_buf_printf(b, "  SIMT efficiency       %.1f%% (live lanes / (issued x W))\n",
                  100.0 * d->simt_efficiency);
  prof_buf_printf(b, "  cost (issue slots)    %.0f (issued + sectors + %sbank replays)\n", d->cost,
                  d->tiles ? "texture tiles + " : "");

  prof_buf_printf(b, "\n-- Divergence\n");
  prof_buf_printf(b, "  branches evaluated    %llu, divergent %llu (%.1f%%)\n",
                  (unsigned long long)d->branches, (unsigned long long)d->divergent_branches,
                  d->branches ? 100.0 * d->divergent_branches / d->branches : 0.0);
  prof_buf_printf(b, "  loop exit tests       %llu, divergent %llu (%.1f%%)\n",
                  (unsigned long long)d->loop_exits, (unsigned long long)d->divergent_loop_exits,
                  d->loop_exits ? 100.0 * d->divergent_loop_exits / d->loop_exits : 0.0);
  for (size_t i = 0; i < d->nbranch; i++) {
    const ls_prof_branch *br = &d->branch[i];
    if (br->is_else || !br->divergent) continue;
    prof_snippet(d, br->line, snip, sizeof snip);
    prof_buf_printf(b, "  line %-4u %-40s divergent %llu of %llu%s\n", br->line, snip,
                    (unsigned long long)br->divergent, (unsigned long long)br->evaluations,
                    br->is_loop_exit ? " (loop exit)" : "");
  }

  prof_buf_printf(b, "\n-- Loops (a loop lasts as long as its longest lane)\n");
  if (!d->nloop) prof_buf_printf(b, "  none\n");
  for (size_t i = 0; i < d->nloop; i++) {
    const ls_prof_loop *l = &d->loop[i];
    prof_snippet(d, l->line, snip, sizeof snip);
    prof_buf_printf(b, "  line %-4u %s\n", l->line, snip);
    prof_buf_printf(b,
                    "    instances %llu; subgroup trips avg %.2f, max %llu; lane trips avg %.2f; "
                    "spread (longest - average lane) max %.2f, mean %.2f; loop efficiency %.1f%%\n",
                    (unsigned long long)l->instances, l->avg_subgroup_trips,
                    (unsigned long long)l->max_trips, l->avg_lane_trips, l->max_spread,
                    l->mean_spread, 100.0 * l->efficiency);
    if (l->max_spread > 0)
      prof_buf_printf(b, "    worst: workgroup (%u, %u, %u) subgroup %u\n", l->worst_group[0],
                      l->worst_group[1], l->worst_group[2], l->worst_subgroup);
  }

  prof_buf_printf(b, "\n-- Memory (sector %u B, line %u B)\n", d->memory.sector_bytes,
                  d->memory.line_bytes);
  prof_buf_printf(b, "  %-5s %-6s %-9s %-12s %9s %9s %8s %8s %7s  %s\n", "line", "kind", "space",
                  "variable", "requests", "bytes", "sect/req", "line/req", "effic.", "source");
  for (size_t i = 0; i < d->nmem; i++) {
    const ls_prof_mem *m = &d->mem[i];
    if (m->space == LS_PROF_TEXTURE) continue;
    prof_snippet(d, m->line, snip, sizeof snip);
    if (m->space == LS_PROF_BUFFER)
      prof_buf_printf(b, "  %-5u %-6s %-9s %-12s %9llu %9llu %8.2f %8.2f %6.1f%%  %s\n", m->line,
                      prof_access_name(m->access), "buffer", m->variable ? m->variable : "?",
                      (unsigned long long)m->requests, (unsigned long long)m->bytes,
                      m->sectors_per_request, m->lines_per_request, 100.0 * m->efficiency, snip);
    else
      prof_buf_printf(b, "  %-5u %-6s %-9s %-12s %9llu %9llu %8s %8s %7s  %s\n", m->line,
                      prof_access_name(m->access), "workgroup", "-",
                      (unsigned long long)m->requests, (unsigned long long)m->bytes, "-", "-", "-",
                      snip);
  }
  prof_buf_printf(b, "  buffer totals: %llu requests, %llu sectors, %llu lines, efficiency %.1f%%\n",
                  (unsigned long long)d->requests, (unsigned long long)d->sectors,
                  (unsigned long long)d->lines_touched, 100.0 * d->mem_efficiency);

  if (d->texel_requests) {
    prof_buf_printf(b, "\n-- Texture memory (tiles of %u B: texels in 2D blocks)\n",
                    d->memory.tile_bytes);
    prof_buf_printf(b, "  %-5s %-6s %-12s %9s %9s %9s %9s %6s %7s  %s\n", "line", "kind",
                    "variable", "requests", "bytes", "texel/req", "tiles/req", "tile", "effic.",
                    "source");
    for (size_t i = 0; i < d->nmem; i++) {
      const ls_prof_mem *m = &d->mem[i];
      if (m->space != LS_PROF_TEXTURE) continue;
      char tile[24];
      snprintf(tile, sizeof tile, "%ux%u", m->tile_width, m->tile_height);
      prof_snippet(d, m->line, snip, sizeof snip);
      prof_buf_printf(b, "  %-5u %-6s %-12s %9llu %9llu %9.2f %9.2f %6s %6.1f%%  %s\n", m->line,
                      prof_access_name(m->access), m->variable ? m->variable : "?",
                      (unsigned long long)m->requests, (unsigned long long)m->bytes,
                      m->texels_per_request, m->tiles_per_request, tile, 100.0 * m->efficiency,
                      snip);
      if (m->oob_lanes)
        prof_buf_printf(b, "        %llu lanes out of bounds (no texel fetched or written)\n",
                        (unsigned long long)m->oob_lanes);
    }
    prof_buf_printf(b, "  texture totals: %llu requests, %llu texels, %llu tiles, efficiency %.1f%%\n",
                    (unsigned long long)d->texel_requests, (unsigned long long)d->texels,
                    (unsigned long long)d->tiles, 100.0 * d->texture_efficiency);
  }

  prof_buf_printf(b, "\n-- Workgroup memory (%u banks of %u B)\n", d->memory.banks,
                  d->memory.bank_bytes);
  int any = 0;
  for (size_t i = 0; i < d->nmem; i++) {
    const ls_prof_mem *m = &d->mem[i];
    if (m->space != LS_PROF_WORKGROUP) continue;
    any = 1;
    prof_snippet(d, m->line, snip, sizeof snip);
    prof_buf_printf(b, "  line %-4u %-6s conflict degree avg %.2f, worst %llu  %s\n", m->line,
                    prof_access_name(m->access), m->conflict_per_request,
                    (unsigned long long)m->conflict_max, snip);
  }
  if (!any) prof_buf_printf(b, "  no workgroup memory accesses\n");

  prof_buf_printf(b, "\n-- Synchronisation and atomics\n");
  prof_buf_printf(b, "  barriers              %llu subgroup arrivals, %llu releases\n",
                  (unsigned long long)d->barriers, (unsigned long long)d->barrier_releases);
  prof_buf_printf(b, "  atomic requests       %llu\n", (unsigned long long)d->atomics);
  for (size_t i = 0; i < d->nmem; i++) {
    const ls_prof_mem *m = &d->mem[i];
    if (m->access != LS_PROF_ATOMIC) continue;
    prof_snippet(d, m->line, snip, sizeof snip);
    prof_buf_printf(b, "  line %-4u lanes on one address: avg %.2f, worst %llu  %s\n", m->line,
                    m->requests ? (double)m->same_address_sum / m->requests : 0.0,
                    (unsigned long long)m->same_address_max, snip);
  }

  prof_buf_printf(b, "\n-- Per line (time: share of the SM's predicted cycles)\n");
  const int tex = d->texel_requests != 0;
  if (tex)
    prof_buf_printf(b, "  %-5s %6s %10s %7s %9s %8s %9s %8s %9s  %s\n", "line", "time",
                    "issued", "SIMT", "requests", "sectors", "texel req", "tiles", "divergent",
                    "source");
  else
    prof_buf_printf(b, "  %-5s %6s %10s %7s %9s %8s %9s  %s\n", "line", "time", "issued", "SIMT",
                    "requests", "sectors", "divergent", "source");
  for (size_t i = 0; i < d->nline; i++) {
    const ls_prof_line *L = &d->line[i];
    if (!L->issued && !L->requests && !L->texel_requests) continue;
    prof_snippet(d, L->line, snip, sizeof snip);
    if (tex)
      prof_buf_printf(b, "  %-5u %5.1f%% %10llu %6.1f%% %9llu %8llu %9llu %8llu %9llu  %s\n",
                      L->line, 100.0 * L->predicted_share, (unsigned long long)L->issued, 100.0 * L->simt_efficiency,
                      (unsigned long long)L->requests, (unsigned long long)L->sectors,
                      (unsigned long long)L->texel_requests, (unsigned long long)L->tiles,
                      (unsigned long long)L->divergent, snip);
    else
      prof_buf_printf(b, "  %-5u %5.1f%% %10llu %6.1f%% %9llu %8llu %9llu  %s\n", L->line,
                      100.0 * L->predicted_share, (unsigned long long)L->issued, 100.0 * L->simt_efficiency,
                      (unsigned long long)L->requests, (unsigned long long)L->sectors,
                      (unsigned long long)L->divergent, snip);
  }
  prof_buf_printf(b, "\n");
}

char *ls_profiler_report_text(const ls_profiler *p, const char *profile) {
  prof_buf b = {0};
  size_t n = ls_profiler_dispatch_count(p);
  prof_buf_printf(b.failed ? &b : &b, "lockstep SIMT profile%s%s: %zu dispatch%s\n\n",
                  profile ? ", profile " : "", profile ? profile : "", n, n == 1 ? "" : "es");
  for (size_t i = 0; i < n; i++) prof_text_dispatch(&b, ls_profiler_dispatch(p, i));
  return prof_buf_take(&b);
}

/* ------------------------------------------------------------------ JSON */

/* Whole numbers (a cost, a count kept in double) are written exactly, up
 * to 2^53, where doubles stop holding every integer; fractions with 6
 * significant digits. */
static void prof_json_num(prof_buf *b, const char *key, double v, int comma) {
  if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(long long)v)
    prof_buf_printf(b, "\"%s\": %lld%s", key, (long long)v, comma ? ", " : "");
  else
    prof_buf_printf(b, "\"%s\": %.6g%s", key, v, comma ? ", " : "");
}

static void prof_json_u(prof_buf *b, const char *key, unsigned long long v, int comma) {
  prof_buf_printf(b, "\"%s\": %llu%s", key, v, comma ? ", " : "");
}

static void prof_json_predicted(prof_buf *b, const ls_prof_dispatch *d) {
  const ls_prof_prediction *q = &d->predicted;
  prof_buf_printf(b, "      \"predicted\": {");
  prof_json_num(b, "ns", q->ns, 1);
  prof_buf_printf(b, "\"bound\": ");
  prof_buf_json_string(b, q->bound ? q->bound : "", q->bound ? strlen(q->bound) : 0);
  prof_buf_printf(b, ", \"calibrated\": %s, ", q->calibrated ? "true" : "false");
  prof_json_num(b, "launchNs", q->launch_ns, 1);
  prof_json_num(b, "issueNs", q->issue_ns, 1);
  prof_json_num(b, "memoryPipeNs", q->memory_pipe_ns, 1);
  prof_json_num(b, "latencyNs", q->latency_ns, 1);
  prof_json_num(b, "l2Ns", q->l2_ns, 1);
  prof_json_num(b, "dramNs", q->dram_ns, 1);
  prof_json_num(b, "atomicNs", q->atomic_ns, 1);
  prof_json_num(b, "occupancy", q->occupancy, 1);
  prof_json_u(b, "residentGroups", q->resident_groups, 1);
  prof_buf_printf(b, "\"limiter\": ");
  prof_buf_json_string(b, q->limiter ? q->limiter : "", q->limiter ? strlen(q->limiter) : 0);
  prof_buf_printf(b, ", ");
  prof_json_num(b, "waves", q->waves, 1);
  prof_json_num(b, "footprintBytes", q->footprint_bytes, 1);
  prof_json_num(b, "l2Bytes", q->l2_bytes, 1);
  prof_json_num(b, "dramBytes", q->dram_bytes, 0);
  static const char *const cls[LS_PROF_OP_CLASSES] = {
      "control", "alu", "fma", "trans", "idiv", "conv", "mem", "atomic", "barrier", "subgroup"};
  prof_buf_printf(b, "},\n      \"costInputs\": {\"classIssued\": {");
  for (int c = 0; c < LS_PROF_OP_CLASSES; c++)
    prof_json_u(b, cls[c], d->class_issued[c], c + 1 < LS_PROF_OP_CLASSES);
  prof_buf_printf(b, "}, ");
  prof_json_u(b, "regions", d->regions, 1);
  prof_json_u(b, "uniformRequests", d->uniform_requests, 1);
  prof_json_u(b, "hotAtomics", d->hot_atomics, 1);
  prof_json_u(b, "atomicOps", d->atomic_ops, 1);
  prof_json_u(b, "registers", d->registers, 1);
  prof_json_u(b, "workgroupBytes", d->workgroup_bytes, 0);
  prof_buf_printf(b, "},\n");
}

static void prof_json_dispatch(prof_buf *b, const ls_prof_dispatch *d) {
  prof_buf_printf(b, "    {\n      \"index\": %u, \"entryPoint\": ", d->index);
  prof_buf_json_string(b, d->entry_point, d->entry_point ? strlen(d->entry_point) : 0);
  prof_buf_printf(b, ", \"shader\": ");
  prof_buf_json_string(b, d->filename, d->filename ? strlen(d->filename) : 0);
  prof_buf_printf(b, ",\n");
  prof_json_predicted(b, d);
  prof_buf_printf(b, "      \"workgroups\": [%u, %u, %u], \"workgroupSize\": [%u, %u, %u], "
                     "\"subgroupSize\": %u,\n",
                  d->groups[0], d->groups[1], d->groups[2], d->wg_size[0], d->wg_size[1],
                  d->wg_size[2], d->width);
  prof_buf_printf(b, "      \"memoryModel\": {\"sectorBytes\": %u, \"lineBytes\": %u, \"banks\": "
                     "%u, \"bankBytes\": %u},\n",
                  d->memory.sector_bytes, d->memory.line_bytes, d->memory.banks,
                  d->memory.bank_bytes);
  prof_buf_printf(b, "      \"occupancy\": {");
  prof_json_u(b, "workgroups", d->workgroups, 1);
  prof_json_u(b, "invocations", d->invocations, 1);
  prof_json_u(b, "subgroups", d->subgroups, 1);
  prof_json_u(b, "lanesAllocated", d->lanes_allocated, 1);
  prof_json_u(b, "lanesIdle", d->lanes_idle, 1);
  prof_json_u(b, "groupLanes", d->group_lanes, 1);
  prof_json_u(b, "groupIdle", d->group_idle, 1);
  prof_json_num(b, "idleFraction", d->idle_fraction, 0);
  prof_buf_printf(b, "},\n      \"exits\": {");
  prof_json_u(b, "early", d->early_exits, 1);
  prof_json_u(b, "tail", d->tail_invocations, 1);
  prof_json_u(b, "tailGroups", d->tail_groups, 1);
  prof_json_u(b, "tailFirstGroup", d->tail_first_group, 1);
  prof_json_u(b, "tailLastGroup", d->tail_last_group, 0);
  prof_buf_printf(b, "},\n      \"simt\": {");
  prof_json_u(b, "issued", d->issued, 1);
  prof_json_u(b, "liveLanes", d->live_lanes, 1);
  prof_json_num(b, "efficiency", d->simt_efficiency, 1);
  prof_json_u(b, "branches", d->branches, 1);
  prof_json_u(b, "divergentBranches", d->divergent_branches, 1);
  prof_json_u(b, "loopExits", d->loop_exits, 1);
  prof_json_u(b, "divergentLoopExits", d->divergent_loop_exits, 1);
  prof_json_num(b, "cost", d->cost, 0);
  prof_buf_printf(b, "},\n      \"memory\": {");
  prof_json_u(b, "requests", d->requests, 1);
  prof_json_u(b, "bytes", d->bytes, 1);
  prof_json_u(b, "uniqueBytes", d->unique_bytes, 1);
  prof_json_u(b, "sectors", d->sectors, 1);
  prof_json_u(b, "lines", d->lines_touched, 1);
  prof_json_num(b, "efficiency", d->mem_efficiency, 1);
  prof_json_u(b, "bankConflictReplays", d->conflicts, 1);
  prof_json_u(b, "barriers", d->barriers, 1);
  prof_json_u(b, "barrierReleases", d->barrier_releases, 1);
  prof_json_u(b, "atomics", d->atomics, 0);
  if (d->texel_requests) {
    prof_buf_printf(b, "},\n      \"texture\": {");
    prof_json_u(b, "tileBytes", d->memory.tile_bytes, 1);
    prof_json_u(b, "requests", d->texel_requests, 1);
    prof_json_u(b, "lanes", d->texel_lanes, 1);
    prof_json_u(b, "bytes", d->texel_bytes, 1);
    prof_json_u(b, "uniqueBytes", d->texel_unique_bytes, 1);
    prof_json_u(b, "texels", d->texels, 1);
    prof_json_u(b, "tiles", d->tiles, 1);
    prof_json_num(b, "efficiency", d->texture_efficiency, 0);
  }
  prof_buf_printf(b, "},\n      \"instructions\": [");
  for (size_t i = 0; i < d->nmem; i++) {
    const ls_prof_mem *m = &d->mem[i];
    prof_buf_printf(b, "%s\n        {\"pc\": %u, \"line\": %u, \"column\": %u, \"access\": \"%s\", "
                       "\"space\": \"%s\", \"variable\": ",
                    i ? "," : "", m->pc, m->line, m->column, prof_access_name(m->access),
                    prof_space_name(m->space));
    if (m->variable)
      prof_buf_json_string(b, m->variable, strlen(m->variable));
    else
      prof_buf_printf(b, "null");
    prof_buf_printf(b, ", ");
    if (m->space == LS_PROF_TEXTURE) {
      prof_json_u(b, "requests", m->requests, 1);
      prof_json_u(b, "lanes", m->lanes, 1);
      prof_json_u(b, "bytes", m->bytes, 1);
      prof_json_u(b, "uniqueBytes", m->unique_bytes, 1);
      prof_json_u(b, "outOfBoundsLanes", m->oob_lanes, 1);
      prof_json_u(b, "texelBytes", m->texel_bytes, 1);
      prof_json_u(b, "texels", m->texels, 1);
      prof_json_u(b, "tiles", m->tiles, 1);
      prof_json_num(b, "texelsPerRequest", m->texels_per_request, 1);
      prof_json_num(b, "tilesPerRequest", m->tiles_per_request, 1);
      prof_json_u(b, "maxTiles", m->max_tiles, 1);
      prof_buf_printf(b, "\"tile\": [%u, %u], ", m->tile_width, m->tile_height);
      prof_json_num(b, "efficiency", m->efficiency, 0);
      prof_buf_printf(b, "}");
      continue;
    }
    prof_json_u(b, "requests", m->requests, 1);
    prof_json_u(b, "lanes", m->lanes, 1);
    prof_json_u(b, "bytes", m->bytes, 1);
    prof_json_u(b, "uniqueBytes", m->unique_bytes, 1);
    prof_json_u(b, "outOfBoundsLanes", m->oob_lanes, 1);
    prof_json_u(b, "sectors", m->sectors, 1);
    prof_json_u(b, "lines", m->lines, 1);
    prof_json_num(b, "sectorsPerRequest", m->sectors_per_request, 1);
    prof_json_num(b, "linesPerRequest", m->lines_per_request, 1);
    prof_json_u(b, "maxSectors", m->max_sectors, 1);
    prof_json_u(b, "maxLines", m->max_lines, 1);
    prof_json_num(b, "efficiency", m->efficiency, 1);
    prof_json_num(b, "bankConflictDegree", m->conflict_per_request, 1);
    prof_json_u(b, "bankConflictMax", m->conflict_max, 1);
    prof_json_u(b, "sameAddressMax", m->same_address_max, 0);
    prof_buf_printf(b, "}");
  }
  prof_buf_printf(b, "\n      ],\n      \"branches\": [");
  for (size_t i = 0; i < d->nbranch; i++) {
    const ls_prof_branch *br = &d->branch[i];
    prof_buf_printf(b,
                    "%s\n        {\"pc\": %u, \"line\": %u, \"column\": %u, \"else\": %s, "
                    "\"loopExit\": %s, ",
                    i ? "," : "", br->pc, br->line, br->column, br->is_else ? "true" : "false",
                    br->is_loop_exit ? "true" : "false");
    prof_json_u(b, "evaluations", br->evaluations, 1);
    prof_json_u(b, "divergent", br->divergent, 0);
    prof_buf_printf(b, "}");
  }
  prof_buf_printf(b, "\n      ],\n      \"loops\": [");
  for (size_t i = 0; i < d->nloop; i++) {
    const ls_prof_loop *l = &d->loop[i];
    prof_buf_printf(b, "%s\n        {\"pc\": %u, \"line\": %u, \"column\": %u, ", i ? "," : "",
                    l->pc, l->line, l->column);
    prof_json_u(b, "instances", l->instances, 1);
    prof_json_u(b, "subgroupTrips", l->subgroup_trips, 1);
    prof_json_u(b, "laneTrips", l->lane_trips, 1);
    prof_json_u(b, "lanes", l->lanes, 1);
    prof_json_u(b, "maxTrips", l->max_trips, 1);
    prof_json_num(b, "avgSubgroupTrips", l->avg_subgroup_trips, 1);
    prof_json_num(b, "avgLaneTrips", l->avg_lane_trips, 1);
    prof_json_num(b, "maxSpread", l->max_spread, 1);
    prof_json_num(b, "meanSpread", l->mean_spread, 1);
    prof_json_num(b, "efficiency", l->efficiency, 1);
    prof_buf_printf(b, "\"worstGroup\": [%u, %u, %u], \"worstSubgroup\": %u}", l->worst_group[0],
                    l->worst_group[1], l->worst_group[2], l->worst_subgroup);
  }
  prof_buf_printf(b, "\n      ],\n      \"lines\": [");
  for (size_t i = 0; i < d->nline; i++) {
    const ls_prof_line *L = &d->line[i];
    prof_buf_printf(b, "%s\n        {\"line\": %u, ", i ? "," : "", L->line);
    prof_json_num(b, "predictedShare", L->predicted_share, 1);
    prof_json_u(b, "issued", L->issued, 1);
    prof_json_u(b, "liveLanes", L->live_lanes, 1);
    prof_json_num(b, "simtEfficiency", L->simt_efficiency, 1);
    prof_json_u(b, "requests", L->requests, 1);
    prof_json_u(b, "sectors", L->sectors, 1);
    prof_json_u(b, "lines", L->lines_touched, 1);
    prof_json_u(b, "branches", L->branches, 1);
    prof_json_u(b, "divergent", L->divergent, 1);
    prof_json_u(b, "loopTrips", L->loop_trips, 1);
    prof_json_u(b, "barriers", L->barriers, 1);
    prof_json_u(b, "bankConflictReplays", L->conflicts, 1);
    prof_json_u(b, "atomics", L->atomics, 0);
    if (L->texel_requests)
      prof_buf_printf(b, ", \"texelRequests\": %llu, \"texels\": %llu, \"tiles\": %llu",
                      (unsigned long long)L->texel_requests, (unsigned long long)L->texels,
                      (unsigned long long)L->tiles);
    prof_buf_printf(b, "}");
  }
  prof_buf_printf(b, "\n      ]\n    }");
}

char *ls_profiler_report_json(const ls_profiler *p, const char *profile) {
  prof_buf b = {0};
  prof_buf_printf(&b, "{\n  \"format\": \"lockstep-profile/1\",\n  \"profile\": ");
  if (profile)
    prof_buf_json_string(&b, profile, strlen(profile));
  else
    prof_buf_printf(&b, "null");
  prof_buf_printf(&b, ",\n  \"dispatches\": [\n");
  size_t n = ls_profiler_dispatch_count(p);
  for (size_t i = 0; i < n; i++) {
    if (i) prof_buf_printf(&b, ",\n");
    prof_json_dispatch(&b, ls_profiler_dispatch(p, i));
  }
  prof_buf_printf(&b, "\n  ]\n}\n");
  return prof_buf_take(&b);
}

/* -------------------------------------------------------------- annotate */

char *ls_profiler_annotate(const ls_profiler *p, size_t index) {
  const ls_prof_dispatch *d = ls_profiler_dispatch(p, index);
  if (!d) return NULL;
  prof_buf b = {0};
  const int tex = d->texel_requests != 0;
  prof_buf_printf(&b, "%s, entry point %s, W = %u: per line the share of the predicted time, "
                      "issued subgroup-instructions, SIMT efficiency, memory requests / sectors "
                      "per request, %sdivergent branches\n",
                  d->filename ? d->filename : "?", d->entry_point ? d->entry_point : "?",
                  d->width, tex ? "texel requests / texture tiles per request, " : "");
  if (tex)
    prof_buf_printf(&b, "%5s | %6s %10s %6s %15s %15s %8s | source\n", "line", "time", "issued",
                    "SIMT", "req (sect/req)", "tex (tile/req)", "diverg.");
  else
    prof_buf_printf(&b, "%5s | %6s %10s %6s %15s %8s | source\n", "line", "time", "issued", "SIMT",
                    "req (sect/req)", "diverg.");
  uint32_t n = prof_source_lines(d);
  for (uint32_t l = 1; l <= n; l++) {
    const char *s;
    size_t len;
    if (!prof_source_line(d, l, &s, &len)) break;
    const ls_prof_line *L = prof_find_line(d, l);
    char iss[24] = "", eff[16] = "", mem[32] = "", div[24] = "", tim[16] = "";
    if (L && L->predicted_share > 0) snprintf(tim, sizeof tim, "%.1f%%", 100.0 * L->predicted_share);
    if (L && L->issued) {
      snprintf(iss, sizeof iss, "%llu", (unsigned long long)L->issued);
      snprintf(eff, sizeof eff, "%.0f%%", 100.0 * L->simt_efficiency);
    }
    if (L && L->requests)
      snprintf(mem, sizeof mem, "%llu (%.2f)", (unsigned long long)L->requests,
               L->sectors ? (double)L->sectors / L->requests : 0.0);
    if (L && L->divergent) snprintf(div, sizeof div, "%llu", (unsigned long long)L->divergent);
    if (tex) {
      char tx[32] = "";
      if (L && L->texel_requests)
        snprintf(tx, sizeof tx, "%llu (%.2f)", (unsigned long long)L->texel_requests,
                 (double)L->tiles / L->texel_requests);
      prof_buf_printf(&b, "%5u | %6s %10s %6s %15s %15s %8s | ", l, tim, iss, eff, mem, tx, div);
    } else {
      prof_buf_printf(&b, "%5u | %6s %10s %6s %15s %8s | ", l, tim, iss, eff, mem, div);
    }
    prof_buf_put(&b, s, len);
    for (size_t i = 0; i < d->nloop; i++)
      if (d->loop[i].line == l)
        prof_buf_printf(&b, "   <- loop: longest lane %llu trips, average lane %.2f",
                        (unsigned long long)d->loop[i].max_trips, d->loop[i].avg_lane_trips);
    prof_buf_put(&b, "\n", 1);
  }
  return prof_buf_take(&b);
}
