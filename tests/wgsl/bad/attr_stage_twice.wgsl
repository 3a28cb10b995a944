// expect: 3:29 a function has at most one shader stage attribute (@compute, @vertex or @fragment)
// §Entry Point Declaration: a function has one shader stage attribute.
@compute @workgroup_size(1) @fragment fn main() {}
