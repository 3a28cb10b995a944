// expect: 4:11 quantizeToF16
enable f16;
@compute @workgroup_size(64) fn main() {
  let q = quantizeToF16(1.5h);
}
