// A trivial kernel for the case-file error cases: the case is wrong, not
// the shader.
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= arrayLength(&datos)) { return; }
  datos[gid.x] = gid.x;
}
