// expect: 3:45 @subgroup_size must be a power of two, found 24
enable subgroup_size_control;
@compute @workgroup_size(48) @subgroup_size(24) fn main() {}
