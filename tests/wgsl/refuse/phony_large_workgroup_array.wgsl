// expect: 7:32 uses 32768 bytes of workgroup storage ('data' 32768 bytes), over the device limit
// §Phony Assignment: `_ = data` evaluates data, so the variable is
// statically used and counts towards maxComputeWorkgroupStorageSize
// (spec/index.bs, pipeline creation); a reference is formed, not loaded,
// so its 8192 words need not be copied for the limit to be checked.
var<workgroup> data: array<u32, 8192>;
@compute @workgroup_size(1) fn main() { _ = data; }
