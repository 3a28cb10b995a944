// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "Cuando 65535 no basta" (the grid-stride loop), lines 62-74, verbatim.
// Uses params and datos from the guard kernel, which the test prepends.
@compute @workgroup_size(64)
fn main(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups)       nwg: vec3u,
) {
  let zancada = nwg.x * 64u;
  var i = gid.x;
  loop {
    if (i >= params.conteo) { break; }
    datos[i] = datos[i] * 0.99;
    i += zancada;
  }
}
