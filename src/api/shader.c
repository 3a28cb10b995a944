/*
 * shader.c — createShaderModule: runs the WGSL front end (wgsl/) on the
 * source and turns its diagnostics into GPUCompilationMessages and a
 * compiler-style text. The resolved module is what pipeline creation
 * (pipeline.c) lowers; pipelines keep a reference on it because their
 * programs point into its source text. Lowering writes into the module
 * (its syntax tree's scratch slots, its arena), so pipelines of one module
 * are lowered one at a time (lower_mu).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

void api_shader_module_ref(ls_shader_module *m) {
  if (m) API_REF(m);
}

void api_shader_module_unref(ls_shader_module *m) {
  if (!m || !API_UNREF_LAST(m)) return;
  ls_device *d = m->device;
  pthread_mutex_destroy(&m->lower_mu);
  wgsl_module_free(m->module);
  free(m->messages);
  free(m->formatted);
  free(m->label);
  API_FREE_HANDLE(m);
  api_device_unref(d);
}

static ls_message_type api_message_type(diag_severity s) {
  return s == DIAG_ERROR ? LS_MESSAGE_ERROR
         : s == DIAG_WARNING ? LS_MESSAGE_WARNING
                             : LS_MESSAGE_INFO;
}

ls_shader_module *ls_device_create_shader_module(ls_device *device,
                                                 const ls_shader_module_desc *user_desc) {
  if (api_device_dead(device)) return NULL;
  ls_shader_module_desc dd;
  if (user_desc && !API_DESC(dd, user_desc)) {
    api_validation(device, "createShaderModule: %s", API_DESC_NEWER);
    return NULL;
  }
  const ls_shader_module_desc *desc = user_desc ? &dd : NULL;
  if (!desc || !desc->code) {
    api_validation(device, "createShaderModule: no WGSL source");
    return NULL;
  }
  const char *file = api_label(desc->label, "shader.wgsl");
  ls_shader_module *m = calloc(1, sizeof *m);
  if (m && pthread_mutex_init(&m->lower_mu, NULL) != 0) {
    free(m);
    m = NULL;
  }
  if (!m) goto oom;
  m->device = device;
  api_device_ref(device);
  m->refs = 1;
  if (desc->label && !api_label_init(&m->label, desc->label)) goto oom_free;
  m->module = wgsl_module_compile(desc->code, desc->code_size ? desc->code_size : strlen(desc->code), file);
  if (!m->module) goto oom_free;
  /* An enable extension needs its feature on the device (WebGPU's rule for
   * createShaderModule): an error at the directive, the module invalid.
   * subgroup_size_control needs both features (it enables subgroups). */
  if (!(device->features & API_FEATURE_SHADER_F16))
    wgsl_module_require_feature(m->module, "f16", "shader-f16");
  /* features lockstep does not offer (WebGPU's clip-distances,
   * dual-source-blending, primitive-index): their extensions are never
   * enabled, though the front end validates their rules */
  wgsl_module_refuse_extension(m->module, "clip_distances", "clip-distances");
  wgsl_module_refuse_extension(m->module, "dual_source_blending", "dual-source-blending");
  wgsl_module_refuse_extension(m->module, "primitive_index", "primitive-index");
  if (!(device->features & API_FEATURE_SUBGROUPS)) {
    wgsl_module_require_feature(m->module, "subgroups", "subgroups");
    wgsl_module_require_feature(m->module, "subgroup_size_control", "subgroups");
  } else if (!(device->features & API_FEATURE_SUBGROUP_SIZE_CONTROL))
    wgsl_module_require_feature(m->module, "subgroup_size_control", "subgroup-size-control");

  size_t srclen = 0;
  const char *src = wgsl_module_source(m->module, &srclen);
  const diag_list *dl = wgsl_module_diags(m->module);
  if (dl && dl->count) {
    m->messages = calloc(dl->count, sizeof *m->messages);
    if (!m->messages) goto oom_free;
    for (size_t i = 0; i < dl->count; i++) {
      const diag *g = &dl->items[i];
      ls_compilation_message *cm = &m->messages[i];
      cm->type = api_message_type(g->severity);
      cm->message = g->message ? g->message : "";
      diag_line_col(src, srclen, g->span.start, &cm->line, &cm->column);
      cm->offset = g->span.start;
      cm->length = g->span.end > g->span.start ? g->span.end - g->span.start : 0;
    }
    m->nmessages = dl->count;
    m->formatted = diag_format(dl, src, srclen, wgsl_module_filename(m->module));
    if (!m->formatted) goto oom_free;
  } else {
    m->formatted = api_strdup("");
    if (!m->formatted) goto oom_free;
  }
  m->valid = wgsl_module_ok(m->module);
  if (!m->valid)
    api_validation(device, "createShaderModule '%s': the WGSL has errors:\n%s", file,
                   m->formatted);
  return m;

oom_free:
  api_shader_module_unref(m);
oom:
  api_error(device, LS_ERROR_OUT_OF_MEMORY, "createShaderModule '%s': out of memory", file);
  return NULL;
}

void ls_shader_module_release(ls_shader_module *module) { api_shader_module_unref(module); }

/* The module's file name in diagnostics was fixed when it compiled; the
 * label names the object in API messages. */
void ls_shader_module_set_label(ls_shader_module *module, const char *label) {
  if (module) api_set_label(module->device, &module->label, label);
}

int ls_shader_module_is_valid(const ls_shader_module *module) { return module && module->valid; }

size_t ls_shader_module_message_count(const ls_shader_module *module) {
  return module ? module->nmessages : 0;
}

const ls_compilation_message *ls_shader_module_message(const ls_shader_module *module,
                                                       size_t index) {
  if (!module || index >= module->nmessages) return NULL;
  return &module->messages[index];
}

const char *ls_shader_module_format_messages(const ls_shader_module *module) {
  return module && module->formatted ? module->formatted : "";
}
