/*
 * prof_html.c — the profiler's figures as one self-contained HTML page: no
 * network, no external file; inline CSS, inline data, a little inline
 * script that draws the lane-activity picture on a canvas.
 *
 * Where it stands: after the run, from the ls_prof_dispatch results prof.c
 * built (as prof_report.c); `lockstep run --report FILE.html` writes it.
 *
 * The page is meant for someone who has never seen lockstep: every figure
 * comes with one sentence that says what it means. Sections (ids the
 * Chromium test looks for): #summary, #heatmap (the source, each line
 * coloured by SIMT efficiency), #lanes (subgroups x issued instructions of
 * the traced workgroup, live lanes drawn: divergence shows as lanes going
 * dark and coming back).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"

static const char prof_css[] =
    "body{font-family:system-ui,sans-serif;margin:24px;color:#1d2329;max-width:1200px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccd}"
    "p.note{color:#555;font-size:14px;max-width:900px}"
    "table.fig{border-collapse:collapse;font-size:14px}"
    "table.fig td,table.fig th{padding:3px 10px;border-bottom:1px solid #eee;text-align:left}"
    "table.fig td.v{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".src{font-family:ui-monospace,monospace;font-size:13px;border:1px solid #ddd}"
    ".ln{display:flex;white-space:pre}"
    ".ln .no{width:44px;text-align:right;color:#888;padding-right:8px}"
    ".ln .m{width:310px;color:#333;padding-right:8px;font-size:12px;overflow:hidden}"
    ".ln .t{flex:1}"
    ".key span{display:inline-block;width:18px;height:12px;margin:0 4px;vertical-align:middle}"
    "#lanecanvas{border:1px solid #ccc;image-rendering:pixelated}"
    "#laneinfo{font-family:ui-monospace,monospace;font-size:13px;min-height:1.4em}"
    ".bad{color:#b00020;font-weight:600}";

/* SIMT efficiency 0..1 -> a red..green background. */
static void prof_heat(prof_buf *b, double e) {
  if (e < 0) e = 0;
  if (e > 1) e = 1;
  int r = (int)(230 - 120 * e), g = (int)(120 + 110 * e), bl = 130;
  prof_buf_printf(b, "rgba(%d,%d,%d,0.55)", r, g, bl);
}

static void prof_row(prof_buf *b, const char *name, const char *value, const char *meaning) {
  prof_buf_printf(b, "<tr><td>%s</td><td class=\"v\">%s</td><td>%s</td></tr>\n", name, value,
                  meaning);
}

static void prof_html_summary(prof_buf *b, const ls_prof_dispatch *d) {
  char v[160];
  prof_buf_printf(b, "<h3>Dispatch %u: entry point <code>", d->index + 1);
  prof_buf_html(b, d->entry_point ? d->entry_point : "?",
                d->entry_point ? strlen(d->entry_point) : 1);
  /* a case of several modules: say which one */
  if (d->filename && *d->filename) {
    prof_buf_printf(b, "</code> of <code>");
    prof_buf_html(b, d->filename, strlen(d->filename));
  }
  prof_buf_printf(b, "</code>, %u&times;%u&times;%u workgroups of %u&times;%u&times;%u, "
                     "subgroups of W&nbsp;=&nbsp;%u lanes</h3>\n",
                  d->groups[0], d->groups[1], d->groups[2], d->wg_size[0], d->wg_size[1],
                  d->wg_size[2], d->width);
  prof_buf_printf(b, "<table class=\"fig\">\n<tr><th>figure</th><th>value</th><th>what it "
                     "means</th></tr>\n");
  {
    const ls_prof_prediction *q = &d->predicted;
    char t[32], bound[96];
    prof_time(t, sizeof t, q->ns);
    prof_buf h = {0};
    prof_buf_html(&h, q->bound ? q->bound : "?", q->bound ? strlen(q->bound) : 1);
    snprintf(bound, sizeof bound, "%s", h.s ? h.s : "?");
    free(h.s);
    snprintf(v, sizeof v, "%s, bound by %s", t, bound);
    prof_row(b, "predicted time", v,
             q->calibrated
                 ? "The cost model's time for this dispatch on the profile's GPU "
                   "(docs/profiler.md, \"Cost model\"; calibrated on an NVIDIA H200)."
                 : "The cost model's time on the profile's GPU, from published figures: "
                   "<span class=\"bad\">not calibrated</span> on that hardware.");
  }
  snprintf(v, sizeof v, "%llu of %llu (%.1f%%)", (unsigned long long)d->lanes_idle,
           (unsigned long long)d->lanes_allocated, 100.0 * d->idle_fraction);
  prof_row(b, "idle lanes", v,
           d->group_idle ? "<span class=\"bad\">The workgroup size is no multiple of W</span>: "
                           "each workgroup occupies whole subgroups and some lanes hold no "
                           "invocation, yet take a place in the machine."
                         : "The workgroup fills its subgroups exactly: no lane is wasted.");
  snprintf(v, sizeof v, "%.1f%%", 100.0 * d->simt_efficiency);
  prof_row(b, "SIMT efficiency", v,
           "Of the lanes the subgroups could have used for each instruction they issued, the "
           "share that did useful work. Divergence, early exits and idle lanes lower it.");
  snprintf(v, sizeof v, "%llu", (unsigned long long)d->issued);
  prof_row(b, "instructions issued", v,
           "Subgroup-instructions: one per instruction a whole subgroup executed, however many "
           "of its lanes were live.");
  snprintf(v, sizeof v, "%llu of %llu", (unsigned long long)d->divergent_branches,
           (unsigned long long)d->branches);
  prof_row(b, "divergent branches", v,
           "Branch tests (if, switch, && and ||) where some lanes of a subgroup went one way "
           "and some the other: both sides run, each with part of the lanes switched off.");
  snprintf(v, sizeof v, "%llu of %llu", (unsigned long long)d->divergent_loop_exits,
           (unsigned long long)d->loop_exits);
  prof_row(b, "divergent loop exits", v,
           "Tests of a loop's condition where some lanes left and others went round again: "
           "the loop lasts as long as its longest lane (the Loops section).");
  snprintf(v, sizeof v, "%llu in %llu workgroup(s)", (unsigned long long)d->tail_invocations,
           (unsigned long long)d->tail_groups);
  prof_row(b, "guard's tail", v,
           "Invocations that returned before writing anything: the ones launched past the end of "
           "the data. Harmless when they sit in the last workgroup only.");
  for (size_t i = 0; i < d->nloop; i++) {
    snprintf(v, sizeof v, "line %u: longest %llu, average %.2f", d->loop[i].line,
             (unsigned long long)d->loop[i].max_trips, d->loop[i].avg_lane_trips);
    prof_row(b, "loop trips", v,
             "A loop lasts as long as its longest lane: the subgroup goes round until its last "
             "lane is done, the others masked off.");
  }
  snprintf(v, sizeof v, "%.2f sectors/request, %.1f%% used",
           d->requests ? (double)d->sectors / d->requests : 0.0, 100.0 * d->mem_efficiency);
  prof_row(b, "memory coalescing", v,
           "Memory moves in sectors (32 bytes on NVIDIA). Neighbouring lanes reading neighbouring "
           "words share sectors; scattered reads need one each and waste most of every sector.");
  if (d->texel_requests) {
    snprintf(v, sizeof v, "%.2f tiles/request, %.1f%% used",
             (double)d->tiles / d->texel_requests, 100.0 * d->texture_efficiency);
    prof_row(b, "texture tiles", v,
             "Textures are stored in tiles, small 2D blocks of texels (here one tile is one cache "
             "line). A subgroup reading a compact 2D patch shares tiles; one reading a long row "
             "or a column needs more of them.");
  }
  snprintf(v, sizeof v, "%llu", (unsigned long long)d->conflicts);
  prof_row(b, "bank-conflict replays", v,
           "Extra passes workgroup memory needs when several lanes want different words of one "
           "bank.");
  snprintf(v, sizeof v, "%llu / %llu", (unsigned long long)d->barriers,
           (unsigned long long)d->atomics);
  prof_row(b, "barriers / atomic requests", v,
           "Subgroups waiting at workgroupBarrier; atomic instructions issued.");
  prof_buf_printf(b, "</table>\n");
}

static const ls_prof_line *prof_html_line(const ls_prof_dispatch *d, uint32_t l) {
  for (size_t i = 0; i < d->nline; i++)
    if (d->line[i].line == l) return &d->line[i];
  return NULL;
}

static void prof_html_heatmap(prof_buf *b, const ls_prof_dispatch *d) {
  prof_buf_printf(b, "<p>Dispatch %u", d->index + 1);
  if (d->filename && *d->filename) {
    prof_buf_printf(b, ": <code>");
    prof_buf_html(b, d->filename, strlen(d->filename));
    prof_buf_printf(b, "</code>");
  }
  prof_buf_printf(b, "</p>\n<p class=\"note\">Each line of the shader, coloured by its SIMT "
                     "efficiency (green: every lane busy; red: most lanes idle while the "
                     "subgroup executes it). The margin gives the subgroup-instructions the "
                     "line issued, its efficiency, and its memory requests.</p>\n"
                     "<p class=\"key\">efficiency <span style=\"background:");
  prof_heat(b, 0);
  prof_buf_printf(b, "\"></span>0%% <span style=\"background:");
  prof_heat(b, 0.5);
  prof_buf_printf(b, "\"></span>50%% <span style=\"background:");
  prof_heat(b, 1);
  prof_buf_printf(b, "\"></span>100%%</p>\n<div class=\"src\" id=\"source\">\n");
  uint32_t n = prof_source_lines(d);
  for (uint32_t l = 1; l <= n; l++) {
    const char *s;
    size_t len;
    if (!prof_source_line(d, l, &s, &len)) break;
    const ls_prof_line *L = prof_html_line(d, l);
    prof_buf_printf(b, "<div class=\"ln\" data-line=\"%u\"", l);
    if (L && L->issued) {
      prof_buf_printf(b, " style=\"background:");
      prof_heat(b, L->simt_efficiency);
      prof_buf_printf(b, "\" title=\"line %u: %llu issued, %.1f%% SIMT efficiency, %llu divergent "
                         "branches, %llu memory requests, %llu sectors\"",
                      l, (unsigned long long)L->issued, 100.0 * L->simt_efficiency,
                      (unsigned long long)L->divergent, (unsigned long long)L->requests,
                      (unsigned long long)L->sectors);
    }
    prof_buf_printf(b, "><span class=\"no\">%u</span><span class=\"m\">", l);
    if (L && L->issued) {
      prof_buf_printf(b, "%llu issued &middot; %.0f%% &middot; %.0f%% of the time",
                      (unsigned long long)L->issued, 100.0 * L->simt_efficiency,
                      100.0 * L->predicted_share);
      if (L->requests)
        prof_buf_printf(b, " &middot; %llu req, %.1f sect/req", (unsigned long long)L->requests,
                        (double)L->sectors / L->requests);
      if (L->texel_requests)
        prof_buf_printf(b, " &middot; %llu texel req, %.1f tiles/req",
                        (unsigned long long)L->texel_requests,
                        (double)L->tiles / L->texel_requests);
    }
    prof_buf_printf(b, "</span><span class=\"t\">");
    prof_buf_html(b, s, len);
    prof_buf_printf(b, "</span></div>\n");
  }
  prof_buf_printf(b, "</div>\n");
}

static void prof_html_trace(prof_buf *b, const ls_prof_dispatch *d) {
  const ls_prof_trace *t = d->trace;
  prof_buf_printf(b, "<p class=\"note\">Workgroup (%u, %u, %u) of dispatch %u, one band per "
                     "subgroup; left to right the instructions the subgroup issued, in order; "
                     "top to bottom its %u lanes. A dark cell is a live lane, a pale one a lane "
                     "that sat idle for that instruction. Where a divergent branch "
                     "(marked red above the band) splits the lanes, one part goes pale while the "
                     "other side runs, then the other way round, until they meet again. Point at "
                     "a column to see the instruction.%s</p>\n",
                  t->group[0], t->group[1], t->group[2], d->index + 1, d->width,
                  t->truncated ? " (Only the first instructions are kept.)" : "");
  prof_buf_printf(b, "<canvas id=\"lanecanvas\" width=\"10\" height=\"10\"></canvas>\n"
                     "<div id=\"laneinfo\">&nbsp;</div>\n");
  /* data: per subgroup a list of [pc, line, flags, mask as hex] */
  prof_buf_printf(b, "<script id=\"lanedata\" type=\"application/json\">{\"w\": %u, \"sub\": [",
                  d->width);
  for (uint32_t s = 0; s < t->subgroups; s++) {
    prof_buf_printf(b, "%s[", s ? "," : "");
    for (uint32_t i = 0; i < t->nsteps[s]; i++) {
      const ls_prof_step *st = &t->steps[s][i];
      prof_buf_printf(b, "%s[%u,%u,%u,\"%llx\"]", i ? "," : "", st->pc, st->line, st->flags,
                      (unsigned long long)st->mask);
    }
    prof_buf_printf(b, "]");
  }
  prof_buf_printf(b, "]}</script>\n");
}

static const char prof_js[] =
    "(function(){\n"
    "var el=document.getElementById('lanedata');if(!el)return;\n"
    "var D=JSON.parse(el.textContent),W=D.w,C=W>32?4:6,gap=12,top=7;\n"
    "var cols=0;D.sub.forEach(function(s){if(s.length>cols)cols=s.length;});\n"
    "var cv=document.getElementById('lanecanvas');\n"
    "var band=W*C+top+gap;cv.width=Math.max(200,Math.min(cols*C,30000));\n"
    "cv.height=Math.max(20,D.sub.length*band);\n"
    "var g=cv.getContext('2d');g.fillStyle='#fff';g.fillRect(0,0,cv.width,cv.height);\n"
    "function live(m,l){var h=m.length-1-Math.floor(l/4);if(h<0)return false;\n"
    "  return ((parseInt(m.charAt(h),16)>>(l%4))&1)===1;}\n"
    "D.sub.forEach(function(s,si){var y0=si*band+top;\n"
    "  s.forEach(function(st,x){var m=st[3];\n"
    "    if(st[2]&4){g.fillStyle='#d0021b';g.fillRect(x*C,y0-top,C,top-1);}\n"
    "    else if(st[2]&1){g.fillStyle='#4a90e2';g.fillRect(x*C,y0-top+2,C,top-3);}\n"
    "    for(var l=0;l<W;l++){g.fillStyle=live(m,l)?'#1f5f3a':'#e3e8e4';\n"
    "      g.fillRect(x*C,y0+l*C,C,C);}\n"
    "  });});\n"
    "var info=document.getElementById('laneinfo');\n"
    "cv.addEventListener('mousemove',function(ev){var r=cv.getBoundingClientRect();\n"
    "  var x=Math.floor((ev.clientX-r.left)/C),si=Math.floor((ev.clientY-r.top)/band);\n"
    "  var s=D.sub[si];if(!s||!s[x]){info.textContent='\\u00a0';return;}\n"
    "  var st=s[x],n=0;for(var l=0;l<W;l++)if(live(st[3],l))n++;\n"
    "  info.textContent='subgroup '+si+', instruction '+(x+1)+': pc '+st[0]+', line '+st[1]+\n"
    "    ', '+n+' of '+W+' lanes live'+(st[2]&4?' (divergent branch)':'')+(st[2]&1?' (memory)':'');\n"
    "});\n"
    "document.body.setAttribute('data-drawn','1');\n"
    "})();\n";

char *ls_profiler_report_html(const ls_profiler *p, const char *profile, const char *title) {
  prof_buf b = {0};
  const char *tt = title ? title : "lockstep SIMT profile";
  prof_buf_printf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
  prof_buf_html(&b, tt, strlen(tt));
  prof_buf_printf(&b, "</title>\n<style>%s</style></head>\n<body>\n<h1>", prof_css);
  prof_buf_html(&b, tt, strlen(tt));
  prof_buf_printf(&b, "</h1>\n<p class=\"note\">What a GPU would spend on this work, measured by "
                      "lockstep, which runs WebGPU compute shaders on the CPU the way GPUs do: "
                      "in subgroups of W lanes that share one instruction stream. Profile: "
                      "<b>");
  prof_buf_html(&b, profile ? profile : "default", strlen(profile ? profile : "default"));
  prof_buf_printf(&b, "</b>.</p>\n");
  size_t n = ls_profiler_dispatch_count(p);
  const ls_prof_dispatch *traced = NULL;
  prof_buf_printf(&b, "<section id=\"summary\"><h2>Summary</h2>\n");
  if (!n) prof_buf_printf(&b, "<p>No dispatch ran.</p>\n");
  for (size_t i = 0; i < n; i++) {
    const ls_prof_dispatch *d = ls_profiler_dispatch(p, i);
    prof_html_summary(&b, d);
    if (d->trace && !traced) traced = d;
  }
  prof_buf_printf(&b, "</section>\n");
  const ls_prof_dispatch *hd = traced ? traced : ls_profiler_dispatch(p, 0);
  prof_buf_printf(&b, "<section id=\"heatmap\"><h2>Where the time goes: the source, line by "
                      "line</h2>\n");
  if (hd) prof_html_heatmap(&b, hd);
  prof_buf_printf(&b, "</section>\n<section id=\"lanes\"><h2>Lane activity of one "
                      "workgroup</h2>\n");
  if (traced)
    prof_html_trace(&b, traced);
  else
    prof_buf_printf(&b, "<p class=\"note\">No workgroup was traced.</p>\n");
  prof_buf_printf(&b, "</section>\n<script>%s</script>\n</body></html>\n", prof_js);
  return prof_buf_take(&b);
}
