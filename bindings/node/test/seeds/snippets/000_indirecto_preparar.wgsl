// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "Dejar que la GPU decida el dispatch", lines 95-103 (the WGSL half
// of the first block: kernel A), verbatim.
// Kernel A: cuenta y deja preparados los argumentos del dispatch siguiente.
struct Args { x: u32, y: u32, z: u32 };
@group(0) @binding(0) var<storage, read_write> args: Args;
@group(0) @binding(1) var<storage, read>       contador: u32;

@compute @workgroup_size(1)
fn preparar() {
  args.x = (contador + 63u) / 64u;   // division por techo, en la GPU
}
