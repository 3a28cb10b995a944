// expect: 3:16 the immediate address space is not supported by lockstep yet
// Immediate data is validated, not executed.
var<immediate> pc: u32;
@group(0) @binding(0) var<storage, read_write> out: u32;
@compute @workgroup_size(1) fn main() { out = pc; }
