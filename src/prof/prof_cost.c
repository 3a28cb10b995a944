/*
 * prof_cost.c — the profiler's cost model: a dispatch's figures (issued
 * instructions per operation class, cache lines, sectors, the estimated
 * footprint, atomics, workgroups and their size) turned into a predicted
 * time on the GPU a vendor profile stands for. The parameters are a table
 * (prof_cost.def, one row per profile); docs/profiler.md, "Cost model",
 * explains every term, its source and its limits. Everything is computed
 * in double and saturates, so no dispatch size overflows it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../ir/ir.h"
#include "prof.h"

/* ------------------------------------------------------------ parameters */

static const ls_cost_model prof_cost_rows[] = {
#define COST(name, cal, sms, mhz, thr, grp, regs, shm, l2, l2r, l2bw, drambw, disp, launch, \
             c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, dep, l2lat, dramlat, unilat, line,  \
             region, uni, replay, agops, asame, src)                                      \
  {sizeof(ls_cost_model), cal, sms, mhz, thr, grp, regs, shm, l2, l2r, l2bw, drambw, disp,   \
   launch, {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9}, dep, l2lat, dramlat, unilat, line,      \
   region, uni, replay, agops, asame, src},
#include "prof_cost.def"
#undef COST
};
static const char *const prof_cost_names[] = {
#define COST(name, ...) name,
#include "prof_cost.def"
#undef COST
};
#define PROF_COST_ROWS (sizeof prof_cost_rows / sizeof prof_cost_rows[0])

ls_status ls_cost_model_describe(const char *profile, ls_cost_model *out) {
  if (!out) return LS_OPERATION;
  for (size_t i = 0; i < PROF_COST_ROWS; i++)
    if (strcmp(prof_cost_names[i], profile ? profile : "default") == 0) {
      *out = prof_cost_rows[i];
      return LS_OK;
    }
  return LS_OPERATION;
}

/* The checks, a table: each parameter's name (as --profile-file's "cost"
 * object spells it), where it sits, and whether 0 is possible. */
typedef struct prof_cost_param {
  const char *name;
  size_t off;
  int positive; /* 1: must be > 0; 0: >= 0 */
} prof_cost_param;

#define PCF(n, f, pos) {n, offsetof(ls_cost_model, f), pos}
static const prof_cost_param prof_cost_fields[] = {
    PCF("sms", sms, 1), PCF("clockMHz", clock_mhz, 1), PCF("maxThreads", max_threads, 1),
    PCF("maxGroups", max_groups, 1), PCF("registers", registers, 1),
    PCF("sharedBytes", shared_bytes, 1), PCF("l2Bytes", l2_bytes, 1),
    PCF("l2Resident", l2_resident, 1), PCF("l2GBs", l2_gbs, 1), PCF("dramGBs", dram_gbs, 1),
    PCF("dispatchNs", dispatch_ns, 0), PCF("groupNs", group_ns, 0),
    PCF("cpiControl", cpi[LS_PROF_OP_CONTROL], 0), PCF("cpiAlu", cpi[LS_PROF_OP_ALU], 0),
    PCF("cpiFma", cpi[LS_PROF_OP_FMA], 0), PCF("cpiTrans", cpi[LS_PROF_OP_TRANS], 0),
    PCF("cpiIdiv", cpi[LS_PROF_OP_IDIV], 0), PCF("cpiConv", cpi[LS_PROF_OP_CONV], 0),
    PCF("cpiMem", cpi[LS_PROF_OP_MEM], 0), PCF("cpiAtomic", cpi[LS_PROF_OP_ATOMIC], 0),
    PCF("cpiBarrier", cpi[LS_PROF_OP_BARRIER], 0),
    PCF("cpiSubgroup", cpi[LS_PROF_OP_SUBGROUP], 0), PCF("depCycles", dep_cycles, 0),
    PCF("l2LatencyNs", l2_latency_ns, 0), PCF("dramLatencyNs", dram_latency_ns, 0),
    PCF("uniformLatencyNs", uniform_latency_ns, 0), PCF("lineCycles", line_cycles, 0),
    PCF("regionCycles", region_cycles, 0), PCF("uniformCycles", uniform_cycles, 0),
    PCF("replayCycles", replay_cycles, 0), PCF("atomicGops", atomic_gops, 1),
    PCF("atomicSameNs", atomic_same_ns, 0),
};
#undef PCF

#define PROF_COST_FIELDS (sizeof prof_cost_fields / sizeof prof_cost_fields[0])

const char *ls_cost_model_param_name(size_t i) {
  return i < PROF_COST_FIELDS ? prof_cost_fields[i].name : NULL;
}

double *ls_cost_model_param(ls_cost_model *m, const char *name) {
  for (size_t i = 0; m && name && i < PROF_COST_FIELDS; i++)
    if (strcmp(prof_cost_fields[i].name, name) == 0)
      return (double *)((char *)m + prof_cost_fields[i].off);
  return NULL;
}

int ls_cost_model_check(const ls_cost_model *m, char *err, size_t errlen) {
  if (!m || m->struct_size < sizeof *m) {
    if (err && errlen) snprintf(err, errlen, "cost model: %s", m ? "struct_size too small" : "none");
    return -1;
  }
  for (size_t i = 0; i < PROF_COST_FIELDS; i++) {
    const prof_cost_param *f = &prof_cost_fields[i];
    const double v = *(const double *)((const char *)m + f->off);
    const char *why = NULL;
    if (!isfinite(v)) why = "is not a finite number";
    else if (f->positive && v <= 0) why = "must be greater than 0";
    else if (v < 0) why = "must not be negative";
    else if (f->off == offsetof(ls_cost_model, l2_resident) && v > 1)
      why = "is a fraction of the L2: at most 1";
    if (why) {
      if (err && errlen) snprintf(err, errlen, "cost model: %s = %g %s", f->name, v, why);
      return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------ operation classes */

ls_prof_op_class prof_cost_class(const ir_insn *in) {
  switch (in->op) {
  case IR_IMUL: case IR_FADD: case IR_FSUB: case IR_FMUL: case IR_FMA: case IR_DOT4P:
    return LS_PROF_OP_FMA;
  case IR_FDIV: case IR_FREM: case IR_FSQRT: case IR_FUN2:
    return LS_PROF_OP_TRANS;
  case IR_FUN1:
    switch (in->d & ~IR_FUN_F16) {
    case IR_F1_ROUND: case IR_F1_TRUNC: return LS_PROF_OP_ALU;
    case IR_F1_QUANT16: case IR_F1_FREXPF: case IR_F1_FREXPE: return LS_PROF_OP_CONV;
    default: return LS_PROF_OP_TRANS;
    }
  case IR_SDIV: case IR_UDIV: case IR_SREM: case IR_UREM:
    return LS_PROF_OP_IDIV;
  case IR_F2S: case IR_F2U: case IR_S2F: case IR_U2F: case IR_F16R: case IR_PACKC:
  case IR_UNPACKC:
    return LS_PROF_OP_CONV;
  case IR_LDB: case IR_STB: case IR_LDW: case IR_STW: case IR_LDBH: case IR_STBH:
  case IR_LDWH: case IR_STWH: case IR_TLD: case IR_TST: case IR_TSMP: case IR_TQRY:
  case IR_ARRLEN:
    return LS_PROF_OP_MEM;
  case IR_ATOMB: case IR_ATOMW:
    return LS_PROF_OP_ATOMIC;
  case IR_BARRIER:
    return LS_PROF_OP_BARRIER;
  case IR_SRED: case IR_SCANI: case IR_SCANX: case IR_SHUF: case IR_VOTE: case IR_BALLOT:
    return LS_PROF_OP_SUBGROUP;
  case IR_MOV: case IR_MOVM: case IR_MSAVE: case IR_MLOAD: case IR_MAND: case IR_MANDN:
  case IR_KILL: case IR_JMP: case IR_JNONE: case IR_JANY: case IR_END: case IR_LDP:
  case IR_STP: case IR_LDPH: case IR_STPH: case IR_PZERO:
    return LS_PROF_OP_CONTROL;
  default:
    return LS_PROF_OP_ALU;
  }
}

/* SM cycles a memory instruction's requests take in the memory pipeline:
 * a line per line touched (uniform requests through the constant path
 * instead), the regions past the first, bank replays; texture tiles as
 * lines. */
double prof_cost_mem_cycles(const ls_cost_model *m, const ls_prof_mem *x) {
  if (x->space == LS_PROF_TEXTURE) return (double)x->tiles * m->line_cycles;
  if (x->space == LS_PROF_WORKGROUP) {
    const double replays =
        x->conflict_sum > x->requests ? (double)(x->conflict_sum - x->requests) : 0;
    return (double)x->requests * m->line_cycles + replays * m->replay_cycles;
  }
  const double uni = (double)x->uniform_requests;
  const double lines = (double)x->lines - uni > 0 ? (double)x->lines - uni : 0;
  const double extra = (double)x->regions > (double)x->requests
                           ? (double)x->regions - (double)x->requests
                           : 0;
  return lines * m->line_cycles + extra * m->region_cycles + uni * m->uniform_cycles;
}

/* ------------------------------------------------------------- prediction */

#define PROF_COST_MAX 1e300

/* x, never NaN or inf, at most 1e300, not negative */
static double prof_sat(double x) {
  if (x != x || x > PROF_COST_MAX) return PROF_COST_MAX;
  return x < 0 ? 0 : x;
}

/* The footprint, estimated per variable: its instructions are taken to
 * cover the same words (different variables different ones), so a
 * variable touches as many bytes as the one of its instructions that
 * touched most (the least of its unique bytes, its sectors' bytes and the
 * binding's size).
 * *all: what the variable touched by any instruction (for the L2's
 * capacity); *moved: what it read plus what it wrote (for DRAM: read once,
 * written back once). */
static double prof_cost_touched(const ls_prof_dispatch *d, const ls_prof_mem *y) {
  const double moved = y->space == LS_PROF_TEXTURE ? (double)y->tiles * d->memory.tile_bytes
                                                   : (double)y->sectors * d->memory.sector_bytes;
  double b = (double)y->unique_bytes < moved ? (double)y->unique_bytes : moved;
  /* no more than the binding holds, where the profiler saw its size */
  if (y->binding_bytes && b > (double)y->binding_bytes) b = (double)y->binding_bytes;
  return b;
}

static int prof_cost_same_var(const ls_prof_mem *a, const ls_prof_mem *b) {
  if (a == b) return 1;
  return a->space == b->space && a->variable && b->variable && strcmp(a->variable, b->variable) == 0;
}

static void prof_cost_footprint(const ls_prof_dispatch *d, double *all, double *moved) {
  *all = *moved = 0;
  for (size_t i = 0; i < d->nmem; i++) {
    const ls_prof_mem *x = &d->mem[i];
    if (x->space == LS_PROF_WORKGROUP) continue;
    int first = 1;
    for (size_t j = 0; j < i && first; j++) first = !prof_cost_same_var(&d->mem[j], x);
    if (!first) continue;
    double most = 0, rd = 0, wr = 0;
    for (size_t j = i; j < d->nmem; j++) {
      const ls_prof_mem *y = &d->mem[j];
      if (!prof_cost_same_var(y, x)) continue;
      const double b = prof_cost_touched(d, y);
      if (b > most) most = b;
      if (y->access != LS_PROF_STORE && b > rd) rd = b;
      if (y->access != LS_PROF_LOAD && b > wr) wr = b;
    }
    *all += most;
    *moved += rd + wr;
  }
}

/* Resident workgroups per SM and what limits them. */
static double prof_cost_resident(const ls_cost_model *m, const ls_prof_dispatch *d, double threads,
                                 const char **limiter) {
  double r = floor(m->max_groups);
  *limiter = "workgroups per SM";
  const double by_threads = floor(m->max_threads / threads);
  if (by_threads < r) {
    r = by_threads;
    *limiter = "threads per SM";
  }
  /* registers: the program's own, at least 16 and at most 255 a thread,
   * allocated in eights */
  double regs = d->registers < 16 ? 16 : d->registers > 255 ? 255 : d->registers;
  regs = ceil(regs / 8) * 8;
  const double by_regs = floor(m->registers / (regs * threads));
  if (by_regs < r) {
    r = by_regs;
    *limiter = "registers";
  }
  if (d->workgroup_bytes) {
    const double by_shared = floor(m->shared_bytes / d->workgroup_bytes);
    if (by_shared < r) {
      r = by_shared;
      *limiter = "workgroup memory";
    }
  }
  if (r < 1) {
    r = 1;
    *limiter = "does not fit one workgroup per SM (taken as 1)";
  }
  return r;
}

static const char *prof_cost_bound(ls_prof_prediction *o, double sm, double pipe_share,
                                   double latency_share, double launch_only) {
  static const char *const latency[] = {
      "latency (occupancy under 25%)", "latency (occupancy 25-50%)",
      "latency (occupancy 50-75%)", "latency (occupancy 75-100%)"};
  double best = o->launch_ns;
  /* the launch term is the launches and the last workgroup's path */
  const char *b = launch_only * 2 >= o->launch_ns
                      ? "launch overhead"
                      : latency[o->occupancy >= 1 ? 3 : (int)(o->occupancy * 4)];
  if (sm > best) {
    best = sm;
    b = latency_share > 0.5 ? latency[o->occupancy >= 1 ? 3 : (int)(o->occupancy * 4)]
        : pipe_share > 0.5  ? "memory pipeline (cache lines)"
                            : "issue";
  }
  if (o->l2_ns > best) {
    best = o->l2_ns;
    b = "L2 bandwidth";
  }
  if (o->dram_ns > best) {
    best = o->dram_ns;
    b = "DRAM bandwidth";
  }
  if (o->atomic_ns > best) {
    best = o->atomic_ns;
    b = "atomics";
  }
  if (best <= 0) b = "dispatch overhead";
  return b;
}

void ls_cost_predict(const ls_cost_model *m, const ls_prof_dispatch *d, ls_prof_prediction *o) {
  memset(o, 0, sizeof *o);
  if (!m || !d) return;
  o->calibrated = m->calibrated;
  const double G = (double)d->workgroups;
  if (G <= 0 || d->subgroups == 0) {
    o->ns = prof_sat(m->dispatch_ns);
    o->bound = "dispatch overhead";
    o->limiter = "none";
    return;
  }
  const double ghz = m->clock_mhz / 1000.0; /* cycles per ns */
  const double subs = (double)d->subgroups, S = subs / G;
  const double threads = S * d->width;
  const double R = prof_cost_resident(m, d, threads, &o->limiter);
  o->resident_groups = R > 4294967295.0 ? UINT32_MAX : (uint32_t)R;
  o->waves = prof_sat(G / (m->sms * R));

  /* SM cycles: issue per class, and the memory pipeline */
  double issue = 0, pipe = 0, loads = 0, uniform_loads = 0, l2 = 0;
  for (int c = 0; c < LS_PROF_OP_CLASSES; c++) issue += (double)d->class_issued[c] * m->cpi[c];
  for (size_t i = 0; i < d->nmem; i++) {
    const ls_prof_mem *x = &d->mem[i];
    pipe += prof_cost_mem_cycles(m, x);
    if (x->space == LS_PROF_BUFFER)
      l2 += ((double)x->sectors - (double)x->uniform_requests) * d->memory.sector_bytes;
    if (x->space == LS_PROF_TEXTURE) l2 += (double)x->tiles * d->memory.tile_bytes;
    if (x->access == LS_PROF_LOAD && x->space != LS_PROF_WORKGROUP) {
      uniform_loads += (double)x->uniform_requests;
      loads += (double)x->requests - (double)x->uniform_requests;
    }
  }
  double F, moved;
  prof_cost_footprint(d, &F, &moved);
  const double keep = m->l2_bytes * m->l2_resident;
  /* one subgroup's path through its workgroup, alone: each instruction
   * after the one before, each load a round trip */
  const double lat = (F <= keep ? m->l2_latency_ns : m->dram_latency_ns) * ghz;
  const double path = (double)d->issued / subs * m->dep_cycles + loads / subs * lat +
                      uniform_loads / subs * m->uniform_latency_ns * ghz;
  const double per_group = (issue > pipe ? issue : pipe) / G;
  const double nsm = ceil(G / m->sms); /* the busiest SM's workgroups */
  /* occupancy: the subgroups an SM holds at once, of its most */
  o->occupancy = prof_sat((nsm < R ? nsm : R) * threads / m->max_threads);
  if (o->occupancy > 1) o->occupancy = 1;
  const double full = floor(nsm / R), rem = nsm - full * R;
  const double busy = R * per_group > path ? R * per_group : path;
  const double tail = rem > 0 ? (rem * per_group > path ? rem * per_group : path) : 0;
  const double sm = prof_sat((full * busy + tail) / ghz);
  o->issue_ns = prof_sat(nsm * issue / G / ghz);
  o->memory_pipe_ns = prof_sat(nsm * pipe / G / ghz);
  o->latency_ns = prof_sat((full + (rem > 0)) * path / ghz);
  o->launch_ns = prof_sat(nsm * m->group_ns + path / ghz);

  /* L2 and DRAM: data that fits the part of the L2 a dispatch keeps stays
   * there between dispatches; beyond it every distinct byte is read from
   * DRAM once and written back once, and beyond the whole L2 reuse misses
   * in proportion */
  o->footprint_bytes = prof_sat(F);
  o->l2_bytes = prof_sat(l2);
  double dram = 0;
  if (F > keep) {
    dram = moved;
    if (F > m->l2_bytes && l2 > moved) dram += (l2 - moved) * (1 - m->l2_bytes / F);
  }
  o->dram_bytes = prof_sat(dram);
  o->l2_ns = prof_sat(l2 / m->l2_gbs);
  o->dram_ns = prof_sat(dram / m->dram_gbs);
  o->atomic_ns = prof_sat((double)d->hot_atomics * m->atomic_same_ns +
                          (double)d->atomic_ops / m->atomic_gops);
  const double pipe_share = pipe > issue ? 1 : 0;
  const double latency_share = path > R * per_group && path >= rem * per_group ? 1 : 0;
  o->bound = prof_cost_bound(o, sm, pipe_share, latency_share, prof_sat(nsm * m->group_ns));
  double worst = o->launch_ns;
  if (sm > worst) worst = sm;
  if (o->l2_ns > worst) worst = o->l2_ns;
  if (o->dram_ns > worst) worst = o->dram_ns;
  if (o->atomic_ns > worst) worst = o->atomic_ns;
  o->ns = prof_sat(m->dispatch_ns + worst);
}
