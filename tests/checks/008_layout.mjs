// Model of kernels/008_layout.wgsl. The byte offset of every member comes
// from WGSL's layout rules (§Alignment and Size), computed here from a
// description of the types:
//   scalar: align 4, size 4; vecN: align 8/16/16, size 4N;
//   matCxR: align and column stride of vecR rounded up, size C * stride;
//   array<E, N>: align(E), stride roundUp(align(E), size(E));
//   struct: member offset roundUp(@align or align(member), end of previous),
//           member size @size or size(member); align = max, size rounded up.
// Each computed offset is then checked against the offset worked out by
// hand in the kernel's comments, and the values the kernel stores are
// placed at those offsets (one word per 4 bytes).
const roundUp = (k, n) => Math.ceil(n / k) * k;
const scalar = (t) => ({ kind: 'scalar', t, align: 4, size: 4 });
const vec = (n, t) => ({ kind: 'vec', n, t, align: n === 2 ? 8 : 16, size: 4 * n });
const mat = (c, r) => {
  const col = vec(r, 'f32');
  const stride = roundUp(col.align, col.size);
  return { kind: 'mat', c, r, t: 'f32', align: col.align, stride, size: c * stride };
};
const array = (e, n) => {
  const stride = roundUp(e.align, e.size);
  return { kind: 'array', e, n, align: e.align, stride, size: n * stride };
};
function struct(members) {
  let off = 0, align = 1;
  const fields = {};
  for (const [name, ty, attr = {}] of members) {
    const a = attr.align ?? ty.align;
    off = roundUp(a, off);
    fields[name] = { ty, offset: off };
    off += attr.size ?? ty.size;
    align = Math.max(align, a);
  }
  return { kind: 'struct', fields, align, size: roundUp(align, off) };
}
const f32 = scalar('f32'), u32 = scalar('u32'), i32 = scalar('i32');

const A = struct([['v', vec(3, 'f32')], ['s', u32], ['w', vec(3, 'u32')], ['t', f32],
  ['u', u32, { align: 16 }], ['k', i32, { size: 12 }], ['x', vec(2, 'f32')]]);
const Inner = struct([['a', u32], ['b', vec(3, 'f32')]]);
const B = struct([['p', f32], ['inner', Inner], ['q', u32], ['arr3', array(vec(3, 'f32'), 2)],
  ['m', mat(3, 3)], ['r', u32], ['m2', mat(2, 2)], ['m3', mat(3, 2)], ['z', u32, { align: 32 }],
  ['pairs', array(vec(2, 'u32'), 3)]]);
const Elem = struct([['v', vec(3, 'u32')], ['s', f32], ['h', vec(2, 'u32')]]);
const Top = struct([['a', A], ['b', B], ['n', u32], ['two', array(A, 2)], ['elems', array(Elem, 0)]]);
const Pad16 = struct([['x', u32, { size: 16 }]]);
const UInner = struct([['a', vec(2, 'u32')], ['b', u32]]);
const U = struct([['k', u32], ['inner', UInner, { align: 16 }], ['after', u32],
  ['arr', array(Pad16, 3), { align: 16 }], ['v', vec(3, 'f32')], ['f', f32], ['m', mat(2, 3)],
  ['w', vec(4, 'u32')], ['arr4', array(vec(4, 'i32'), 2)]]);

// The offsets of the kernel's comments, worked out by hand.
const hand = [
  [A, { v: 0, s: 12, w: 16, t: 28, u: 32, k: 36, x: 48 }, 16, 64],
  [Inner, { a: 0, b: 16 }, 16, 32],
  [B, { p: 0, inner: 16, q: 48, arr3: 64, m: 96, r: 144, m2: 152, m3: 168, z: 192, pairs: 200 }, 32, 224],
  [Elem, { v: 0, s: 12, h: 16 }, 16, 32],
  [Top, { a: 0, b: 64, n: 288, two: 304, elems: 432 }, 32, null],   // runtime-sized: no size
  [UInner, { a: 0, b: 8 }, 8, 16],
  [U, { k: 0, inner: 16, after: 32, arr: 48, v: 96, f: 108, m: 112, w: 144, arr4: 160 }, 16, 192],
];
for (const [st, offs, align, size] of hand) {
  for (const [name, off] of Object.entries(offs))
    if (st.fields[name].offset !== off) throw new Error(`layout: ${name} at ${st.fields[name].offset}, by hand ${off}`);
  if (st.align !== align || (size !== null && st.size !== size)) throw new Error(`layout: struct align ${st.align} size ${st.size}, by hand ${align} ${size}`);
}
if (B.fields.m.ty.stride !== 16 || B.fields.m2.ty.stride !== 8 || U.fields.m.ty.stride !== 16) throw new Error('layout: column strides');
if (U.fields.arr.ty.stride !== 16 || Top.fields.elems.ty.stride !== 32) throw new Error('layout: array strides');

// The uniform rules hold for U (else the kernel would not compile).
for (const [name, fld] of Object.entries(U.fields)) {
  if ((fld.ty.kind === 'struct' || fld.ty.kind === 'array') && fld.offset % 16) throw new Error(`uniform: ${name} not at a multiple of 16`);
  if (fld.ty.kind === 'array' && fld.ty.stride % 16) throw new Error(`uniform: ${name} stride`);
}

export default function ({ spec, init }) {
  const topWords = spec.buffers.find((b) => b.name === 'top');
  const nTop = init.top.u32.length;
  const top = new Array(nTop).fill(null);
  const put = (byte, v) => { top[byte / 4] = v; };
  const putVec = (byte, vs) => vs.forEach((v, k) => put(byte + 4 * k, v));
  const putMat = (byte, m, cols) => cols.forEach((c, j) => putVec(byte + j * m.stride, c));
  const uw = Array.from(init.uni.u32), uf = Array.from(init.uni.f32), ui = Array.from(init.uni.i32);

  const a0 = Top.fields.a.offset, F = A.fields;
  function placeA(base, v) {
    putVec(base + F.v.offset, v.v); put(base + F.s.offset, v.s); putVec(base + F.w.offset, v.w);
    put(base + F.t.offset, v.t); put(base + F.u.offset, v.u); put(base + F.k.offset, v.k);
    putVec(base + F.x.offset, v.x);
  }
  placeA(a0, { v: [1, 2, 3], s: 10, w: [11, 12, 13], t: 14, u: 15, k: -16, x: [17, 18] });

  const b0 = Top.fields.b.offset, G = B.fields;
  put(b0 + G.p.offset, 20);
  put(b0 + G.inner.offset + Inner.fields.a.offset, 21);
  putVec(b0 + G.inner.offset + Inner.fields.b.offset, [22, 23, 24]);
  put(b0 + G.q.offset, 25);
  putVec(b0 + G.arr3.offset, [26, 27, 28]);
  putVec(b0 + G.arr3.offset + G.arr3.ty.stride, [29, 30, 31]);
  putMat(b0 + G.m.offset, G.m.ty, [[32, 33, 34], [35, 36, 37], [38, -39, 40]]);
  put(b0 + G.r.offset, 41);
  putMat(b0 + G.m2.offset, G.m2.ty, [[42, 43], [44, 45]]);
  putMat(b0 + G.m3.offset, G.m3.ty, [[46, 47], [48, 49], [50, 51]]);
  put(b0 + G.z.offset, 52);
  for (let j = 0; j < 3; j++) putVec(b0 + G.pairs.offset + j * G.pairs.ty.stride, [53 + 2 * j, 54 + 2 * j]);

  const es = Top.fields.elems.ty.stride, e0 = Top.fields.elems.offset;
  const count = Math.floor((nTop * 4 - e0) / es);   // arrayLength: what fits after the fixed part
  put(Top.fields.n.offset, count);
  const makeA = (b, tag) => ({ v: [b, b + 1, b + 2], s: tag, w: [tag + 1, tag + 2, tag + 3], t: b + 3, u: tag + 4, k: -tag - 5, x: [b + 4, b + 5] });
  const t0 = Top.fields.two.offset, ts = Top.fields.two.ty.stride;
  placeA(t0, makeA(60, 70));
  const a1 = makeA(80, 90); a1.w[1] = 1000; a1.x[0] = -1;
  placeA(t0 + ts, a1);
  for (let i = 0; i < 64; i++) {
    const b = e0 + i * es;
    putVec(b + Elem.fields.v.offset, [i, i * 2, i * 3]);
    put(b + Elem.fields.s.offset, i + 0.5);
    putVec(b + Elem.fields.h.offset, [i + 1000, i + 2000]);
  }

  // ucopy: the uniform's words (padding left open), then the changes
  const ucopy = new Array(uw.length).fill(null);
  const H = U.fields;
  const word = (byte, arr) => arr[byte / 4];
  const copyU = (byte, arr) => { ucopy[byte / 4] = word(byte, arr); };
  copyU(H.k.offset, uw);
  for (let k = 0; k < 2; k++) copyU(H.inner.offset + UInner.fields.a.offset + 4 * k, uw);
  copyU(H.inner.offset + UInner.fields.b.offset, uw);
  copyU(H.after.offset, uw);
  for (let j = 0; j < 3; j++) copyU(H.arr.offset + j * H.arr.ty.stride, uw);
  for (let k = 0; k < 3; k++) copyU(H.v.offset + 4 * k, uf);
  copyU(H.f.offset, uf);
  for (let j = 0; j < 2; j++) for (let k = 0; k < 3; k++) copyU(H.m.offset + j * H.m.ty.stride + 4 * k, uf);
  for (let k = 0; k < 4; k++) copyU(H.w.offset + 4 * k, uw);
  for (let j = 0; j < 2; j++) for (let k = 0; k < 4; k++) copyU(H.arr4.offset + j * 16 + 4 * k, ui);
  const ib = H.inner.offset + UInner.fields.b.offset;
  ucopy[ib / 4] = word(ib, uw) + 100;
  ucopy[(H.m.offset + H.m.ty.stride + 8) / 4] = Math.fround(word(H.m.offset + 4, uf) * 2);
  ucopy[(H.arr.offset + 2 * 16) / 4] = word(H.arr.offset, uw) + word(H.arr.offset + 16, uw);
  ucopy[(H.arr4.offset + 16 + 12) / 4] = word(H.arr4.offset, ui) - word(H.arr4.offset + 16 + 8, ui);
  ucopy[(H.v.offset + 4) / 4] = word(H.f.offset, uf);
  for (let k = 0; k < 4; k++) ucopy[(H.w.offset + 4 * k) / 4] = word(H.w.offset + 4 * (3 - k), uw);

  // words no member covers are 'pad' in the case's record type; the model
  // leaves them open too
  const rec = [];
  for (const t of topWords.type) { const m = /^(\w+)\*(\d+)$/.exec(t); for (let k = 0; k < (m ? +m[2] : 1); k++) rec.push(m ? m[1] : t); }
  // ... and the two agree: every member word is a typed word, every
  // padding word a 'pad'
  top.forEach((v, k) => {
    if ((v === null) !== (rec[k] === 'pad')) throw new Error(`layout: word ${k} is ${rec[k]} in the case, ${v === null ? 'padding' : 'a member'} here`);
  });
  return { top, ucopy };
}
