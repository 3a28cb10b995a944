// expect: 4:9 a pointer to array<u32, n> in private memory: no variable could have that store type and access mode (override-sized arrays are in workgroup memory only)
// §Memory Views: override-sized arrays live in workgroup memory only.
override n: u32;
fn f(a: ptr<private, array<u32, n>>) {}
