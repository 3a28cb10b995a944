// A 2D dispatch (4096 x rows) indexed with global_invocation_id.x: every row
// of workgroups repeats the same 262,144 indices.
struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u) {
  if (gid.x >= params.conteo || wid.y > 100u) { return; }
  datos[gid.x] = datos[gid.x] * 0.99;
}
