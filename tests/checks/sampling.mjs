// A JavaScript model of what a WebGPU sampler does, for the 010_* checks:
// Vulkan's texel filtering as WebGPU points to it. Unnormalized u = s * size
// (+ offset); nearest: floor(u); linear: floor(u - 0.5) and the next texel,
// weight frac(u - 0.5); address modes on integer texel coordinates; level of
// detail clamped to [lodMinClamp, lodMaxClamp], magFilter when it is <= 0,
// nearest mipmap filter rounding half down, linear blending two levels.
// Cube maps: major-axis face selection, texels off a face taken from the
// neighbouring face. Arithmetic in doubles: the cases pick coordinates whose
// weights are exact, so a correct implementation matches within the
// cases' tolerance.
//
// A texture is { levels: [{ w, h, d, texel(x, y, z) -> [r, g, b, a] }] }.

export function wrap(i, n, mode) {
  if (mode === 'repeat') return ((i % n) + n) % n;
  if (mode === 'mirror-repeat') {
    const p = (((i % (2 * n)) + 2 * n) % (2 * n)) - n;
    return n - 1 - (p >= 0 ? p : -(1 + p));
  }
  return Math.min(Math.max(i, 0), n - 1);
}

export const samplerDefaults = (s) => ({
  addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge', addressModeW: 'clamp-to-edge',
  magFilter: 'nearest', minFilter: 'nearest', mipmapFilter: 'nearest',
  lodMinClamp: 0, lodMaxClamp: 32, ...s,
});

// major axis -> [face, sc, tc, ma]
export function cubeFace([x, y, z]) {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  if (ax >= ay && ax >= az) return x >= 0 ? [0, -z, -y, ax] : [1, z, -y, ax];
  if (ay >= az) return y >= 0 ? [2, x, z, ay] : [3, x, -z, ay];
  return z >= 0 ? [4, x, -y, az] : [5, -x, -y, az];
}

function unface(f, sc, tc) {
  return [[1, -tc, -sc], [-1, -tc, sc], [sc, 1, tc], [sc, -1, -tc], [sc, -tc, 1], [-sc, -tc, -1]][f];
}

// texel (i, j, k) of level lv through the address modes (cube: seamless)
function texel(tex, dim, s, lv, i, j, k, layer, face) {
  const L = tex.levels[lv];
  if (dim === 'cube') {
    const n = L.w;
    if (i < 0 || i >= n || j < 0 || j >= n) {
      if ((i < 0 || i >= n) && (j < 0 || j >= n)) j = Math.min(Math.max(j, 0), n - 1);
      const d = unface(face, (2 * (i + 0.5)) / n - 1, (2 * (j + 0.5)) / n - 1);
      const [f2, sc, tc, ma] = cubeFace(d);
      face = f2;
      i = Math.min(Math.max(Math.floor(0.5 * (sc / ma + 1) * n), 0), n - 1);
      j = Math.min(Math.max(Math.floor(0.5 * (tc / ma + 1) * n), 0), n - 1);
    }
    return L.texel(i, j, layer + face);
  }
  if (dim === '3d') return L.texel(wrap(i, L.w, s.addressModeU), wrap(j, L.h, s.addressModeV), wrap(k, L.d, s.addressModeW));
  return L.texel(wrap(i, L.w, s.addressModeU), wrap(j, L.h, s.addressModeV), layer);
}

// one filtered value at level lv; co are normalized (cube: face s, t)
export function filter(tex, dim, s, co, lv, linear, { offset = [0, 0, 0], layer = 0, face = 0, cmp = null } = {}) {
  const L = tex.levels[lv];
  const size = [L.w, dim === 'cube' ? L.w : L.h, L.d];
  const n = dim === '3d' ? 3 : 2;
  const ax = [];
  for (let k = 0; k < n; k++) {
    const u = co[k] * size[k] + (dim === 'cube' ? 0 : offset[k]);
    if (linear) { const f = u - 0.5; ax.push([Math.floor(f), f - Math.floor(f)]); }
    else ax.push([Math.floor(u), 0]);
  }
  while (ax.length < 3) ax.push([0, 0]);
  const value = (v) => (cmp ? [cmp(v[0]) ? 1 : 0, 0, 0, 1] : v);
  if (!linear) return value(texel(tex, dim, s, lv, ax[0][0], ax[1][0], ax[2][0], layer, face));
  const acc = [0, 0, 0, 0];
  for (let c = 0; c < 1 << n; c++) {
    let w = 1;
    const ii = [0, 1, 2].map((k) => ax[k][0] + (k < n ? (c >> k) & 1 : 0));
    for (let k = 0; k < n; k++) w *= (c >> k) & 1 ? ax[k][1] : 1 - ax[k][1];
    const v = value(texel(tex, dim, s, lv, ii[0], ii[1], ii[2], layer, face));
    for (let ch = 0; ch < 4; ch++) acc[ch] += w * v[ch];
  }
  if (cmp) { acc[1] = 0; acc[2] = 0; acc[3] = 1; }
  return acc;
}

// textureSampleLevel / textureSampleGrad after the level of detail
export function sampleLod(tex, dim, sampler, co, lambda, opts = {}) {
  const s = samplerDefaults(sampler);
  if (Number.isNaN(lambda)) lambda = 0;
  lambda = Math.min(Math.max(lambda, s.lodMinClamp), s.lodMaxClamp);
  const linear = (lambda <= 0 ? s.magFilter : s.minFilter) === 'linear';
  const q = tex.levels.length - 1;
  const d = Math.min(Math.max(lambda, 0), q);
  let c = co, o = opts;
  if (dim === 'cube') {
    const [face, sc, tc, ma] = cubeFace(co);
    c = [0.5 * (sc / ma + 1), 0.5 * (tc / ma + 1)];
    o = { ...opts, face };
  }
  if (s.mipmapFilter !== 'linear') return filter(tex, dim, s, c, Math.ceil(d + 0.5) - 1, linear, o);
  const hi = Math.floor(d), lo = Math.min(hi + 1, q), delta = d - hi;
  const a = filter(tex, dim, s, c, hi, linear, o);
  if (delta === 0 || lo === hi) return a;
  const b = filter(tex, dim, s, c, lo, linear, o);
  return a.map((x, k) => (1 - delta) * x + delta * b[k]);
}

// level of detail from gradients (2D / 3D, isotropic)
export function lambdaGrad(tex, dim, ddx, ddy) {
  const L = tex.levels[0];
  const sz = [L.w, L.h, dim === '3d' ? L.d : 0];
  const len = (g) => Math.hypot(...g.map((x, k) => x * (sz[k] ?? 0)));
  return Math.log2(Math.max(len(ddx), len(ddy)));
}

// textureGather's four texels: (umin, vmax), (umax, vmax), (umax, vmin), (umin, vmin)
export function gather(tex, dim, sampler, co, comp, { offset = [0, 0], layer = 0, cmp = null } = {}) {
  const s = samplerDefaults(sampler);
  let c = co, face = 0;
  if (dim === 'cube') {
    const [f, sc, tc, ma] = cubeFace(co);
    c = [0.5 * (sc / ma + 1), 0.5 * (tc / ma + 1)];
    face = f;
  }
  const L = tex.levels[0];
  const off = dim === 'cube' ? [0, 0] : offset;
  const fu = c[0] * L.w + off[0] - 0.5, fv = c[1] * (dim === 'cube' ? L.w : L.h) + off[1] - 0.5;
  const i0 = Math.floor(fu), j0 = Math.floor(fv);
  return [[0, 1], [1, 1], [1, 0], [0, 0]].map(([du, dv]) => {
    const v = texel(tex, dim, s, 0, i0 + du, j0 + dv, 0, layer, face);
    return cmp ? (cmp(v[0]) ? 1 : 0) : v[comp];
  });
}

// texel words of an rgba16float texture level as [r, g, b, a] numbers
export function f16(bits) {
  const s = bits & 0x8000 ? -1 : 1, e = (bits >> 10) & 31, m = bits & 1023;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

export function rgba16fLevel(u32, at, w, h, d = 1) {
  return { w, h, d, texel: (x, y, z) => {
    const k = at + 2 * (x + w * (y + h * z));
    return [u32[k] & 0xffff, u32[k] >>> 16, u32[k + 1] & 0xffff, u32[k + 1] >>> 16].map(f16);
  } };
}
