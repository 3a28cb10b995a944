// expect: 6:3 use atomicStore
// §Atomic Types: an atomic member cannot be stored by assignment.
struct S { a: atomic<i32> }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() {
  s.a = 1;
}
