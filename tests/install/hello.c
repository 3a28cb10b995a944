/* hello.c — the smallest whole use of lockstep from C, as the README shows
 * it: an adapter and a device, a WGSL kernel that squares each invocation's
 * index, one dispatch of 4 workgroups of 64, and the read-back, checked.
 * tests/install/run.sh builds it against an installed lockstep (pkg-config
 * and find_package) and runs it; the README shows this file from the
 * includes on, and the test checks that the two are the same. */
#include <lockstep.h>
#include <stdio.h>

static const char *square_wgsl =
    "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) id: vec3u) { out[id.x] = id.x * id.x; }\n";

static void on_error(void *user, ls_error_type type, const char *message) {
  fprintf(stderr, "%s\n", message); /* validation errors, with line:column */
}

int main(void) {
  char err[256];
  ls_adapter *adapter = ls_adapter_create(NULL, err, sizeof err);
  ls_device *device = ls_adapter_create_device(adapter, NULL, NULL, err, sizeof err);
  if (!device) return fprintf(stderr, "%s\n", err), 1;
  ls_device_set_error_callback(device, on_error, NULL);

  ls_shader_module *module = ls_device_create_shader_module(
      device, &(ls_shader_module_desc){.code = square_wgsl, .label = "square.wgsl"});
  ls_compute_pipeline *pipeline = ls_device_create_compute_pipeline(
      device, &(ls_compute_pipeline_desc){.module = module}); /* layout "auto" */
  ls_buffer *buffer = ls_device_create_buffer(
      device, &(ls_buffer_desc){.size = 256 * sizeof(uint32_t),
                                .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC});
  ls_bind_group_layout *layout = ls_compute_pipeline_get_bind_group_layout(pipeline, 0);
  ls_bind_group_entry entry = {.binding = 0, .buffer = buffer, .size = LS_WHOLE_SIZE};
  ls_bind_group *group = ls_device_create_bind_group(
      device, &(ls_bind_group_desc){.layout = layout, .entries = &entry, .entry_count = 1});

  ls_command_encoder *encoder = ls_device_create_command_encoder(device, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(encoder, NULL);
  ls_compute_pass_set_pipeline(pass, pipeline);
  ls_compute_pass_set_bind_group(pass, 0, group, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, 4, 1, 1);
  ls_compute_pass_end(pass);
  ls_command_buffer *commands = ls_command_encoder_finish(encoder, NULL);
  ls_status status = commands ? ls_queue_submit(device, &commands, 1) : LS_VALIDATION;

  uint32_t out[256] = {0};
  if (status == LS_OK) status = ls_queue_read_buffer(device, buffer, 0, out, sizeof out);
  int wrong = status != LS_OK;
  for (uint32_t i = 0; i < 256; i++) wrong |= out[i] != i * i;
  printf("lockstep %s: out[255] = %u, %s\n", ls_version(), out[255], wrong ? "WRONG" : "as expected");

  ls_command_buffer_release(commands); /* submitted, ended, finished: still handles */
  ls_compute_pass_release(pass);
  ls_command_encoder_release(encoder);
  ls_bind_group_release(group);
  ls_bind_group_layout_release(layout);
  ls_buffer_release(buffer);
  ls_compute_pipeline_release(pipeline);
  ls_shader_module_release(module);
  ls_device_release(device);
  ls_adapter_release(adapter);
  return wrong;
}
