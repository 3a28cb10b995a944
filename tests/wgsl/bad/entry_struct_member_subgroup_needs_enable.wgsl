// expect: 3:13 @builtin(subgroup_size) needs 'enable subgroups;'
// §subgroup_size: a subgroups built-in value, in a structure too.
struct In { @builtin(subgroup_size) s: u32 }
@compute @workgroup_size(1) fn main(in: In) {}
