/*
 * introspect.c — the experimental corner at the end of lockstep.h: calls
 * for tools (the `lockstep` command, tests, bindings) that look behind
 * what WebGPU keeps opaque. Each is a thin window on state another file of
 * src/api/ keeps: the dispatch callback the queue calls (queue.c), the
 * first error of a pass's encoder (encoder.c), a pipeline's bytecode
 * (ir/). The lint's entry point lives with the sanitizer (check.c).
 */
#include "api.h"

void ls_device_set_dispatch_callback(ls_device *device, ls_dispatch_callback fn, void *user) {
  if (!device) return;
  API_LOCK(device);
  device->dispatch_hook = fn;
  device->dispatch_user = user;
  API_UNLOCK(device);
}

const char *ls_compute_pass_get_error(const ls_compute_pass *pass) {
  return api_compute_pass_error(pass);
}

char *ls_compute_pipeline_disassemble(const ls_compute_pipeline *pipeline) {
  const ir_program *p = api_compute_pipeline_program(pipeline);
  return p ? ir_disassemble(p) : NULL;
}
