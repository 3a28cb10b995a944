// expect: 3:5 must not be negative
// §id: the value is non-negative.
@id(-1) override o = 1;
@compute @workgroup_size(1) fn main() {}
