// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "Cuando 65535 no basta", lines 44-56, verbatim.
// Uses params from the guard kernel (000_guardia.wgsl), which the test prepends.
const ANCHO: u32 = 4096u;      // debe coincidir con el valor de JS
const TAM:   u32 = 64u;

@compute @workgroup_size(TAM)
fn main(
  @builtin(workgroup_id)           wid: vec3u,
  @builtin(local_invocation_index) li:  u32,
) {
  let grupo = wid.y * ANCHO + wid.x;
  let i = grupo * TAM + li;
  if (i >= params.conteo) { return; }
  // ...
}
