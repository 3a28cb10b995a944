// expect: 3:45 need access mode read_write
// §Atomic Types / §Memory Access Mode: atomics in storage memory need read_write.
@group(0) @binding(0) var<storage, read> a: atomic<u32>;
@compute @workgroup_size(1) fn main() {}
