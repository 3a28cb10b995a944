// expect: 6:16 a workgroup variable is only allowed in compute shaders
// §Address Spaces: the workgroup address space is only accessible from the
// compute shader stage.
var<workgroup> shared_v: f32;
@fragment fn main() -> @location(0) vec4f {
  return vec4f(shared_v);
}
