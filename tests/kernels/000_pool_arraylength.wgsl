// Lesson 000: a pool of capacity 100000 with 12000 live particles. Guarding
// with arrayLength compares against the capacity, so it stops nothing; the
// guard against the live count does.
struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> pool_longitud: array<f32>;
@group(0) @binding(2) var<storage, read_write> pool_conteo: array<f32>;

@compute @workgroup_size(64)
fn por_longitud(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= arrayLength(&pool_longitud)) { return; }
  pool_longitud[gid.x] = pool_longitud[gid.x] * 0.99;
}

@compute @workgroup_size(64)
fn por_conteo(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.conteo) { return; }
  pool_conteo[gid.x] = pool_conteo[gid.x] * 0.99;
}
