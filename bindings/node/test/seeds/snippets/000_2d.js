// seeds/000_e5339060c8c47559.txt (Mapear el dominio),
// section "Cuando 65535 no basta", lines 38-42, verbatim.
// In scope: n (element count), pass.
const TAM = 64;
const ANCHO = 4096;                                   // grupos en X, fijo
const total = Math.ceil(n / TAM);                     // grupos necesarios
const alto  = Math.ceil(total / ANCHO);               // grupos en Y
pass.dispatchWorkgroups(ANCHO, alto);
