struct Params { k: array<vec4u, 4> };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  out[gid.x] = params.k[gid.x].x;
}
