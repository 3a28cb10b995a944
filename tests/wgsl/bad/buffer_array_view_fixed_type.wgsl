// expect: 6:23 bufferArrayView views a host-shareable type without a fixed footprint
// §bufferArrayView: T is a host-shareable type without a fixed footprint
// (a runtime-sized array, or a structure ending in one).
@group(0) @binding(0) var<storage> b: buffer;
@compute @workgroup_size(1) fn main() {
  _ = bufferArrayView<vec4u>(&b, 0, 16);
}
