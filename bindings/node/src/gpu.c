/*
 * gpu.c — GPU (navigator.gpu): what the binding reports before an adapter
 * exists: lockstep's version, its vendor profiles (for create(flags)'s
 * profile=NAME and the register entry's LOCKSTEP_PROFILE) and the WGSL
 * language features it runs.
 */
#include "addon.h"

/* version(): "MAJOR.MINOR.PATCH" of the linked library. */
ND_FN(version) { return nd_str(env, ls_version()); }

/* profiles(): the names of the built-in vendor profiles. */
ND_FN(profiles) {
  napi_value arr;
  napi_create_array(env, &arr);
  const char *const *names = ls_profile_names();
  for (uint32_t i = 0; names && names[i]; i++) napi_set_element(env, arr, i, nd_str(env, names[i]));
  return arr;
}

/* wgslLanguageFeatures(): the WGSL language features lockstep runs. */
ND_FN(wgsl_language_features) {
  napi_value arr;
  napi_create_array(env, &arr);
  const char *const *names = ls_wgsl_language_features();
  for (uint32_t i = 0; names[i]; i++) napi_set_element(env, arr, i, nd_str(env, names[i]));
  return arr;
}

const nd_export nd_exports_gpu[] = {
  {"version", version},
  {"profiles", profiles},
  {"wgslLanguageFeatures", wgsl_language_features},
  {NULL, NULL},
};
