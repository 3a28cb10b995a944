// An override without a default: every pipeline must give it a value.
override TAM: u32;
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(TAM)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= arrayLength(&datos)) { return; }
  datos[gid.x] = gid.x;
}
