// seeds/001_b7a5983b4ef64cf6.txt (@workgroup_size y los límites de la especificación),
// section "Las tres formas del atributo", lines 9-11, verbatim.
@compute @workgroup_size(64)        fn a() { }   // 64 x 1 x 1 = 64 invocaciones
@compute @workgroup_size(8, 8)      fn b() { }   //  8 x 8 x 1 = 64 invocaciones
@compute @workgroup_size(4, 4, 4)   fn c() { }   //  4 x 4 x 4 = 64 invocaciones
