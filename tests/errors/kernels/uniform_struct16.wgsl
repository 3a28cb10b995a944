// A 16-byte uniform struct; the case binds only 8 bytes of its buffer.
struct Params { a: u32, b: u32, c: u32, d: u32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> datos: array<u32>;

@compute @workgroup_size(1)
fn main() {
  datos[0] = params.a + params.b + params.c + params.d;
}
