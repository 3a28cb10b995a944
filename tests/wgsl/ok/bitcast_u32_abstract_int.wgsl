// §bitcast: bitcast<u32>(e : AbstractInt) is u32(e), the identity for any e
// that u32 represents (so values past i32 too), component-wise on vectors.
const_assert bitcast<u32>(4294967295) == 4294967295u;
const_assert bitcast<u32>(2147483648) == 2147483648u;
const_assert all(bitcast<vec2<u32>>(vec2(3000000000, 7)) == vec2(3000000000u, 7u));
// a concrete i32 is reinterpreted as before
const_assert bitcast<u32>(-1i) == 4294967295u;
@compute @workgroup_size(1) fn main() {}
