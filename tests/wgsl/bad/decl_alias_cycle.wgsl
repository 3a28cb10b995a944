// expect: 4:7 defined in terms of itself
// §Type Aliases / §Declaration and Scope: module-scope declarations must
// not form a cycle.
alias A = array<B, 2>;
alias B = array<A, 2>;
@compute @workgroup_size(1) fn main() {}
