// §Array Types: a workgroup array's element count may be any
// override-expression, not only an override's name; an alias of such a
// type is the same type (workgroupUniformLoad needs the types to match).
override wgsize: i32 = 4;
alias Pair = array<i32, wgsize * 2>;
var<workgroup> v: Pair;
var<workgroup> w: array<u32, u32(wgsize) + 1u>;
fn first(p: ptr<workgroup, Pair>) -> i32 { return workgroupUniformLoad(&(*p)[0]); }
@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) li: u32) {
  v[li] = i32(li);
  w[li % 5u] = li;
  _ = first(&v);
}
