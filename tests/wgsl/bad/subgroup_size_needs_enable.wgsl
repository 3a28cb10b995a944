// expect: 3:30 @subgroup_size needs 'enable subgroup_size_control;'
enable subgroups;
@compute @workgroup_size(64) @subgroup_size(32) fn main() {}
