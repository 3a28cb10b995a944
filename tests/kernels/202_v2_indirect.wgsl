// Two entry points of one module, each with its own auto layout: count
// writes the indirect arguments for n elements in workgroups of 64; square
// (dispatched indirectly with them) writes i * i below n.
@group(0) @binding(0) var<storage, read_write> args: array<u32, 3>;
@group(0) @binding(1) var<uniform> n: vec4u;
@group(0) @binding(2) var<storage, read_write> v: array<u32>;

@compute @workgroup_size(1)
fn count() {
  args[0] = (n.x + 63u) / 64u;
  args[1] = 1u;
  args[2] = 1u;
}

@compute @workgroup_size(64)
fn square(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < n.x) {
    v[g.x] = g.x * g.x;
  }
}
