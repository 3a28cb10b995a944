struct S { a: array<u32, 4>, b: u32 };
@group(0) @binding(0) var<storage, read_write> s: S;

@compute @workgroup_size(5)
fn main(@builtin(local_invocation_index) li: u32) {
  s.a[li] = 7u;
}
