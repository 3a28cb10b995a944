// expect: 4:16 '@vertex' is not allowed here
// §Attributes: a shader stage attribute applies to a function, not to its
// return type.
fn helper() -> @vertex vec4f { return vec4f(); }
