// §diagnostic: attributes of different syntactic forms may name one rule
// with different severities: a switch statement's and its body's, a loop
// statement's and its body's, a function's and its body statement's.
@diagnostic(off, derivative_uniformity) fn f() {
  @diagnostic(info, derivative_uniformity) switch 0 @diagnostic(warning, derivative_uniformity) {
    case 0 @diagnostic(error, derivative_uniformity) { }
    default @diagnostic(off, derivative_uniformity) { }
  }
  @diagnostic(off, derivative_uniformity) loop @diagnostic(info, derivative_uniformity) { break; }
  @diagnostic(off, derivative_uniformity) { }
}
