// expect: 3:17 needs 'enable f16;'
// §Extensions (f16): f16 needs `enable f16;`.
var<private> h: f16;
@compute @workgroup_size(1) fn main() {}
