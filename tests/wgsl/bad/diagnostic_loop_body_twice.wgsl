// expect: 4:48 conflicting diagnostic filters for 'derivative_uniformity' on the same range (the diagnostic attributes of one form name different rules)
// §diagnostic: a loop body's attributes are one syntactic form.
fn f() {
  loop @diagnostic(off, derivative_uniformity) @diagnostic(info, derivative_uniformity) { break; }
}
