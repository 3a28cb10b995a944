// expect: 4:41 conflicting diagnostic filters for 'derivative_uniformity' on the same range (the diagnostic attributes of one form name different rules)
// §diagnostic: the diagnostic attributes of one syntactic form specify
// different triggering rules, even with one severity.
@diagnostic(off, derivative_uniformity) @diagnostic(off, derivative_uniformity) fn f() {}
