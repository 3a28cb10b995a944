// Lesson 000: indirect dispatch. preparar computes the workgroup count on
// the device; procesar is dispatched with it in the same pass and sees the
// write. registro counts the invocations procesar really launched and keeps
// the num_workgroups it saw; marcar runs afterwards to show the pass went on.
struct Args { x: u32, y: u32, z: u32 };
struct Registro {
  lanzadas: atomic<u32>,   // invocations of procesar that ran
  gx: u32, gy: u32, gz: u32, // num_workgroups seen by procesar
  despues: u32,            // set by marcar, the dispatch after procesar
};
@group(0) @binding(0) var<storage, read_write> args: Args;
@group(0) @binding(1) var<storage, read> contador: u32;
@group(0) @binding(2) var<storage, read_write> datos: array<f32>;
@group(0) @binding(3) var<storage, read_write> registro: Registro;

@compute @workgroup_size(1)
fn preparar() {
  args.x = (contador + 63u) / 64u;   // ceil division, on the device
}

@compute @workgroup_size(64)
fn procesar(
  @builtin(global_invocation_id) gid: vec3u,
  @builtin(num_workgroups) nwg: vec3u,
) {
  atomicAdd(&registro.lanzadas, 1u);
  if (gid.x == 0u) {
    registro.gx = nwg.x;
    registro.gy = nwg.y;
    registro.gz = nwg.z;
  }
  let i = gid.x;
  if (i >= contador || i >= arrayLength(&datos)) { return; }
  datos[i] = datos[i] * 0.99;
}

@compute @workgroup_size(1)
fn marcar() {
  registro.despues = 1u;
}
