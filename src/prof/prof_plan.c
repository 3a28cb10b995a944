/*
 * prof_plan.c — lesson 000's dispatch patterns as a function: from an
 * element count, a workgroup size and the device limits to a dispatch size
 * and the WGSL that turns the built-in ids into the element index.
 *
 * Where it stands: beside the profiler (what to launch, then what it
 * cost); `lockstep plan` prints it and `lockstep tune` ranks the variants.
 *   1D           dispatchWorkgroups(ceil(n / size)); the guard stops the tail.
 *   2D           a fixed power-of-two width in X (shift, not multiply) and
 *                ceil(groups / width) rows: for n past 65535 x size.
 *   grid-stride  as many workgroups as the machine keeps resident; every
 *                invocation steps by the total invocation count, so
 *                neighbouring lanes stay on neighbouring elements.
 */
#include <stdio.h>
#include <string.h>

#include "prof.h"

static void prof_plan_err(char *err, size_t errlen, const char *msg) {
  if (err && errlen) snprintf(err, errlen, "%s", msg);
}

ls_status ls_plan_dispatch(const ls_plan_options *opts, ls_dispatch_plan *out, char *err,
                           size_t errlen) {
  ls_plan_options o;
  memset(&o, 0, sizeof o);
  if (opts && opts->struct_size > sizeof o) { /* lockstep.h "Descriptors": refused */
    prof_plan_err(err, errlen, "plan options: the struct_size is larger than this library knows "
                               "(built against a newer lockstep.h?)");
    return LS_OPERATION;
  }
  if (opts) memcpy(&o, opts, opts->struct_size ? opts->struct_size : sizeof o);
  if (!out) return LS_TYPE;
  memset(out, 0, sizeof *out);
  ls_limits lim;
  if (o.limits)
    lim = *o.limits;
  else
    ls_limits_default(&lim);
  char msg[256];
  if (o.elements == 0) {
    prof_plan_err(err, errlen, "plan: the element count must be at least 1");
    return LS_OPERATION;
  }
  if (o.workgroup_size == 0 || o.workgroup_size > lim.max_compute_invocations_per_workgroup ||
      o.workgroup_size > lim.max_compute_workgroup_size_x) {
    snprintf(msg, sizeof msg,
             "plan: workgroup size %u is not from 1 to maxComputeInvocationsPerWorkgroup (%llu) "
             "and maxComputeWorkgroupSizeX (%llu)",
             o.workgroup_size, (unsigned long long)lim.max_compute_invocations_per_workgroup,
             (unsigned long long)lim.max_compute_workgroup_size_x);
    prof_plan_err(err, errlen, msg);
    return LS_OPERATION;
  }
  uint64_t maxdim = lim.max_compute_workgroups_per_dimension;
  uint64_t size = o.workgroup_size;
  uint64_t groups = (o.elements + size - 1) / size;
  ls_plan_pattern pat = o.pattern;
  if (pat == LS_PLAN_AUTO) pat = groups <= maxdim ? LS_PLAN_1D : LS_PLAN_2D;
  out->pattern = pat;
  out->per_invocation = 1;
  if (pat == LS_PLAN_1D) {
    if (groups > maxdim) {
      snprintf(msg, sizeof msg,
               "plan: %llu elements need %llu workgroups of %llu, over "
               "maxComputeWorkgroupsPerDimension (%llu): use the 2D or grid-stride pattern",
               (unsigned long long)o.elements, (unsigned long long)groups,
               (unsigned long long)size, (unsigned long long)maxdim);
      prof_plan_err(err, errlen, msg);
      return LS_OPERATION;
    }
    out->workgroups[0] = (uint32_t)groups;
    out->workgroups[1] = out->workgroups[2] = 1;
    snprintf(out->builtins, sizeof out->builtins,
             "@builtin(global_invocation_id) gid: vec3u");
    snprintf(out->index, sizeof out->index,
             "let i = gid.x;\nif (i >= n) { return; }  // n = %llu, the logical count",
             (unsigned long long)o.elements);
  } else if (pat == LS_PLAN_2D) {
    uint64_t width = o.width_2d ? o.width_2d : 4096;
    if (width & (width - 1)) {
      snprintf(msg, sizeof msg, "plan: the 2D width %llu is not a power of two",
               (unsigned long long)width);
      prof_plan_err(err, errlen, msg);
      return LS_OPERATION;
    }
    while (width > maxdim) width /= 2;
    if (groups < width) width = groups <= 1 ? 1 : width;
    uint64_t rows = (groups + width - 1) / width;
    if (rows > maxdim) {
      snprintf(msg, sizeof msg,
               "plan: %llu elements need %llu rows of %llu workgroups, over "
               "maxComputeWorkgroupsPerDimension (%llu)",
               (unsigned long long)o.elements, (unsigned long long)rows,
               (unsigned long long)width, (unsigned long long)maxdim);
      prof_plan_err(err, errlen, msg);
      return LS_OPERATION;
    }
    out->workgroups[0] = (uint32_t)width;
    out->workgroups[1] = (uint32_t)rows;
    out->workgroups[2] = 1;
    snprintf(out->builtins, sizeof out->builtins,
             "@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) li: u32");
    snprintf(out->index, sizeof out->index,
             "const WIDTH: u32 = %lluu;  // workgroups in X, as dispatched\n"
             "let i = (wid.y * WIDTH + wid.x) * %lluu + li;\n"
             "if (i >= n) { return; }  // n = %llu",
             (unsigned long long)width, (unsigned long long)size, (unsigned long long)o.elements);
  } else if (pat == LS_PLAN_GRID_STRIDE) {
    uint64_t units = o.compute_units ? o.compute_units : 1;
    uint64_t per = o.groups_per_unit ? o.groups_per_unit : 4;
    uint64_t g = units * per;
    if (g > groups) g = groups;
    if (g > maxdim) g = maxdim;
    out->workgroups[0] = (uint32_t)g;
    out->workgroups[1] = out->workgroups[2] = 1;
    uint64_t stride = g * size;
    out->per_invocation = (o.elements + stride - 1) / stride;
    snprintf(out->builtins, sizeof out->builtins,
             "@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u");
    snprintf(out->index, sizeof out->index,
             "let stride = nwg.x * %lluu;  // every invocation launched\n"
             "for (var i = gid.x; i < n; i += stride) {  // n = %llu\n"
             "  // element i\n}",
             (unsigned long long)size, (unsigned long long)o.elements);
  } else {
    prof_plan_err(err, errlen, "plan: unknown pattern");
    return LS_TYPE;
  }
  out->invocations = (uint64_t)out->workgroups[0] * out->workgroups[1] * out->workgroups[2] * size;
  out->excess = out->invocations > o.elements ? out->invocations - o.elements : 0;
  if (pat == LS_PLAN_GRID_STRIDE) out->excess = 0;
  return LS_OK;
}
