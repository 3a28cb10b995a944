// expect: 3:11 a pointer to ptr<private, i32> in storage memory: no variable could have that store type and access mode (not a storable type)
// §Memory Views: the store type is storable; pointers are not.
alias p = ptr<storage, ptr<private, i32>>;
