// Lesson 002: neighbouring lanes reading neighbouring words share memory
// transactions. contiguo: 32 lanes read 32 consecutive f32 (one 128-byte
// line); zancada: a stride of 32 elements, one line per lane.
@group(0) @binding(0) var<storage, read> entrada: array<f32>;
@group(0) @binding(1) var<storage, read_write> salida: array<f32>;

@compute @workgroup_size(32)
fn contiguo(@builtin(global_invocation_id) gid: vec3u) {
  salida[gid.x] = entrada[gid.x];
}

@compute @workgroup_size(32)
fn zancada(@builtin(global_invocation_id) gid: vec3u) {
  salida[gid.x] = entrada[gid.x * 32u];
}
