// Arrays: fixed-size arrays of scalars, vectors, structs and arrays in
// function, private and workgroup memory, indexed at run time (always in
// bounds); runtime-sized arrays with arrayLength, one of them the last
// member of a struct; override-sized workgroup arrays; whole arrays and
// structs copied between function, private, workgroup and storage memory
// and through let values.
override N: u32 = 64u;   // workgroup size and the length of `tile`

struct Item {
  a: vec2u,              // 0
  b: array<u32, 3>,      // 8
}                        // 24 bytes

struct Holder {
  count: u32,
  items: array<Item>,    // at byte 8, stride 24
}

struct Fixed {
  wg_copy: array<array<u32, 8>, 2>,   // 0
  from_private: array<Item, 2>,       // 64
  grid: array<array<u32, 4>, 3>,      // 112
}

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> holder: Holder;
@group(0) @binding(2) var<storage, read_write> fixed: Fixed;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

const K = 16u;

var<private> pa: array<u32, 16>;
var<private> pitems: array<Item, 2>;
var<workgroup> tile: array<vec2u, N>;
var<workgroup> wga: array<u32, 8>;
var<workgroup> witems: array<Item, 4>;

@compute @workgroup_size(N)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3u,
        @builtin(global_invocation_id) gid: vec3u) {
  let x = gid.x;
  let o = x * K;

  // runtime-sized arrays
  let n = arrayLength(&data);
  let m = arrayLength(&holder.items);
  if x < n {
    data[n - 1u - x] += x * 1000u + n;
  }
  if x == 0u {
    holder.count = m;
  }

  // function memory: arrays of vectors, of arrays, of structs
  var fa: array<vec3u, 5>;
  for (var k = 0u; k < 5u; k++) {
    fa[k] = vec3u(k, x, k * x);
  }
  fa[x % 5u].y += 100u;
  fa[(x + 2u) % 5u][x % 3u] = 7u;
  let snapshot = fa;               // a copy: later writes do not reach it
  fa[0] = vec3u(9u);
  let s = snapshot[x % 5u];
  out[o + 0u] = s.x + s.y * 10u + s.z * 1000u;
  out[o + 1u] = snapshot[0].x + snapshot[0].y + fa[0].z * 100000u;
  var grid: array<array<u32, 4>, 3>;
  for (var r = 0u; r < 3u; r++) {
    for (var c = 0u; c < 4u; c++) {
      grid[r][c] = r * 10u + c + x;
    }
  }
  grid[x % 3u][(x / 3u) % 4u] = 555u;
  out[o + 2u] = grid[x % 3u][(x / 3u) % 4u] + grid[2][3] * 1000u;
  let row = grid[(x + 1u) % 3u];
  out[o + 3u] = row[0] + row[1] * 2u + row[2] * 3u + row[3] * 4u;
  var items: array<Item, 3>;
  items[x % 3u] = Item(vec2u(x, x + 1u), array(x * 2u, x * 3u, x * 4u));
  items[(x + 1u) % 3u].b[x % 3u] = 42u;
  let it = items[(x + 1u) % 3u];
  out[o + 4u] = it.a.x + it.b[0] + it.b[1] * 100u + it.b[2] * 10000u;

  // private memory
  for (var k = 0u; k < 16u; k++) {
    pa[k] = k * k + x;
  }
  pa[(x * 5u) % 16u] = 0u;
  out[o + 5u] = pa[x % 16u] + pa[15u - x % 16u] * 1000u;
  pitems[0] = items[x % 3u];                  // function -> private
  pitems[1] = items[(x + 1u) % 3u];
  if x < m {
    holder.items[x] = pitems[x % 2u];         // private -> storage
    let back = holder.items[x];               // storage -> value
    out[o + 6u] = back.a.x + back.a.y * 1000u + back.b[2] * 7u;
  }
  if x == 5u {
    fixed.from_private = pitems;              // a whole private array -> storage
  }
  if x == 6u {
    fixed.grid = grid;                        // an array of arrays -> storage
  }

  // workgroup memory, an override-sized array among it
  tile[lid] = vec2u(x, lid * 2u);
  if lid < 8u {
    wga[lid] = x * 7u + 1u;
  }
  if lid < 4u {
    witems[lid] = items[lid % 3u];            // function -> workgroup
  }
  workgroupBarrier();
  let t = tile[N - 1u - lid];
  out[o + 7u] = t.x + t.y * 1000u;
  let wcopy = wga;                            // workgroup -> value
  out[o + 8u] = wcopy[lid % 8u] + wcopy[7] * 1000u;
  let wi = witems[lid % 4u];
  out[o + 9u] = wi.a.y + wi.b[lid % 3u] * 100u;
  if lid == 0u {
    fixed.wg_copy[wid.x] = wga;               // workgroup -> storage
  }
  var copied = witems;                        // workgroup -> function
  copied[lid % 4u].a.x += 5000u;
  out[o + 10u] = copied[lid % 4u].a.x + witems[lid % 4u].a.x;
}
