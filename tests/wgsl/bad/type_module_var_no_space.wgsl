// expect: 4:5 needs an address space
// §var Declarations: a module-scope var needs an address space
// (or a texture/sampler type).
var x: i32;
@compute @workgroup_size(1) fn main() {}
