// expect: 3:1 attributes are not allowed on 'const' declarations
// §id: must only be applied to an override declaration of scalar type.
@id(1) const c = 1;
@compute @workgroup_size(1) fn main() {}
