// expect: 5:15 S cannot be a struct member (it ends in a runtime-sized array)
// §Structure Types: a structure ending in a runtime-sized array is not a
// member of another structure.
struct S { x: array<u32> }
struct T { s: S }
