// expect: 3:11 @workgroup_size is only for compute shader entry points
// §workgroup_size: must only be applied to a compute shader entry point.
@fragment @workgroup_size(8) fn f() {}
