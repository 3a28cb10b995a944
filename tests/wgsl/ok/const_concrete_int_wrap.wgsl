// §Integer Types: expressions on concrete integer types that overflow give
// their result modulo 2^32, in const-expressions too; §Arithmetic
// Expressions: negating the most negative i32 gives the operand back.
// Each right-hand side is that arithmetic done by hand.
const min_i32 = i32(-2147483648);
const_assert 2147483647i + 1i == min_i32;                  // 2^31 - 2^32
const_assert min_i32 - 1i == 2147483647i;                  // -2^31 - 1 + 2^32
const_assert 65536i * 65536i == 0i;                        // 2^32 mod 2^32
const_assert 65535i * 65537i == -1i;                       // 2^32 - 1 -> -1
const_assert 0u - 1u == 4294967295u;                       // -1 + 2^32
const_assert 4294967295u + 2u == 1u;                       // 2^32 + 1
const_assert 4294967295u * 4294967295u == 1u;              // (2^32 - 1)^2 = 2^64 - 2^33 + 1
const_assert -min_i32 == min_i32;
const_assert all(-vec2(min_i32, 5i) == vec2(min_i32, -5i));
const_assert all(vec2i(1, 2147483647) + vec2i(1, 1) == vec2i(2, min_i32));
// the abstract example of §Abstract Numeric Types: -1 converts to i32, and
// i32 multiplication wraps
const_assert -1 * min_i32 == min_i32;
@compute @workgroup_size(1) fn main() {}
