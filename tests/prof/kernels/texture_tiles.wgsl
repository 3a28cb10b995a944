// The image8x8 access on textures: a 64x64 r32float image read and written
// by gid.xy. Textures are stored in 2D tiles (docs/profiler.md: a 128-byte
// tile of 4-byte texels is 8 x 4), so at W = 32 the 8 x 4 patch of an 8x8
// workgroup's subgroup is one tile per request, where the same access to
// a row-major buffer takes 4 sectors. A row of 64 (entry point `row`) is
// the other way round: 32 texels of one row, 4 tiles per request.
@group(0) @binding(0) var imagen: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var salida: texture_storage_2d<r32float, write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  textureStore(salida, gid.xy, textureLoad(imagen, gid.xy) * 2.0);
}

@compute @workgroup_size(64, 1)
fn row(@builtin(global_invocation_id) gid: vec3u) {
  textureStore(salida, gid.xy, textureLoad(imagen, gid.xy) * 2.0);
}
