// expect: 5:11 no overload of 'quantizeToF16'
// §quantizeToF16: one f32 or vecN<f32> argument. A call with none was read
// past its empty argument list and crashed `lockstep check`.
@compute @workgroup_size(1) fn main() {
  let x = quantizeToF16();
}
