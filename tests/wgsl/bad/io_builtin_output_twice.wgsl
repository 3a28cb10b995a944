// expect: 6:3 @builtin(sample_mask) is used by two outputs of 'main'
// §Built-in Inputs and Outputs: an entry point must not have two built-in
// outputs with the same name (inputs and outputs are counted apart).
struct R {
  @builtin(sample_mask) a: u32,
  @builtin(sample_mask) b: u32,
}
@fragment fn main(@builtin(sample_mask) m: u32) -> R { return R(m, m); }
