// §Switch Statement: an abstract selector converts to the concrete type of
// its case selectors (here u32); the abstract cases convert too.
fn f() -> bool {
  switch 1 {
    case 1u: { return true; }
    case 2: { return true; }
    default: { return false; }
  }
}
