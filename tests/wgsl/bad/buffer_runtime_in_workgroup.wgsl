// expect: 4:19 buffer cannot be in workgroup memory
// §Buffer Types: runtime-sized buffers can only be instantiated by variables
// in the storage address space.
var<workgroup> b: buffer;
@compute @workgroup_size(1) fn main() {}
