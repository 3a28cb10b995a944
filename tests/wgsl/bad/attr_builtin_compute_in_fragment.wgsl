// expect: 3:16 compute shader input
// §Built-in Values: workgroup_id is a compute shader input only.
@fragment fn f(@builtin(workgroup_id) w: vec3u) {}
