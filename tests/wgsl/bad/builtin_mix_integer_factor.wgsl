// expect: 4:11 no overload of 'mix'
// §mix: mix(vecN<T>, vecN<T>, T) takes a float T; an i32 factor makes the
// common type vec3<i32>, which has no overload.
const c = mix(vec3(0), vec3(1), 1i);
@compute @workgroup_size(1) fn main() {}
