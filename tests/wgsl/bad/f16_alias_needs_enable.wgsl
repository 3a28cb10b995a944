// expect: 3:10 f16 needs 'enable f16;'
@compute @workgroup_size(64) fn main() {
  var v: vec3h;
}
