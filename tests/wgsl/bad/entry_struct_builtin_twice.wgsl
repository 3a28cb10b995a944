// expect: 5:45 @builtin(local_invocation_index) is used by two inputs
// §Built-in Inputs and Outputs: an entry point must not have two built-in
// inputs with the same name, counting the members of structure parameters.
struct In { @builtin(local_invocation_index) li: u32 }
@compute @workgroup_size(1) fn main(in: In, @builtin(local_invocation_index) i: u32) {}
