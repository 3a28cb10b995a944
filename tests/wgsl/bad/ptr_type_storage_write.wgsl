// expect: 3:11 a pointer to u32 in storage memory: no variable could have that store type and access mode (storage memory is read or read_write)
// §Address Spaces: storage memory is accessed read or read_write.
alias p = ptr<storage, u32, write>;
