// expect: 6:3 cannot assign to this
// §Vector Multiple Component Selection: a swizzle naming a component twice
// denotes no single memory location for each lane, so it cannot be
// assigned (even with swizzle_assignment).
@compute @workgroup_size(1) fn main() {
  v.xx = vec2f();
}
var<private> v: vec4f;
