// Lesson 001: a 64 x 64 tile of f32 is exactly 16384 bytes, the default
// maxComputeWorkgroupStorageSize: it fits, with nothing else beside it.
// Each workgroup transposes one 64 x 64 tile through workgroup memory.
var<workgroup> tile: array<u32, 4096>;

@group(0) @binding(0) var<storage, read> entrada: array<u32>;
@group(0) @binding(1) var<storage, read_write> salida: array<u32>;

@compute @workgroup_size(64)
fn main(
  @builtin(local_invocation_index) li: u32,
  @builtin(workgroup_id) wid: vec3u,
) {
  let base = wid.x * 4096u;
  for (var fila = 0u; fila < 64u; fila++) {
    tile[fila * 64u + li] = entrada[base + fila * 64u + li];
  }
  workgroupBarrier();
  for (var fila = 0u; fila < 64u; fila++) {
    salida[base + fila * 64u + li] = tile[li * 64u + fila];
  }
}
