// expect: 5:3 read-only
// §Memory Access Mode: a read-only storage buffer cannot be written.
@group(0) @binding(0) var<storage, read> b: u32;
@compute @workgroup_size(1) fn main() {
  b = 1u;
}
