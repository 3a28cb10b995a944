/*
 * device.c — GPUAdapter.requestDevice and GPUDevice: creation with required
 * limits and features, destroy(), error scopes, the error, log and loss
 * callbacks turned into events, and lockstep's own insight: the sanitizer's
 * findings (printed to stderr as the CLI prints them, and handed to the
 * program) and the profiler's reports, written at destroy() or exit.
 */
#include "addon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static nd_device *g_devices; /* live devices (main thread only) */

nd_device *nd_device_of(napi_env env, napi_value js) {
  nd_obj *o = nd_unwrap(env, js, ND_DEVICE);
  nd_device *d = o ? o->h : NULL;
  return d && !d->released ? d : NULL;
}

/* ------------------------------------------------------------ callbacks */

static void on_error(void *user, ls_error_type type, const char *message) {
  nd_device *d = user;
  nd_post(ND_EV_ERROR, d->id, (int32_t)type, message);
}

/* lockstep's own warnings never become WebGPU errors (a conforming program
 * would fail on them): stderr, and the lockstep channel. */
static void on_log(void *user, ls_log_level level, const char *message) {
  nd_device *d = user;
  fprintf(stderr, "lockstep: %s: %s\n", level == LS_LOG_WARNING ? "warning" : "info", message);
  nd_post(ND_EV_LOG, d->id, (int32_t)level, message);
}

static void on_lost(void *user, ls_lost_reason reason, const char *message) {
  nd_device *d = user;
  nd_post(ND_EV_LOST, d->id, (int32_t)reason, message);
}

void nd_device_drain_findings(nd_device *d) {
  if (!d->checks) return;
  pthread_mutex_lock(&d->lock);
  size_t n = ls_device_check_finding_count(d->h);
  for (; d->findings_seen < n; d->findings_seen++) {
    const ls_check_finding *f = ls_device_check_finding(d->h, d->findings_seen);
    if (!f) continue;
    fputs(f->text, stderr);
    size_t len = strlen(f->text);
    if (len == 0 || f->text[len - 1] != '\n') fputc('\n', stderr);
    nd_post(ND_EV_FINDING, d->id, (int32_t)d->findings_seen, NULL);
  }
  pthread_mutex_unlock(&d->lock);
}

static void write_file(const char *path, const char *text, const char *what) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "lockstep: cannot write the %s to %s\n", what, path);
    return;
  }
  fprintf(stderr, "lockstep: %s written to %s\n", what, path);
}

void nd_device_finish(nd_device *d) {
  if (d->released) return;
  if (!ls_device_is_lost(d->h)) ls_queue_wait_idle(d->h);
  nd_device_drain_findings(d);
  pthread_mutex_lock(&d->lock);
  int write = d->prof && !d->reports_written;
  d->reports_written = 1;
  pthread_mutex_unlock(&d->lock);
  if (!write) return;
  if (d->prof_html) {
    char *html = ls_profiler_report_html(d->prof, d->profile, "lockstep profile (Node.js)");
    if (html) write_file(d->prof_html, html, "profile report");
    ls_free(html);
  }
  if (d->prof_json) {
    char *json = ls_profiler_report_json(d->prof, d->profile);
    if (json) write_file(d->prof_json, json, "profile JSON");
    ls_free(json);
  }
}

nd_device *nd_device_by_id(uint32_t id) {
  for (nd_device *d = g_devices; d; d = d->next) {
    if (d->id == id) return d;
  }
  return NULL;
}

void nd_devices_finish_all(void) {
  for (nd_device *d = g_devices; d; d = d->next) nd_device_finish(d);
}

void nd_device_set_label(nd_device *d, const char *label) {
  if (d && !d->released) ls_device_set_label(d->h, label);
}

void nd_device_release_handle(nd_device *d) {
  if (!d || d->released) return;
  nd_device_finish(d);
  for (nd_device **p = &g_devices; *p; p = &(*p)->next) {
    if (*p == d) {
      *p = d->next;
      break;
    }
  }
  ls_device_set_error_callback(d->h, NULL, NULL);
  ls_device_set_log_callback(d->h, NULL, NULL);
  ls_device_set_lost_callback(d->h, NULL, NULL);
  if (d->prof) ls_profiler_destroy(d->prof);
  d->prof = NULL;
  d->released = 1;
  ls_device_release(d->h);
}

/* ------------------------------------------------------------- creation */

/* deviceCreate(js, adapter, limits, features, label, id, options): limits
 * [[name, value], ...] (lockstep's limits only), features [name, ...],
 * options {check, prof, profJson}. Returns undefined on success, else
 * {status: "OPERATION" | "TYPE" | ..., message}. */
ND_FN(device_create) {
  napi_value argv[7];
  if (!nd_args(env, info, 7, argv)) return NULL;
  ls_adapter *a = nd_handle(env, argv[1], ND_ADAPTER);
  if (!a) return nd_throw(env, "ERR_LOCKSTEP_HANDLE", "not a GPUAdapter");
  uint32_t nl = 0, nf = 0;
  napi_get_array_length(env, argv[2], &nl);
  napi_get_array_length(env, argv[3], &nf);
  ls_required_limit *limits = calloc(nl + 1, sizeof *limits);
  char **names = calloc(nl + 1, sizeof *names);
  char **features = calloc(nf + 1, sizeof *features);
  char *label = nd_get_str(env, argv[4]);
  napi_value result = nd_undefined(env);
  if (!limits || !names || !features) {
    result = nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
    goto done;
  }
  for (uint32_t i = 0; i < nl; i++) {
    napi_value pair, k, v;
    napi_get_element(env, argv[2], i, &pair);
    napi_get_element(env, pair, 0, &k);
    napi_get_element(env, pair, 1, &v);
    names[i] = nd_get_str(env, k);
    limits[i] = (ls_required_limit){.name = names[i], .value = nd_get_u64(env, v)};
  }
  for (uint32_t i = 0; i < nf; i++) {
    napi_value f;
    napi_get_element(env, argv[3], i, &f);
    features[i] = nd_get_str(env, f);
  }
  ls_device_desc desc = {
    .struct_size = LS_STRUCT_SIZE(ls_device_desc),
    .required_limits = limits,
    .required_limit_count = nl,
    .required_features = (const char *const *)features,
    .required_feature_count = nf,
    .label = label,
  };
  ls_status st = LS_OK;
  char err[512] = "";
  ls_device *h = ls_adapter_create_device(a, &desc, &st, err, sizeof err);
  if (!h) {
    napi_create_object(env, &result);
    nd_set(env, result, "status", nd_str(env, ls_status_name(st)));
    nd_set(env, result, "message", nd_str(env, err[0] ? err : ls_status_describe(st)));
    goto done;
  }
  nd_device *d = calloc(1, sizeof *d);
  if (!d) {
    ls_device_release(h);
    result = nd_throw(env, "ERR_LOCKSTEP_MEMORY", "out of memory");
    goto done;
  }
  d->h = h;
  d->id = nd_get_u32(env, argv[5]);
  pthread_mutex_init(&d->lock, NULL);
  ls_adapter_info ai = {0};
  ls_adapter_get_info(a, &ai);
  d->profile = ai.profile ? strdup(ai.profile) : NULL;
  ls_device_set_error_callback(h, on_error, d);
  ls_device_set_log_callback(h, on_log, d);
  ls_device_set_lost_callback(h, on_lost, d);
  napi_value opts = argv[6];
  if (nd_get_bool(env, nd_prop(env, opts, "check"))) {
    if (ls_device_enable_checks(h, 1, NULL) == LS_OK) d->checks = 1;
    else fprintf(stderr, "lockstep: the sanitizer could not be enabled on this device\n");
  }
  d->prof_html = nd_get_str(env, nd_prop(env, opts, "prof"));
  d->prof_json = nd_get_str(env, nd_prop(env, opts, "profJson"));
  if (d->prof_html || d->prof_json) {
    ls_profiler_options po = {.struct_size = LS_STRUCT_SIZE(ls_profiler_options)};
    char perr[256] = "";
    d->prof = ls_profiler_attach(h, &po, perr, sizeof perr);
    if (!d->prof)
      fprintf(stderr, "lockstep: the profiler could not be attached: %s\n",
              perr[0] ? perr : "unknown reason");
  }
  d->next = g_devices;
  g_devices = d;
  nd_wrap(env, argv[0], ND_DEVICE, d, d);
done:
  for (uint32_t i = 0; names && i < nl; i++) free(names[i]);
  for (uint32_t i = 0; features && i < nf; i++) free(features[i]);
  free(limits);
  free(names);
  free(features);
  free(label);
  return result;
}

/* ------------------------------------------------------------- members */

#define DEVICE_ARG(n)                                                          \
  napi_value argv[n];                                                          \
  if (!nd_args(env, info, n, argv)) return NULL;                               \
  nd_device *d = nd_device_of(env, argv[0]);                                   \
  if (!d) return nd_undefined(env)

ND_FN(device_destroy) {
  DEVICE_ARG(1);
  ls_device_destroy(d->h);
  nd_device_finish(d);
  return nd_undefined(env);
}

ND_FN(device_limits) {
  DEVICE_ARG(1);
  ls_limits l;
  ls_device_get_limits(d->h, &l);
  return nd_limits_array(env, &l);
}

ND_FN(device_has_feature) {
  DEVICE_ARG(2);
  char *name = nd_get_str(env, argv[1]);
  int has = name && ls_device_has_feature(d->h, name);
  free(name);
  return nd_bool(env, has);
}

/* pushErrorScope(device, filter): filter 1..3 as ls_error_filter. */
ND_FN(push_error_scope) {
  DEVICE_ARG(2);
  ls_device_push_error_scope(d->h, (ls_error_filter)nd_get_u32(env, argv[1]));
  return nd_undefined(env);
}

/* popErrorScope(device, request): the answer comes as an ND_EV_POP event:
 * status LS_ERROR_*, or -1 when the stack was empty (OperationError). */
ND_FN(pop_error_scope) {
  napi_value argv[2];
  if (!nd_args(env, info, 2, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[0]);
  uint32_t req = nd_get_u32(env, argv[1]);
  nd_pending_begin(env);
  if (!d || ls_device_is_lost(d->h)) {
    nd_post(ND_EV_POP, req, -2, NULL); /* lost: resolves with null */
    return nd_undefined(env);
  }
  char *msg = NULL;
  ls_error_type t = ls_device_pop_error_scope(d->h, &msg);
  /* lockstep reports an empty stack as a validation "error" that was not
   * raised; tell it apart by the stack depth JavaScript keeps (lib/). */
  nd_post(ND_EV_POP, req, (int32_t)t, msg);
  ls_free(msg);
  return nd_undefined(env);
}

/* raiseError(device, type, message): a rule the JavaScript layer checked
 * (use of an invalid object, a finished encoder). */
ND_FN(raise_error) {
  DEVICE_ARG(3);
  char *msg = nd_get_str(env, argv[2]);
  ls_device_raise_error(d->h, (ls_error_type)nd_get_u32(env, argv[1]), msg ? msg : "");
  free(msg);
  return nd_undefined(env);
}

ND_FN(device_is_lost) {
  napi_value argv[1];
  if (!nd_args(env, info, 1, argv)) return NULL;
  nd_device *d = nd_device_of(env, argv[0]);
  return nd_bool(env, !d || ls_device_is_lost(d->h));
}

/* deviceFinding(device, index): one sanitizer finding as an object. */
static napi_value invocation_object(napi_env env, const ls_check_invocation *inv) {
  napi_value o, g, l, w;
  napi_create_object(env, &o);
  napi_create_array_with_length(env, 3, &g);
  napi_create_array_with_length(env, 3, &l);
  napi_create_array_with_length(env, 3, &w);
  for (uint32_t i = 0; i < 3; i++) {
    napi_set_element(env, g, i, nd_u32(env, inv->global_id[i]));
    napi_set_element(env, l, i, nd_u32(env, inv->local_id[i]));
    napi_set_element(env, w, i, nd_u32(env, inv->workgroup_id[i]));
  }
  nd_set(env, o, "globalId", g);
  nd_set(env, o, "localId", l);
  nd_set(env, o, "workgroupId", w);
  nd_set(env, o, "localIndex", nd_u32(env, inv->local_index));
  return o;
}

static const char *const severity_names[] = {"error", "warning", "note"};

ND_FN(device_finding) {
  DEVICE_ARG(2);
  const ls_check_finding *f = ls_device_check_finding(d->h, nd_get_u32(env, argv[1]));
  if (!f) return nd_undefined(env);
  napi_value o, invs;
  napi_create_object(env, &o);
  nd_set(env, o, "id", nd_str(env, f->id));
  nd_set(env, o, "severity", nd_str(env, severity_names[f->severity % 3]));
  nd_set(env, o, "message", nd_str(env, f->message));
  nd_set(env, o, "text", nd_str(env, f->text));
  nd_set(env, o, "file", nd_str(env, f->file));
  nd_set(env, o, "entryPoint", nd_str(env, f->entry_point));
  nd_set(env, o, "dispatch", nd_u32(env, f->dispatch));
  nd_set(env, o, "variable", f->variable ? nd_str(env, f->variable) : nd_undefined(env));
  nd_set(env, o, "line", nd_u32(env, f->first.line));
  nd_set(env, o, "column", nd_u32(env, f->first.column));
  nd_set(env, o, "count", nd_f64(env, (double)f->count));
  napi_create_array_with_length(env, f->ninvocations, &invs);
  for (uint32_t i = 0; i < f->ninvocations && i < LS_CHECK_MAX_INVOCATIONS; i++)
    napi_set_element(env, invs, i, invocation_object(env, &f->invocations[i]));
  nd_set(env, o, "invocations", invs);
  return o;
}

/* deviceFindingsJSON(device): every finding as lockstep's JSON. */
ND_FN(device_findings_json) {
  DEVICE_ARG(1);
  char *json = ls_device_check_findings_json(d->h);
  napi_value v = nd_str(env, json ? json : "{\"findings\":[],\"dropped\":0}");
  ls_free(json);
  return v;
}

/* deviceProfile(device, "json" | "html" | "text"): the profiler's report
 * so far, or undefined when no profiler is attached. */
ND_FN(device_profile) {
  DEVICE_ARG(2);
  if (!d->prof) return nd_undefined(env);
  ls_queue_wait_idle(d->h);
  char *kind = nd_get_str(env, argv[1]);
  char *text = NULL;
  if (kind && !strcmp(kind, "html"))
    text = ls_profiler_report_html(d->prof, d->profile, "lockstep profile (Node.js)");
  else if (kind && !strcmp(kind, "text"))
    text = ls_profiler_report_text(d->prof, d->profile);
  else
    text = ls_profiler_report_json(d->prof, d->profile);
  free(kind);
  napi_value v = nd_str(env, text);
  ls_free(text);
  return v;
}

const nd_export nd_exports_device[] = {
  {"deviceCreate", device_create},
  {"deviceDestroy", device_destroy},
  {"deviceLimits", device_limits},
  {"deviceHasFeature", device_has_feature},
  {"pushErrorScope", push_error_scope},
  {"popErrorScope", pop_error_scope},
  {"raiseError", raise_error},
  {"deviceIsLost", device_is_lost},
  {"deviceFinding", device_finding},
  {"deviceFindingsJSON", device_findings_json},
  {"deviceProfile", device_profile},
  {NULL, NULL},
};
