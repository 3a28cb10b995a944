// expect: 5:11 pow's base is outside its domain
// §pow: the scalar domain excludes x < 0 (the result may be computed as
// exp2(y * log2(x))), even where y is an integer; outside the domain a
// const-expression evaluates to NaN, a shader-creation error.
const c = pow(-2.0, 2.0);
@compute @workgroup_size(1) fn main() {}
