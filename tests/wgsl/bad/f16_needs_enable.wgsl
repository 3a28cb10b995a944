// expect: 2:19 f16 needs 'enable f16;'
var<private> acc: f16;
@compute @workgroup_size(64) fn main() {
  acc = acc;
}
