// expect: 4:25 pack2x16float: expected vec2<f32>, found vec2<f16>
enable f16;
@compute @workgroup_size(64) fn main() {
  let p = pack2x16float(vec2h(1h, 2h));
}
