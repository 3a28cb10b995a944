// Lesson 001: more than the default 256 invocations per workgroup needs the
// device to ask for it (requiredLimits maxComputeInvocationsPerWorkgroup and
// maxComputeWorkgroupSizeX = 1024). Each workgroup of 1024 reverses its
// inputs through workgroup memory and adds its local index.
var<workgroup> buf: array<u32, 1024>;

@group(0) @binding(0) var<storage, read> entrada: array<u32>;
@group(0) @binding(1) var<storage, read_write> salida: array<u32>;

@compute @workgroup_size(1024)
fn main(
  @builtin(local_invocation_index) li: u32,
  @builtin(global_invocation_id) gid: vec3u,
) {
  buf[li] = entrada[gid.x];
  workgroupBarrier();
  salida[gid.x] = buf[1023u - li] + li;
}
