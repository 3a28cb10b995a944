// expect: 8:10 case selector type i32 does not match the selector
// §Switch Statement: the selector and case selectors have one type; an
// abstract selector takes the concrete case type, and u32 and i32 cases do
// not meet.
fn f() {
  switch 1 {
    case 1u: {}
    case 2i: {}
    default: {}
  }
}
