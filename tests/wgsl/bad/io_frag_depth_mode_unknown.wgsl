// expect: 3:45 unknown depth mode 'more' (less or greater)
// §frag_depth: the depth mode is less or greater.
@fragment fn main() -> @builtin(frag_depth, more) f32 { return 1.0; }
