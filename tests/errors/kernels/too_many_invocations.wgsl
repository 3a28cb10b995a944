// Lesson 001: each dimension is within maxComputeWorkgroupSizeX/Y (256), but
// the product, 65536 invocations, is far over the default
// maxComputeInvocationsPerWorkgroup (256).
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(256, 256)
fn main(@builtin(local_invocation_index) li: u32) {
  datos[li] = li;
}
