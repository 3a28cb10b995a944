// The guard of lesson 000 left out: with n = 3,000,001 the last workgroup's
// 63 extra invocations write past the data (datos holds exactly n floats).
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  datos[gid.x] = datos[gid.x] * 0.99;
}
