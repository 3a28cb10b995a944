// expect: 2:5 needs @group and @binding
var t: texture_2d<f32>;
