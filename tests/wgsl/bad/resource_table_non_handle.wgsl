// expect: 5:19 getResource needs a texture or sampler type, found u32
// chromium_experimental_resource_table: T is a texture (or sampler) type.
enable chromium_experimental_resource_table;
@fragment fn f() {
  _ = getResource<u32>(0);
}
