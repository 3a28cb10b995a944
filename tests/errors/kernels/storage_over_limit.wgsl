// Lesson 001: 4100 f32 = 16400 bytes of workgroup storage, over the default
// maxComputeWorkgroupStorageSize of 16384 (a 64 x 64 tile plus one vec4).
var<workgroup> tile: array<f32, 4100>;
@group(0) @binding(0) var<storage, read_write> datos: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = f32(li);
  workgroupBarrier();
  datos[li] = tile[63u - li] + tile[4099u];
}
