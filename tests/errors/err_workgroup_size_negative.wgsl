// A const workgroup size must be at least 1; i32 literals can be negative.
const TAM = -64;
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(TAM)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  datos[gid.x] = gid.x;
}
