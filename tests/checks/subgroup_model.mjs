// Helpers for the models of the 006_subgroup_* kernels: how lockstep forms
// subgroups (docs/spec-notes.md, "Subgroups"), written from that text alone.
//   - A workgroup of n invocations is ceil(n / W) subgroups; lane l of
//     subgroup s is the invocation with local_invocation_index s*W + l; the
//     lanes past n are never active.
//   - The active lanes of an operation are those that execute it.
//   - The kernels store a shuffle, broadcast or quad read only where its
//     source lane is active (anything else is indeterminate in WGSL), so
//     fromLane() is told what the kernel stores instead.
//   - Float reductions and scans combine in lane order, rounding to f32 at
//     every step (lockstep's order); an exclusive scan gives its lowest
//     active lane 0 (add) or 1 (mul), and every other lane the inclusive
//     value of the active lane before it. WGSL leaves the order open, so the
//     cases compare these words within an error bound (see their notes).
export const f32 = Math.fround;

const cv = new DataView(new ArrayBuffer(4));
export function bits(x) { cv.setFloat32(0, x, true); return cv.getUint32(0, true); }
export function fromBits(u) { cv.setUint32(0, u >>> 0, true); return cv.getFloat32(0, true); }

/** The width the model runs at, from verify.mjs (--width, or the result's subgroupSize). */
export function widthOf(width) {
  if (![8, 16, 32, 64].includes(width)) throw new Error(`the model needs the subgroup width (8, 16, 32 or 64), got ${width}`);
  return width;
}

/**
 * Calls fn(lanes) for every subgroup of a workgroup of `wg` invocations at
 * width w; lanes[l] is the local index of lane l when it is active (active(li)
 * says so and li < wg), else -1.
 */
export function forEachSubgroup(wg, w, active, fn) {
  for (let s = 0; s * w < wg; s++) {
    const lanes = [];
    for (let l = 0; l < w; l++) {
      const li = s * w + l;
      lanes.push(li < wg && active(li) ? li : -1);
    }
    fn(lanes, s);
  }
}

/** Whether lane src is in the subgroup and active. */
export function isActive(lanes, src) {
  return src >= 0 && src < lanes.length && lanes[src] >= 0;
}

/** v[src] when lane src is active, else `none`. */
export function fromLane(v, lanes, src, none) {
  return isActive(lanes, src) ? v[src] : none;
}

/** Reduction of v (a value per lane) over the active lanes in lane order. */
export function reduce(v, lanes, op) {
  let acc, started = false;
  for (let l = 0; l < lanes.length; l++) {
    if (lanes[l] < 0) continue;
    acc = started ? op(acc, v[l]) : v[l];
    started = true;
  }
  return acc;
}

/** Inclusive (or exclusive, with identity id) scan per lane; undefined on inactive lanes. */
export function scan(v, lanes, op, exclusive, id) {
  const r = new Array(lanes.length);
  let acc = id, started = false;
  for (let l = 0; l < lanes.length; l++) {
    if (lanes[l] < 0) continue;
    const next = started ? op(acc, v[l]) : v[l];
    r[l] = exclusive ? acc : next;
    acc = next;
    started = true;
  }
  return r;
}

/**
 * The same reduction in another order, as hardware often combines lanes: a
 * butterfly over all W lanes (step d pairs lane l with l ^ d, the lower lane
 * on the left), an inactive lane contributing nothing. Same result as
 * reduce() for the integer operations; for f32 another rounding.
 */
export function reduceTree(v, lanes, op) {
  let x = lanes.map((li, l) => (li >= 0 ? v[l] : undefined));
  for (let d = 1; d < x.length; d *= 2) {
    x = x.map((a, l) => {
      const b = x[l ^ d];
      if (a === undefined) return b;
      if (b === undefined) return a;
      return l & d ? op(b, a) : op(a, b);
    });
  }
  return x[lanes.findIndex((li) => li >= 0)];
}

/** The same scan in another order: Hillis-Steele steps (lane l adds lane l - d). */
export function scanTree(v, lanes, op, exclusive, id) {
  let x = lanes.map((li, l) => (li >= 0 ? v[l] : undefined));
  for (let d = 1; d < x.length; d *= 2) {
    x = x.map((b, l) => {
      const a = l >= d ? x[l - d] : undefined;
      if (a === undefined) return b;
      if (b === undefined) return a;
      return op(a, b);
    });
  }
  const r = new Array(lanes.length);
  let prev = id;
  for (let l = 0; l < lanes.length; l++) {
    if (lanes[l] < 0) continue;
    r[l] = exclusive ? prev : x[l];
    prev = x[l];
  }
  return r;
}

// The operations on 32-bit words (u32, i32) and on f32 values.
export const addU = (a, b) => (a + b) >>> 0;
export const mulU = (a, b) => Math.imul(a, b) >>> 0;
export const addI = (a, b) => (a + b) | 0;
export const mulI = (a, b) => Math.imul(a, b);
export const addF = (a, b) => f32(a + b);
export const mulF = (a, b) => f32(a * b);

/** The case's three masks: MODE 0 all, 1 i % 3 == 0, 2 all but i % 5 == 1. */
export const MODES = [() => true, (li) => li % 3 === 0, (li) => li % 5 !== 1];

/** The inputs u, s, f of invocation g (N invocations), as the kernels derive them. */
export function inputs(inp, n, g) {
  const u = inp[g] >>> 0;
  const s = (inp[n + g] | 0) - 1000;
  const f = f32(0.75 + f32(f32(inp[2 * n + g] >>> 0) * f32(1 / 8388608)));
  return { u, s, f };
}
