// expect: 4:1 is already used
// §override Declarations: two overrides cannot have the same @id.
@id(3) override a = 1;
@id(3) override b = 2;
@compute @workgroup_size(1) fn main() {}
