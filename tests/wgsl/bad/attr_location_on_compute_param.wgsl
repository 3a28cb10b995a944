// expect: 3:50 not @location
// §Entry Point IO: compute shaders have no user-defined inputs (@location).
@compute @workgroup_size(1) fn main(@location(0) x: f32) {}
