// Lesson 000: past 65535 workgroups per dimension the dispatch goes 2D
// (ANCHO groups per row) and the shader flattens it again by hand;
// global_invocation_id.x alone would only cover one row.
// The update mixes in the group number, so a wrong flattening, a missed
// element or an element processed twice all change the result.
const ANCHO: u32 = 4096u;   // must match the host's width
const TAM: u32 = 64u;

struct Params { conteo: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(TAM)
fn main(
  @builtin(workgroup_id) wid: vec3u,
  @builtin(local_invocation_index) li: u32,
) {
  let grupo = wid.y * ANCHO + wid.x;
  let i = grupo * TAM + li;
  if (i >= params.conteo) { return; }
  datos[i] = (datos[i] ^ 0xa5a5a5a5u) + grupo;
}
