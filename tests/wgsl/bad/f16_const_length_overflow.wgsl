// expect: 4:11 not a finite f16
enable f16;
// length is inherited from sqrt(dot(x, x)): 60000^2 overflows f16
const l = length(vec2h(60000h, 60000h));
@compute @workgroup_size(64) fn main() {}
