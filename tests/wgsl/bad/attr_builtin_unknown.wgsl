// expect: 3:37 unknown built-in value
// §Built-in Values: the name must be one of the built-in values.
@compute @workgroup_size(1) fn main(@builtin(thread_id) t: u32) {}
