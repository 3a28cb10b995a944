// IEEE-754 binary16 (WGSL f16) for the check models, written from the
// format's definition: 1 sign bit, 5 exponent bits (bias 15), 10 fraction
// bits; subnormals are multiples of 2^-24.
//
// roundF16(x): the f16 value nearest to the JS number x (ties to even),
// +-Infinity when |x| >= 65520 (the midpoint between the largest f16, 65504,
// and 2^16, which ties to the even 2^16 and so overflows). x must be the
// exact result of the operation, or rounded to double precision from it;
// double has 53 >= 2*11 + 2 significand bits, so rounding a correctly
// rounded double result of + - * / sqrt once more to f16 gives the correctly
// rounded f16 result.

const roundEven = (v) => {
  const r = Math.floor(v);
  const d = v - r; // exact: v and r are close
  return d > 0.5 || (d === 0.5 && r % 2 !== 0) ? r + 1 : r;
};

export function roundF16(x) {
  if (Number.isNaN(x) || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  if (a >= 65520) return x < 0 ? -Infinity : Infinity;
  let e = Math.floor(Math.log2(a)); // may be off by one near powers of two: fixed below
  if (a === 0) return x;
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  const ulp = 2 ** Math.max(e - 10, -24); // spacing of f16 values around a
  const r = roundEven(a / ulp) * ulp;      // a / ulp is exact: a power-of-two scaling
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** The 16-bit encoding of an f16 value (NaN as 0x7e00). */
export function f16Bits(v) {
  if (Number.isNaN(v)) return 0x7e00;
  const s = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return s | 0x7c00;
  if (a < 2 ** -14) return s | (a * 2 ** 24); // subnormal (or zero): exact
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  return s | ((e + 15) << 10) | ((a / 2 ** e - 1) * 1024);
}

/** The value of the f16 with encoding h. */
export function f16Value(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 31) return m ? NaN : s * Infinity;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Two f16 values as one little-endian 32-bit word: lo in bits 0..15. */
export const packHalves = (lo, hi) => ((f16Bits(lo) | (f16Bits(hi) << 16)) >>> 0);

/** An array of f16 values as words (an odd count leaves the last high half 0). */
export function halvesToWords(hs) {
  const w = new Array(Math.ceil(hs.length / 2)).fill(0);
  for (let i = 0; i < hs.length; i++) w[i >> 1] = (w[i >> 1] | (f16Bits(hs[i]) << (16 * (i & 1)))) >>> 0;
  return w;
}

/** f16 arithmetic: the exact (or double-rounded) JS result rounded to f16. */
export const h = roundF16;
export const hadd = (a, b) => roundF16(a + b);
export const hsub = (a, b) => roundF16(a - b);
export const hmul = (a, b) => roundF16(a * b);
export const hdiv = (a, b) => roundF16(a / b);
