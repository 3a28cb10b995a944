// missing-guard with linear_indexing: global_invocation_index is a global
// index like global_invocation_id, so an unguarded store through it is
// reported; the guarded one is not.
requires linear_indexing;
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@group(0) @binding(1) var<storage, read_write> kept: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_index) i: u32) {
  data[i] = data[i] * 2.0;
  if (i < arrayLength(&kept)) {
    kept[i] = 1.0;
  }
}
