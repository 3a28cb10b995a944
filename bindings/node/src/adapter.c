/*
 * adapter.c — GPUAdapter: the emulated adapter with its profile, subgroup
 * width, worker threads and instruction budget (create(flags)), and what it
 * offers: limits, features and info. requestDevice is in device.c.
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

/* A budget argument: undefined or 0 = the default, negative = no limit. */
static uint64_t budget_arg(napi_env env, napi_value v) {
  double b = nd_is_nullish(env, v) ? 0 : nd_get_f64(env, v);
  return b < 0 ? UINT64_MAX : (uint64_t)b;
}

/* adapterCreate(js, profile, subgroupSize, threads, budget, dispatchBudget,
 * timeLimitMs): wraps a new adapter into js; throws with lockstep's message
 * on a bad option. Budgets and the time limit: 0 = the default; negative =
 * no limit. */
ND_FN(adapter_create) {
  napi_value argv[7];
  if (!nd_args(env, info, 7, argv)) return NULL;
  char *profile = nd_get_str(env, argv[1]);
  double ms = nd_is_nullish(env, argv[6]) ? 0 : nd_get_f64(env, argv[6]);
  ls_adapter_options opts = {
    .struct_size = LS_STRUCT_SIZE(ls_adapter_options),
    .profile = profile,
    .subgroup_size = nd_is_nullish(env, argv[2]) ? 0 : nd_get_u32(env, argv[2]),
    .threads = nd_is_nullish(env, argv[3]) ? 0 : nd_get_u32(env, argv[3]),
    .instruction_budget = budget_arg(env, argv[4]),
    .dispatch_instruction_budget = budget_arg(env, argv[5]),
    .time_limit_ms = ms < 0 ? UINT32_MAX : (uint32_t)ms,
  };
  char err[512] = "";
  ls_adapter *a = ls_adapter_create(&opts, err, sizeof err);
  free(profile);
  if (!a) return nd_throw(env, "ERR_LOCKSTEP_ADAPTER", "%s", err[0] ? err : "cannot create the adapter");
  nd_wrap(env, argv[0], ND_ADAPTER, a, NULL);
  return nd_undefined(env);
}

/* The limits' values as an array in LS_LIMITS_LIST's order, the order of
 * limitNames() (shared with device.c). An array of numbers costs V8 one
 * allocation; an object of 25 named properties cost a map transition each. */
napi_value nd_limits_array(napi_env env, const ls_limits *l) {
  const uint64_t values[] = {
#define ND_X_(field, name, def, cls) l->field,
      LS_LIMITS_LIST(ND_X_)
#undef ND_X_
  };
  const size_t n = sizeof values / sizeof *values;
  napi_value a;
  napi_create_array_with_length(env, n, &a);
  for (size_t i = 0; i < n; i++) napi_set_element(env, a, (uint32_t)i, nd_f64(env, (double)values[i]));
  return a;
}

/* limitNames(): the WebGPU names of the limits lockstep holds. */
ND_FN(limit_names) {
  (void)info;
  static const char *const names[] = {
#define ND_X_(field, name, def, cls) name,
      LS_LIMITS_LIST(ND_X_)
#undef ND_X_
  };
  napi_value a;
  napi_create_array_with_length(env, sizeof names / sizeof *names, &a);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) napi_set_element(env, a, (uint32_t)i, nd_str(env, names[i]));
  return a;
}

ND_FN(adapter_limits) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  ls_adapter *a = nd_handle(env, argv[0], ND_ADAPTER);
  if (!a) return nd_throw(env, "ERR_LOCKSTEP_HANDLE", "not a GPUAdapter");
  ls_limits l;
  ls_adapter_get_limits(a, &l);
  return nd_limits_array(env, &l);
}

/* adapterInfo(adapter): GPUAdapterInfo's members plus lockstep's profile,
 * subgroup width, thread count and the interpreter's instruction set. */
ND_FN(adapter_info) {
  napi_value argv[1], o;
  if (!nd_args(env, info, 1, argv)) return NULL;
  ls_adapter *a = nd_handle(env, argv[0], ND_ADAPTER);
  if (!a) return nd_throw(env, "ERR_LOCKSTEP_HANDLE", "not a GPUAdapter");
  ls_adapter_info ai = {0};
  ls_adapter_get_info(a, &ai);
  napi_create_object(env, &o);
  nd_set(env, o, "vendor", nd_str(env, ai.vendor ? ai.vendor : ""));
  nd_set(env, o, "architecture", nd_str(env, ai.architecture ? ai.architecture : ""));
  nd_set(env, o, "device", nd_str(env, ai.device ? ai.device : ""));
  nd_set(env, o, "description", nd_str(env, ai.description ? ai.description : ""));
  nd_set(env, o, "profile", nd_str(env, ai.profile ? ai.profile : ""));
  nd_set(env, o, "subgroupMinSize", nd_u32(env, ai.subgroup_min_size));
  nd_set(env, o, "subgroupMaxSize", nd_u32(env, ai.subgroup_max_size));
  nd_set(env, o, "subgroupSize", nd_u32(env, ai.subgroup_size));
  nd_set(env, o, "threads", nd_u32(env, ai.threads));
  nd_set(env, o, "isa", nd_str(env, ls_isa()));
  return o;
}

/* adapterHasFeature(adapter, name) */
ND_FN(adapter_has_feature) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  ls_adapter *a = nd_handle(env, argv[0], ND_ADAPTER);
  char *name = nd_get_str(env, argv[1]);
  int has = a && name && ls_adapter_has_feature(a, name);
  free(name);
  return nd_bool(env, has);
}

/* limitUpTo(adapter, name, wanted): min(wanted, offered) — lesson 001's
 * Math.min(quiero, puedo) as the C API offers it; undefined for an unknown
 * name. */
ND_FN(adapter_limit_up_to) {
  napi_value argv[3];
  if (!nd_args(env, info, 3, argv)) return NULL;
  ls_adapter *a = nd_handle(env, argv[0], ND_ADAPTER);
  char *name = nd_get_str(env, argv[1]);
  uint64_t out = 0;
  int ok = a && name && ls_adapter_limit_up_to(a, name, nd_get_u64(env, argv[2]), &out);
  free(name);
  return ok ? nd_f64(env, (double)out) : nd_undefined(env);
}

const nd_export nd_exports_adapter[] = {
  {"adapterCreate", adapter_create},
  {"limitNames", limit_names},
  {"adapterLimits", adapter_limits},
  {"adapterInfo", adapter_info},
  {"adapterHasFeature", adapter_has_feature},
  {"adapterLimitUpTo", adapter_limit_up_to},
  {NULL, NULL},
};
