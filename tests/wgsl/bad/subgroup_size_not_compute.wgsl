// expect: 3:1 @subgroup_size applies only to a compute entry point
enable subgroup_size_control;
@subgroup_size(32) fn helper() {}
@compute @workgroup_size(64) fn main() { helper(); }
