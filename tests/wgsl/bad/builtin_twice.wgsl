// expect: 5:40 @builtin(local_invocation_index) is used by two inputs of
// A built-in value may be an entry point input only once (Dawn rejects it
// too, pointing at the function).
@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i: u32,
                                       @builtin(local_invocation_index) j: u32) {
}
