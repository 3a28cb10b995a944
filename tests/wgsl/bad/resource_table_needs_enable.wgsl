// expect: 4:7 'hasResource' needs 'enable chromium_experimental_resource_table;'
// The resource table exists only under its extension.
@fragment fn f() {
  _ = hasResource<sampler>(0);
}
