// expect: 6:11 cannot hold a value of type array<u32>
// A runtime-sized array is not constructible: it can be indexed in memory
// but never loaded whole into a let.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
  let a = out;
  out[1] = a[0];
}
