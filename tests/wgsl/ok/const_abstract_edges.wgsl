// §Arithmetic Expressions: negating the most negative value of an integer
// scalar type gives that value, AbstractInt's too. §Bit Expressions
// (abstract shift right): the shift amount has no bit-width limit; every
// inserted bit is the sign of e1, so past 63 bits the result is 0 or -1.
const min_ai = -9223372036854775807 - 1;
const_assert -min_ai == min_ai;
const_assert -(~9223372036854775807) == min_ai; // ~(2^63 - 1) = -2^63
const_assert (5 >> 64) == 0;
const_assert (-5 >> 64) == -1;
const_assert (min_ai >> 4294967295) == -1;
const_assert (9223372036854775807 >> 62) == 1;
const_assert all((vec2(-8, 8) >> vec2(100, 100)) == vec2(-1, 0));
@compute @workgroup_size(1) fn main() {}
