// expect: 3:35 vertex entry point 'main' must return @builtin(position)
// §position: a vertex shader returns the position built-in value.
@vertex fn main() -> @location(0) vec4f { return vec4f(); }
