// seeds/001_b7a5983b4ef64cf6.txt (@workgroup_size y los límites de la especificación),
// section "Parametrizar el tamaño sin duplicar el shader", lines 82-91, verbatim.
const wgsl = (TAM) => `
const TAM: u32 = ${TAM}u;
var<workgroup> buf: array<f32, TAM>;

@compute @workgroup_size(TAM)
fn main(@builtin(local_invocation_index) li: u32) {
  buf[li] = f32(li);
  workgroupBarrier();
  // ...
}`;
