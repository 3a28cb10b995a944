// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "El techo y el guardia son inseparables", lines 18-26, verbatim.
struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= params.conteo) { return; }
  datos[gid.x] = datos[gid.x] * 0.99;
}
