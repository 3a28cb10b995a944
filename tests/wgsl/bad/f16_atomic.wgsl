// expect: 3:32 atomic<T> needs T = i32 or u32
enable f16;
var<workgroup> counter: atomic<f16>;
@compute @workgroup_size(64) fn main() {}
