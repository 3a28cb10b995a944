// Syntax error: a missing ';' between two expressions.
@group(0) @binding(0) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let x: u32 = 1u 2u;
  datos[gid.x] = x;
}
