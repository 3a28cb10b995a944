// expect: 3:1 below 65536
// §override Declarations: @id values are below 65536.
@id(65536) override a = 1;
@compute @workgroup_size(1) fn main() {}
