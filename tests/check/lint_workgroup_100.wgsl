// Lesson 002's "peor": 100 invocations fill four subgroups of 32 (128 lanes).
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> n: u32;

@compute @workgroup_size(100)
fn peor(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= n) { return; }
  out[gid.x] = 1u;
}
