// expect: 3:11 cannot bitcast
@compute @workgroup_size(1) fn main() {
  let x = bitcast<vec2<u32>>(1.0f);
}
