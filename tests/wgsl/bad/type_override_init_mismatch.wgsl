// expect: 3:19 cannot initialize
// §override Declarations: the initializer converts to the declared type.
override o: i32 = 1.5;
@compute @workgroup_size(1) fn main() {}
