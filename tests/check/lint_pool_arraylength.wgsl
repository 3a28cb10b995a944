// A pool of capacity 100,000 with 12,000 live: arrayLength is the capacity.
@group(0) @binding(1) var<storage, read_write> pool: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= arrayLength(&pool)) { return; }
  pool[gid.x] = pool[gid.x] * 0.99;
}
