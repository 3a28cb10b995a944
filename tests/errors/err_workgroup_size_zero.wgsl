// A const workgroup size must be at least 1 (shader-creation error).
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(64, 0)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  datos[gid.x] = gid.x;
}
