// expect: 4:16 f32
enable f16;
@compute @workgroup_size(64) fn main() {
  let a: f32 = 1.5h;
}
