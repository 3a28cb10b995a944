// expect: 3:11 f16 literals need 'enable f16;'
@compute @workgroup_size(64) fn main() {
  let x = 1.5h;
}
