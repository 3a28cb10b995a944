// expect: 3:11 f16 literals need 'enable f16;'
// §Extensions (f16): an h-suffixed literal needs `enable f16;`.
const h = 1.0h;
@compute @workgroup_size(1) fn main() {}
