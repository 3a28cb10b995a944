@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
var<workgroup> local_count: atomic<u32>;

@compute @workgroup_size(64)
fn main() {
  atomicAdd(&local_count, 1u);
  atomicAdd(&counter, 1u);
}
