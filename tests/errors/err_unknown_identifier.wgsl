// An identifier that is declared nowhere.
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  datos[gid.x] = valor * 2u;
}
