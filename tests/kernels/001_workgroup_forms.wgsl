// Lesson 001: the three forms of @workgroup_size, all 64 invocations. Each
// invocation records its local_invocation_id, local_invocation_index
// (x + y*sx + z*sx*sy) and global_invocation_id, at slot
// (flat workgroup number) * 64 + local_invocation_index.
@group(0) @binding(0) var<storage, read_write> forma_a: array<array<u32, 8>>;
@group(0) @binding(1) var<storage, read_write> forma_b: array<array<u32, 8>>;
@group(0) @binding(2) var<storage, read_write> forma_c: array<array<u32, 8>>;

fn slot(wid: vec3u, nwg: vec3u, li: u32) -> u32 {
  return (wid.x + nwg.x * (wid.y + nwg.y * wid.z)) * 64u + li;
}

fn registro(lid: vec3u, li: u32, gid: vec3u, s: u32) -> array<u32, 8> {
  return array<u32, 8>(lid.x, lid.y, lid.z, li, gid.x, gid.y, gid.z, s);
}

@compute @workgroup_size(64)
fn a(@builtin(local_invocation_id) lid: vec3u,
     @builtin(local_invocation_index) li: u32,
     @builtin(global_invocation_id) gid: vec3u,
     @builtin(workgroup_id) wid: vec3u,
     @builtin(num_workgroups) nwg: vec3u) {
  let s = slot(wid, nwg, li);
  forma_a[s] = registro(lid, li, gid, s);
}

@compute @workgroup_size(8, 8)
fn b(@builtin(local_invocation_id) lid: vec3u,
     @builtin(local_invocation_index) li: u32,
     @builtin(global_invocation_id) gid: vec3u,
     @builtin(workgroup_id) wid: vec3u,
     @builtin(num_workgroups) nwg: vec3u) {
  let s = slot(wid, nwg, li);
  forma_b[s] = registro(lid, li, gid, s);
}

@compute @workgroup_size(4, 4, 4)
fn c(@builtin(local_invocation_id) lid: vec3u,
     @builtin(local_invocation_index) li: u32,
     @builtin(global_invocation_id) gid: vec3u,
     @builtin(workgroup_id) wid: vec3u,
     @builtin(num_workgroups) nwg: vec3u) {
  let s = slot(wid, nwg, li);
  forma_c[s] = registro(lid, li, gid, s);
}
