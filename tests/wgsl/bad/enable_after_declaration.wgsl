// expect: 4:1 directives must come before any declaration
// §Directives: directives come before any declaration.
const a = 1;
enable f16;
@compute @workgroup_size(1) fn main() {}
