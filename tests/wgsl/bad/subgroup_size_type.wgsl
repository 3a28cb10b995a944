// expect: 3:45 @subgroup_size must be i32 or u32
enable subgroup_size_control;
@compute @workgroup_size(64) @subgroup_size(32.0) fn main() {}
