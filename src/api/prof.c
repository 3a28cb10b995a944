/*
 * prof.c (api) — the profiler's glue to a device, beside the sanitizer's
 * (check.c): ls_profiler_attach resolves the memory model from the
 * device's profile and the options, creates the profiler (src/prof/) and
 * puts its observer on the device's observer list (observe.c), so that it
 * sees every later dispatch whatever else watches; ls_profiler_destroy
 * takes it off again.
 */
#include <stdio.h>
#include <string.h>

#include "../prof/prof.h"
#include "api.h"

static const vm_observer *api_prof_before(void *user, const api_dispatch_ctx *x) {
  /* the bindings' sizes, for the cost model's footprint */
  uint64_t sizes[64];
  uint32_t n = x && x->prog && x->slots ? x->prog->nbindings : 0;
  if (n > 64) n = 64;
  for (uint32_t i = 0; i < n; i++) sizes[i] = x->slots[i].buffer ? x->slots[i].size : 0;
  prof_set_binding_sizes(user, sizes, n);
  return prof_observer(user);
}

ls_profiler *ls_profiler_attach(ls_device *dev, const ls_profiler_options *opts, char *err,
                                size_t errlen) {
  ls_profiler_options o;
  if (!API_DESC(o, opts)) {
    if (err && errlen) snprintf(err, errlen, "profiler options: %s", API_DESC_NEWER);
    return NULL;
  }
  if (!dev) {
    if (err && errlen) snprintf(err, errlen, "profiler: no device");
    return NULL;
  }
  const api_profile *pr = dev->profile;
  const ls_profile_desc pd = {
      .struct_size = sizeof pd,
      .name = pr ? pr->name : "default",
      .subgroup_size = dev->width,
      .sector_bytes = o.memory.sector_bytes ? o.memory.sector_bytes : pr ? pr->sector_bytes : 32,
      .line_bytes = o.memory.line_bytes ? o.memory.line_bytes : pr ? pr->line_bytes : 128,
      .banks = o.memory.banks ? o.memory.banks : pr ? pr->banks : 32,
      .bank_bytes = o.memory.bank_bytes ? o.memory.bank_bytes : pr ? pr->bank_bytes : 4,
      .tile_bytes = o.memory.tile_bytes ? o.memory.tile_bytes : pr ? pr->tile_bytes : 128,
  };
  if (ls_profile_check(&pd, err, errlen)) return NULL;
  const ls_memory_model model = {.sector_bytes = pd.sector_bytes,
                                 .line_bytes = pd.line_bytes,
                                 .banks = pd.banks,
                                 .bank_bytes = pd.bank_bytes,
                                 .tile_bytes = pd.tile_bytes};
  /* the cost model: the options' (checked), else the profile's */
  ls_cost_model cost;
  if (o.cost) {
    if (ls_cost_model_check(o.cost, err, errlen)) return NULL;
    cost = *o.cost;
  } else if (ls_cost_model_describe(pd.name, &cost) != LS_OK) {
    ls_cost_model_describe("default", &cost);
  }
  ls_profiler *p = prof_create(&o, &model, &cost, dev->threads ? dev->threads : 1);
  const api_observer ob = {.user = p, .before = api_prof_before};
  if (!p || !api_observer_add(dev, &ob)) {
    prof_destroy(p);
    if (err && errlen) snprintf(err, errlen, "profiler: out of memory");
    return NULL;
  }
  api_device_ref(dev);
  prof_set_host(p, dev);
  return p;
}

void ls_profiler_destroy(ls_profiler *p) {
  if (!p) return;
  ls_device *dev = prof_host(p);
  api_observer_remove(dev, p);
  api_device_unref(dev);
  prof_destroy(p);
}
