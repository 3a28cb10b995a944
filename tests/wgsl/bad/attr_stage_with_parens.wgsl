// expect: 3:1 '@vertex' takes no arguments (and no parentheses)
// §Attributes: @vertex is written without arguments or parentheses.
@vertex() fn main() -> @builtin(position) vec4f { return vec4f(); }
