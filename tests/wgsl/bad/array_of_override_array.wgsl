// expect: 4:17 array<u32, n> cannot be an array element type (its size is not fixed at shader creation)
// §Array Types: the element type has a creation-fixed footprint.
override n: u32;
alias T = array<array<u32, n>, 4>;
