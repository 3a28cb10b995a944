// seeds/001_b7a5983b4ef64cf6.txt (@workgroup_size y los límites de la especificación),
// section "Parametrizar el tamaño sin duplicar el shader", lines 49-59, verbatim.
override TAM: u32 = 64u;

@group(0) @binding(0) var<storage, read>       entrada: array<f32>;
@group(0) @binding(1) var<storage, read_write> salida:  array<f32>;

@compute @workgroup_size(TAM)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&entrada)) { return; }
  salida[i] = sqrt(entrada[i]);
}
