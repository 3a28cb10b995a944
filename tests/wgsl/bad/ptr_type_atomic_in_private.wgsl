// expect: 4:11 a pointer to atomic<u32> in private memory: no variable could have that store type and access mode (atomics are in storage and workgroup memory only)
// §Memory Views: a pointer type must be one a variable could be declared
// with; atomics live in storage and workgroup memory only.
alias p = ptr<private, atomic<u32>>;
