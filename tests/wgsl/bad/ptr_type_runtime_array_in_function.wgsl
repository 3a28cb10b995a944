// expect: 3:11 a pointer to array<i32> in function memory: no variable could have that store type and access mode (runtime-sized arrays are in storage memory only)
// §Memory Views: runtime-sized arrays live in storage memory only.
alias p = ptr<function, array<i32>>;
