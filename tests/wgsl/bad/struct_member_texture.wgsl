// expect: 3:15 texture_2d<f32> cannot be a struct member
// §Structure Types: members are plain types; a texture is not.
struct S { t: texture_2d<f32> }
