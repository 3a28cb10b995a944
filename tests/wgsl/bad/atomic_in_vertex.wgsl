// expect: 4:13 'atomicAdd' is only allowed in compute and fragment shaders (reached from vertex entry point 'main')
// §Atomic Built-in Functions: atomics must not be used in a vertex shader.
@group(0) @binding(0) var<storage, read_write> a: atomic<u32>;
fn bump() { atomicAdd(&a, 1u); }
@vertex fn main() -> @builtin(position) vec4f { bump(); return vec4f(); }
