// seeds/002_67b4d361477d1bec.txt (SIMT: por qué tus invocaciones no son hilos independientes),
// section "Workgroup y subgrupo: dos cosas distintas que se confunden", lines 55-60, verbatim.
// Uses datos, which the test declares.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&datos)) { return; }
  // ...
}
