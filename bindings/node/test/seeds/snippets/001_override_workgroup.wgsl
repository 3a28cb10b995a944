// seeds/001_b7a5983b4ef64cf6.txt (@workgroup_size y los límites de la especificación),
// section "Parametrizar el tamaño sin duplicar el shader", lines 77-78, verbatim.
// The lesson says this does not compile; WGSL says it does (docs/spec-notes.md).
override TAM: u32 = 64u;
var<workgroup> buf: array<f32, TAM>;   // ERROR: TAM no es const
