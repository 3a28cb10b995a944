// expect: 3:27 'read' or 'read_write'
// §Address Spaces: storage buffers are read or read_write; write is not an access mode for them.
@group(0) @binding(0) var<storage, write> b: u32;
@compute @workgroup_size(1) fn main() {}
