// expect: 6:3 this loop never finishes: it has no break and does not always return
// §Behavior Analysis: every statement, reachable or not, has a non-empty
// behavior; an endless loop after a return has none.
fn f() {
  return;
  loop { }
}
