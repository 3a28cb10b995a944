// expect: 3:17 ptr<function, u32> is not storable: no variable holds a pointer
// §Variable and Value Declarations: a variable's store type is storable.
var<private> p: ptr<function, u32>;
