// expect: 5:24 does not fit in u32
// §bitcast: bitcast<u32>(e : AbstractInt) is a shader-creation error when u32
// cannot represent e; -1 is an AbstractInt here, not an i32.
@compute @workgroup_size(1) fn main() {
  let a = bitcast<u32>(-1);
}
