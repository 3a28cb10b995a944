// expect: 5:3 'workgroupBarrier' is only allowed in compute shaders
// §Synchronization Built-in Functions: workgroupBarrier must only be used in
// a compute shader stage.
@fragment fn main() -> @location(0) vec4f {
  workgroupBarrier();
  return vec4f();
}
