// expect: 4:63 @builtin(subgroup_id) must have type u32, found i32
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@compute @workgroup_size(64) fn main(@builtin(subgroup_id) s: i32) { out[0] = s; }
