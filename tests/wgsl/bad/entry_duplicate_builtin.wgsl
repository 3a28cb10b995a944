// expect: 3:78 @builtin(local_invocation_index) is used by two inputs
// §Entry Point IO: a built-in value appears at most once among an entry point's inputs.
@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) a: u32, @builtin(local_invocation_index) b: u32) {}
