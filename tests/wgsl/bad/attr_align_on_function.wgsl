// expect: 3:1 '@align' is not allowed here
// §align: must only be applied to a member of a structure type.
@align(16) fn f() {}
@compute @workgroup_size(1) fn main() {}
