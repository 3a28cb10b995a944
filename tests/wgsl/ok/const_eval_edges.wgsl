// §Arithmetic / Bit Expressions: results at the edge of the range do not
// overflow: i32 min from -max - 1, u32 max, 1u << 31u, -1i << 31u.
const a = -2147483647i - 1i;
const b = 4294967295u;
const c = 1u << 31u;
const d = -1i << 31u;
const_assert a == d;
const_assert b == 0xffffffffu && c == 0x80000000u;
@compute @workgroup_size(1) fn main() {}
