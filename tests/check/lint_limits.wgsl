// Each dimension within its limit, the product not; and 20,480 bytes of
// workgroup storage in two variables.
var<workgroup> tile_a: array<f32, 4096>;
var<workgroup> tile_b: array<f32, 1024>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256, 256)
fn main(@builtin(local_invocation_index) li: u32) {
  tile_a[li % 4096u] = 1.0;
  tile_b[li % 1024u] = 2.0;
  out[li] = tile_a[0] + tile_b[0];
}
