// Immediate data (immediate_address_space): a guarded map whose element
// count, scale and offset come from var<immediate>, set by each dispatch
// (lockstep's "immediates" case field: setImmediates before the dispatch).
requires immediate_address_space;

struct Params {
  count: u32,
  scale: f32,
  offset: f32,
  first: u32, // where this dispatch writes in out
}

var<immediate> params: Params;
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.count) {
    return;
  }
  out[params.first + i] = src[i] * params.scale + params.offset;
}
