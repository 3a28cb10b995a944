// §frag_depth: with the language extension fragment_depth the built-in
// takes a depth mode, less or greater.
@fragment fn less_depth() -> @builtin(frag_depth, less) f32 { return 0.0; }
@fragment fn greater_depth() -> @builtin(frag_depth, greater) f32 { return 1.0; }
