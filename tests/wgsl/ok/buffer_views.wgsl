// §Buffer Types, §Buffer View Built-in Functions: buffer<N> in storage,
// uniform and workgroup memory, the runtime-sized buffer in storage; views
// of host-shareable types; a pointer to buffer<N> converts to a smaller
// buffer or the runtime-sized one when passed to a function
// (§Conversion Rank).
struct Tail { n: u32, items: array<vec2f> }
@group(0) @binding(0) var<storage, read_write> raw: buffer;
@group(0) @binding(1) var<uniform> params: buffer<64>;
var<workgroup> scratch: buffer<256>;
fn total(p: ptr<storage, buffer, read_write>) -> u32 { return bufferLength(p); }
fn small(p: ptr<workgroup, buffer<128>>) -> f32 { return *bufferView<f32>(p, 4); }
@compute @workgroup_size(1) fn main() {
  let v = bufferView<vec4u>(&params, 16);
  let items = bufferArrayView<array<u32>>(&raw, 0, 64);
  let t = bufferView<Tail>(&raw, 0);
  (*items)[0] = (*v).x + total(&raw) + arrayLength(&(*t).items);
  *bufferView<f32>(&scratch, 0) = small(&scratch);
}
