// expect: 7:3 values of type S cannot be assigned
// §Assignment Statement: the store type must be constructible; a structure with an atomic is not.
struct S { a: atomic<i32> }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<storage, read_write> t: S;
@compute @workgroup_size(1) fn main() {
  s = t;
}
