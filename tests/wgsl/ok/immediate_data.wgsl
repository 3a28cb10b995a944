// §Address Spaces: var<immediate> holds a host-shareable constructible
// value without arrays; it is read-only and may be passed by pointer.
struct Push { scale: f32, offset: vec2u }
var<immediate> push: Push;
@group(0) @binding(0) var<storage, read_write> out: f32;
fn read_scale(p: ptr<immediate, Push>) -> f32 { return (*p).scale; }
@compute @workgroup_size(1) fn main() {
  out = read_scale(&push) + f32(push.offset.y);
}
