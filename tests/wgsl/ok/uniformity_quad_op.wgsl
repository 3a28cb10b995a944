// §Filterable Triggering Rules: the quad operation in uniform control flow.
enable subgroups;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) g: vec3u) {
  if (g.x == 0u) { _ = quadSwapX(i); }
}
