// expect: 5:3 read-only
// §Memory Access Mode: a read-only pointer does not allow stores.
@group(0) @binding(0) var<storage, read> b: array<u32, 4>;
fn f(p: ptr<storage, array<u32, 4>, read>) {
  (*p)[0] = 1u;
}
@compute @workgroup_size(1) fn main() {}
