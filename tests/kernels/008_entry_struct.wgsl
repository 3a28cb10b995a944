// Built-in values in structure parameters of a compute entry point
// (§Built-in Inputs and Outputs, the second form), mixed with a plain
// @builtin parameter (local_invocation_id). Each invocation stores every built-in it reads through
// a structure, so a member that read the wrong value (its neighbour's, the
// wrong component) shows up; the structure is also passed to a function and
// copied into a variable as an ordinary value.
struct Ids {
  @builtin(local_invocation_index) li: u32,
  @builtin(global_invocation_id) gid: vec3u,
}

struct Groups {
  @builtin(num_workgroups) nwg: vec3u,
  @builtin(workgroup_id) wid: vec3u,
}

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

// the flat global index, from the structure members alone
fn flat(ids: Ids, g: Groups) -> u32 {
  let sx = 4u * g.nwg.x;
  let sy = 4u * g.nwg.y;
  return ids.gid.x + sx * (ids.gid.y + sy * ids.gid.z);
}

@compute @workgroup_size(4, 4, 2)
fn main(ids: Ids, @builtin(local_invocation_id) lid: vec3u, g: Groups) {
  var c = ids;
  let o = flat(c, g) * 12u;
  out[o] = c.li;
  out[o + 1u] = c.gid.x;
  out[o + 2u] = c.gid.y;
  out[o + 3u] = c.gid.z;
  out[o + 4u] = lid.x + 10u * lid.y + 100u * lid.z;
  out[o + 5u] = g.wid.x + 10u * g.wid.y + 100u * g.wid.z;
  out[o + 6u] = g.nwg.x + 10u * g.nwg.y + 100u * g.nwg.z;
  // gid = wid * workgroup_size + lid, from both structures and the plain parameter
  out[o + 7u] = select(0u, 1u, all(ids.gid == g.wid * vec3u(4u, 4u, 2u) + lid));
  // local_invocation_index = lid.x + lid.y * 4 + lid.z * 16
  out[o + 8u] = select(0u, 1u, ids.li == lid.x + lid.y * 4u + lid.z * 16u);
  // the copy is the structure
  out[o + 9u] = select(0u, 1u, c.li == ids.li && all(c.gid == ids.gid));
  out[o + 10u] = flat(ids, g);
  out[o + 11u] = 0x5a5a5a5au;
}
