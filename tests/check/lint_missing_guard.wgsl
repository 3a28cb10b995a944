// Lesson 000's kernel without its guard.
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  datos[gid.x] = datos[gid.x] * 0.99;
}
