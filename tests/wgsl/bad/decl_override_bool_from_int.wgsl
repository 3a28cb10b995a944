// expect: 3:20 cannot initialize
// §override Declarations: an AbstractInt does not convert to bool.
override o: bool = 1;
@compute @workgroup_size(1) fn main() {}
