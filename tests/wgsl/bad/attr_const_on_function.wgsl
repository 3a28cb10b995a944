// expect: 3:1 @const marks built-in functions only; it must not be applied to a user-defined function
// §const: the attribute must not be applied to a user-defined function.
@const fn f() -> i32 { return 1; }
