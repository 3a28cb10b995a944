// expect: 6:28 the shift amount must be vec3<u32>
// §Bit Expressions: e1 << e2 takes e2 of the shape of e1 (u32 or vecN<u32>;
// AbstractInt operands stay abstract). A vec3 shifted by a vec2 of
// AbstractInts read past the shorter vector and crashed `lockstep check`.
@compute @workgroup_size(1) fn main() {
  let x = vec3(0, 0, 0) << vec2(0, 0);
}
