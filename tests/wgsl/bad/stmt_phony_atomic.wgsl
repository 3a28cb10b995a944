// expect: 5:7 atomicLoad
// §Phony Assignment: loading the right-hand side applies; an atomic cannot be loaded by value.
var<workgroup> a: atomic<u32>;
@compute @workgroup_size(1) fn main() {
  _ = a;
}
