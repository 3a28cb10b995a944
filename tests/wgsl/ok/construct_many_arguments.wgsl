// §Value Constructor Built-in Functions: structure and array constructors take
// one argument per member / element, however many (the spec's limit for
// array constructors is at least 2047 elements).
struct S {m0: i32,m1: i32,m2: i32,m3: i32,m4: i32,m5: i32,m6: i32,m7: i32,m8: i32,m9: i32,m10: i32,m11: i32,m12: i32,m13: i32,m14: i32,m15: i32,m16: i32,m17: i32,m18: i32,m19: i32}
const s = S(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19);
const_assert s.m19 == 19;
const a = array(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39);
const_assert a[39] == 39;
@compute @workgroup_size(1) fn main() {}
