// §Phony Assignment: `_ = e` evaluates e. For a memory view of a whole
// 4096-word workgroup array nothing needs loading; an index that calls a
// function still runs it, once per phony assignment: bump() adds 1 to
// out[0] and returns 5, so after two calls out = [2, 0].
var<workgroup> data: array<u32, 4096>;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
fn bump() -> u32 { out[0] += 1u; return 5u; }
@compute @workgroup_size(1) fn main() {
  _ = data;
  _ = data[bump()];
  _ = out[bump() - 4u];
}
