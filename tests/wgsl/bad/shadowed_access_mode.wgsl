// expect: 5:27 'read' here is the module-scope declaration of that name, which hides the access mode 'read' (rename the declaration)
// §Predeclared Enumerants: a module-scope declaration named 'read' hides
// the access mode of that name.
var<private> read: i32;
@group(0) @binding(0) var<storage, read> a: i32;
