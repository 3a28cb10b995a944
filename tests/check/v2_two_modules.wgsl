// The first module of check/v2_two_modules.json: correct, guarded.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < arrayLength(&out)) {
    out[g.x] = g.x;
  }
}
