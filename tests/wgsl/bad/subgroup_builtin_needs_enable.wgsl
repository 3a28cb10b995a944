// expect: 3:38 @builtin(subgroup_size) needs 'enable subgroups;'
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(subgroup_size) n: u32) { out[0] = n; }
