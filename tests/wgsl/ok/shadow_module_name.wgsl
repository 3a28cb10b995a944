// §Declaration and Scope: a function-scope declaration may shadow a
// module-scope one; an inner block may shadow an outer one.
const a = 1;
fn f() -> i32 {
  let a = 2;
  {
    let a = 3.0;
  }
  return a;
}
@compute @workgroup_size(1) fn main() {}
