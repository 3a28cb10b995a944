// §Function Declarations: a parameter may have a texture or sampler type
// (handles are passed through, like texture_external).
@group(0) @binding(0) var t: texture_2d<i32>;
@group(0) @binding(1) var e: texture_external;
fn first(tex: texture_2d<i32>) -> vec4i { return textureLoad(tex, vec2i(0), 0); }
fn ext(tex: texture_external) -> vec4f { return textureLoad(tex, vec2u(0u)); }
@fragment fn f() -> @location(0) vec4f { return vec4f(first(t)) + ext(e); }
