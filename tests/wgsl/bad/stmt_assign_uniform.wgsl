// expect: 5:3 read-only
// §Address Spaces: uniform memory is read-only.
@group(0) @binding(0) var<uniform> u: u32;
@compute @workgroup_size(1) fn main() {
  u = 1u;
}
