// An override used as an index into a fixed-size array: out of bounds it is
// a pipeline-creation error (WGSL §Array Access Expression).
override k: u32 = 1u;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main() {
  var a = array<u32, 4>(1u, 2u, 3u, 4u);
  out[0] = a[k];
}
