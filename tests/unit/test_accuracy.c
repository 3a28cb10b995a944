/*
 * test_accuracy.c — every f32 float built-in lockstep executes, run through
 * the public API (one small kernel per function, a buffer of inputs, read
 * back) and compared with a double-precision reference from libm, within
 * the bound of WGSL's accuracy table (§Floating Point Accuracy): correctly
 * rounded, a number of ULP, an absolute error, or "inherited from" a
 * formula. The bounds are the table `rows` below, one row per function;
 * inherited bounds are evaluated as intervals, every operation of the
 * formula widened by its own accuracy. Inputs where the table leaves the
 * result undefined (outside a function's domain, a division by a value
 * outside [2^-126, 2^126], an overflowing result, infinities and NaN) are
 * skipped and counted. It prints the largest error seen per function, in
 * ULP of the reference value.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit_util.h"

#include "lockstep.h"

/* ------------------------------------------------------- f32 rounding */

/* The largest f32 <= x and the smallest f32 >= x (x beyond the finite
 * range gives +-infinity on its side). */
static float f_dn(double x) {
  float f = (float)x;
  if ((double)f > x) f = nextafterf(f, -INFINITY);
  return f;
}

static float f_up(double x) {
  float f = (float)x;
  if ((double)f < x) f = nextafterf(f, INFINITY);
  return f;
}

/* ULP(x) as WGSL defines it: the smallest distance between two finite
 * floats a <= x <= b; beyond the finite range, the last gap. */
static double ulp32(double x) {
  x = fabs(x);
  if (x >= FLT_MAX) return (double)FLT_MAX - nextafterf(FLT_MAX, 0.0f);
  float a = f_dn(x), b = f_up(x);
  if (a != b) return (double)b - a;
  double below = (double)a - nextafterf(a, -INFINITY), above = (double)nextafterf(a, INFINITY) - a;
  return below < above ? below : above;
}

/* ------------------------------------------------------------ intervals
 * An interval of allowed f32 results, its ends always f32 values. ok = 0:
 * the table gives no bound for this input (the input is skipped). */
typedef struct iv {
  double lo, hi;
  int ok;
} iv;

static const iv BAD = {0, 0, 0};

static iv mk(double lo, double hi) {
  iv r = {f_dn(lo), f_up(hi), 1};
  /* an allowed result past the finite range: overflow, indeterminate */
  if (isinf(r.lo) || isinf(r.hi) || isnan(r.lo) || isnan(r.hi)) return BAD;
  return r;
}

static iv pt(double x) { return mk(x, x); }

static iv hull(iv a, iv b) {
  if (!a.ok) return b;
  if (!b.ok) return a;
  return (iv){fmin(a.lo, b.lo), fmax(a.hi, b.hi), 1};
}

/* The f32 values within an error bound around [lo, hi]: the bound's ends
 * rounded inwards (a result must lie inside it). An end past the finite
 * range is an overflow, where the result is indeterminate. */
static iv inward(double lo, double hi) {
  if (!(fabs(lo) <= FLT_MAX && fabs(hi) <= FLT_MAX)) return BAD;
  iv r = {f_up(lo), f_dn(hi), 1};
  return r.lo <= r.hi ? r : mk(lo, hi); /* a bound below the gap: the neighbours */
}

/* A value computed in double by libm (within one double ULP), widened by
 * n ULP (f32) or by an absolute error on both sides. */
static double dn1(double v) { return nextafter(v, -INFINITY); }
static double up1(double v) { return nextafter(v, INFINITY); }

static iv ulps(double lo, double hi, double n) {
  if (!isfinite(lo) || !isfinite(hi)) return BAD;
  lo = dn1(lo), hi = up1(hi);
  return inward(lo - n * ulp32(lo), hi + n * ulp32(hi));
}

static iv abserr(double lo, double hi, double e) {
  if (!isfinite(lo) || !isfinite(hi)) return BAD;
  return inward(dn1(lo) - e, up1(hi) + e);
}

/* a + b of two f32 values, rounded down / up: the double sum and its exact
 * error (two-sum) say on which side of the double the true sum lies. */
static float add_dn(double a, double b) {
  double s = a + b, bb = s - a, e = (a - (s - bb)) + (b - bb);
  float f = f_dn(s);
  if (e < 0 && (double)f == s) f = nextafterf(f, -INFINITY);
  return f;
}

static float add_up(double a, double b) {
  double s = a + b, bb = s - a, e = (a - (s - bb)) + (b - bb);
  float f = f_up(s);
  if (e > 0 && (double)f == s) f = nextafterf(f, INFINITY);
  return f;
}

/* Correctly rounded + - * of intervals (products of f32 values are exact
 * in double). */
static iv iadd(iv a, iv b) {
  if (!a.ok || !b.ok) return BAD;
  return mk(add_dn(a.lo, b.lo), add_up(a.hi, b.hi));
}

static iv ineg(iv a) { return (iv){-a.hi, -a.lo, a.ok}; }
static iv isub(iv a, iv b) { return iadd(a, ineg(b)); }

static iv imul(iv a, iv b) {
  if (!a.ok || !b.ok) return BAD;
  double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  double lo = p[0], hi = p[0];
  for (int i = 1; i < 4; i++) lo = fmin(lo, p[i]), hi = fmax(hi, p[i]);
  return mk(lo, hi);
}

/* x / y: 2.5 ULP for |y| in [2^-126, 2^126] */
static iv idiv(iv a, iv b) {
  if (!a.ok || !b.ok) return BAD;
  double m = 0x1p-126, M = 0x1p126;
  int pos = b.lo >= m && b.hi <= M, neg = b.hi <= -m && b.lo >= -M;
  if (!pos && !neg) return BAD;
  double q[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
  double lo = q[0], hi = q[0];
  for (int i = 1; i < 4; i++) lo = fmin(lo, q[i]), hi = fmax(hi, q[i]);
  return ulps(lo, hi, 2.5);
}

/* exp, exp2: 3 + 2|x| ULP */
static iv iexp_(iv a, double (*f)(double)) {
  if (!a.ok) return BAD;
  double n = 3 + 2 * fmax(fabs(a.lo), fabs(a.hi));
  return ulps(f(a.lo), f(a.hi), n);
}

/* log, log2: absolute 2^-21 on [0.5, 2], 3 ULP outside; the worse of the
 * two where the interval reaches both */
static iv ilog_(iv a, double (*f)(double)) {
  if (!a.ok || a.lo <= 0) return BAD;
  double lo = f(a.lo), hi = f(a.hi);
  iv r = BAD;
  if (a.lo <= 2.0 && a.hi >= 0.5) r = abserr(lo, hi, 0x1p-21);
  if (a.lo < 0.5 || a.hi > 2.0) r = hull(r, ulps(lo, hi, 3));
  return r;
}

/* inverseSqrt: 2 ULP, x > 0 */
static iv iisqrt(iv a) {
  if (!a.ok || a.lo <= 0) return BAD;
  return ulps(dn1(1 / sqrt(a.hi)), up1(1 / sqrt(a.lo)), 2);
}

/* sqrt: inherited from 1.0 / inverseSqrt(x) */
static iv isqrt_(iv a) { return idiv(pt(1), iisqrt(a)); }

/* sin, cos: absolute 2^-11 for x in [-pi, pi] (x is a point) */
static iv isincos(double x, double (*f)(double)) {
  if (fabs(x) > M_PI) return BAD;
  return abserr(f(x), f(x), 0x1p-11);
}

/* atan2(y, x): 4096 ULP for |x| in [2^-126, 2^126] and y finite and
 * normal; y does not cross zero, so the extremes are at the corners */
static iv iatan2(iv y, iv x) {
  if (!y.ok || !x.ok) return BAD;
  double m = 0x1p-126, M = 0x1p126;
  int xok = (x.lo >= m && x.hi <= M) || (x.hi <= -m && x.lo >= -M);
  int yok = (y.lo >= m || y.hi <= -m) && fabs(y.lo) <= FLT_MAX && fabs(y.hi) <= FLT_MAX;
  if (!xok || !yok) return BAD;
  double c[4] = {atan2(y.lo, x.lo), atan2(y.lo, x.hi), atan2(y.hi, x.lo), atan2(y.hi, x.hi)};
  double lo = c[0], hi = c[0];
  for (int i = 1; i < 4; i++) lo = fmin(lo, c[i]), hi = fmax(hi, c[i]);
  return ulps(lo, hi, 4096);
}

/* ------------------------------------------------- inherited formulas
 * in[]: the invocation's inputs (x y z = in[0..2]; vec3 u v w = in[0..2],
 * in[3..5], in[6..8]; scalar s = in[9]); out[]: the allowed results.
 * Return the number of results, 0 where the formula has no bound. */
typedef int (*inh_fn)(const float *in, iv *out);

#define X pt(in[0])
#define Y pt(in[1])
#define Z pt(in[2])

static int one(iv r, iv *out) {
  out[0] = r;
  return r.ok;
}

static int inh_acos(const float *in, iv *o) { /* atan2(sqrt(1 - x*x), x) */
  return one(iatan2(isqrt_(isub(pt(1), imul(X, X))), X), o);
}
static int inh_asin(const float *in, iv *o) { /* atan2(x, sqrt(1 - x*x)) */
  return one(iatan2(X, isqrt_(isub(pt(1), imul(X, X)))), o);
}
static int inh_acosh(const float *in, iv *o) { /* log(x + sqrt(x*x - 1)) */
  return one(ilog_(iadd(X, isqrt_(isub(imul(X, X), pt(1)))), log), o);
}
static int inh_asinh(const float *in, iv *o) { /* log(x + sqrt(x*x + 1)) */
  return one(ilog_(iadd(X, isqrt_(iadd(imul(X, X), pt(1)))), log), o);
}
static int inh_atanh(const float *in, iv *o) { /* log((1 + x) / (1 - x)) * 0.5 */
  return one(imul(ilog_(idiv(iadd(pt(1), X), isub(pt(1), X)), log), pt(0.5)), o);
}
static int inh_cosh(const float *in, iv *o) { /* (exp(x) + exp(-x)) * 0.5 */
  return one(imul(iadd(iexp_(X, exp), iexp_(ineg(X), exp)), pt(0.5)), o);
}
static int inh_sinh(const float *in, iv *o) { /* (exp(x) - exp(-x)) * 0.5 */
  return one(imul(isub(iexp_(X, exp), iexp_(ineg(X), exp)), pt(0.5)), o);
}
static int inh_tan(const float *in, iv *o) { /* sin(x) / cos(x) */
  return one(idiv(isincos(in[0], sin), isincos(in[0], cos)), o);
}
static int inh_tanh(const float *in, iv *o) { /* sinh(x) / cosh(x) */
  iv s, c;
  if (!inh_sinh(in, &s) || !inh_cosh(in, &c)) return 0;
  return one(idiv(s, c), o);
}
static int inh_pow(const float *in, iv *o) { /* exp2(y * log2(x)) */
  return one(iexp_(imul(Y, ilog_(X, log2)), exp2), o);
}
static int inh_sqrt(const float *in, iv *o) { return one(isqrt_(X), o); }
/* the abstract constants of degrees / radians, converted to f32 (either
 * neighbour: the conversion is correctly rounded) */
static int inh_degrees(const float *in, iv *o) {
  return one(imul(X, pt(57.295779513082322865)), o);
}
static int inh_radians(const float *in, iv *o) {
  return one(imul(X, pt(0.017453292519943295474)), o);
}
static int inh_fract(const float *in, iv *o) { return one(isub(X, pt(floor(in[0]))), o); }
static int inh_fma(const float *in, iv *o) { return one(iadd(imul(X, Y), Z), o); }
static int inh_mix(const float *in, iv *o) { /* x * (1 - z) + y * z */
  return one(iadd(imul(X, isub(pt(1), Z)), imul(Y, Z)), o);
}
static int inh_smoothstep(const float *in, iv *o) {
  /* t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t) */
  iv t = idiv(isub(Z, X), isub(Y, X));
  if (!t.ok) return 0;
  t.lo = fmin(fmax(t.lo, 0), 1), t.hi = fmin(fmax(t.hi, 0), 1);
  return one(imul(imul(t, t), isub(pt(3), imul(pt(2), t))), o);
}
static int inh_length1(const float *in, iv *o) { return one(isqrt_(imul(X, X)), o); }

static iv comp(const float *in, int vec, int i) { return pt(in[3 * vec + i]); }

static iv idot3(const float *in, int a, int b) {
  iv s = imul(comp(in, a, 0), comp(in, b, 0));
  for (int i = 1; i < 3; i++) s = iadd(s, imul(comp(in, a, i), comp(in, b, i)));
  return s;
}

static int inh_dot(const float *in, iv *o) { return one(idot3(in, 0, 1), o); }
static int inh_length(const float *in, iv *o) { return one(isqrt_(idot3(in, 0, 0)), o); }
static int inh_distance(const float *in, iv *o) { /* length(u - v) */
  iv d[3], s;
  for (int i = 0; i < 3; i++) d[i] = isub(comp(in, 0, i), comp(in, 1, i));
  s = imul(d[0], d[0]);
  for (int i = 1; i < 3; i++) s = iadd(s, imul(d[i], d[i]));
  return one(isqrt_(s), o);
}
static int inh_normalize(const float *in, iv *o) { /* u / length(u) */
  iv len = isqrt_(idot3(in, 0, 0));
  for (int i = 0; i < 3; i++)
    if (!(o[i] = idiv(comp(in, 0, i), len)).ok) return 0;
  return 3;
}
static int inh_cross(const float *in, iv *o) { /* u[j] * v[k] - u[k] * v[j] */
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    o[i] = isub(imul(comp(in, 0, j), comp(in, 1, k)), imul(comp(in, 0, k), comp(in, 1, j)));
    if (!o[i].ok) return 0;
  }
  return 3;
}
static int inh_reflect(const float *in, iv *o) { /* u - 2 * dot(u, v) * v */
  iv k = imul(pt(2), idot3(in, 0, 1));
  for (int i = 0; i < 3; i++)
    if (!(o[i] = isub(comp(in, 0, i), imul(k, comp(in, 1, i)))).ok) return 0;
  return 3;
}
static int inh_faceforward(const float *in, iv *o) { /* select(-u, u, dot(w, v) < 0) */
  iv d = idot3(in, 2, 1);
  if (!d.ok) return 0;
  for (int i = 0; i < 3; i++) {
    iv u = comp(in, 0, i);
    o[i] = d.hi < 0 ? u : d.lo >= 0 ? ineg(u) : hull(u, ineg(u));
  }
  return 3;
}
static int inh_refract(const float *in, iv *o) {
  /* k = 1 - s*s*(1 - dot(v, u)^2); k < 0: exactly 0; else
   * s * u - (s * dot(v, u) + sqrt(k)) * v */
  iv s = pt(in[9]), d = idot3(in, 1, 0);
  iv k = isub(pt(1), imul(imul(s, s), isub(pt(1), imul(d, d))));
  if (!k.ok) return 0;
  if (k.hi < 0) {
    for (int i = 0; i < 3; i++) o[i] = pt(0);
    return 3;
  }
  if (k.lo < 0) return 0; /* either branch, and sqrt near 0: no bound */
  iv m = iadd(imul(s, d), isqrt_(k));
  for (int i = 0; i < 3; i++)
    if (!(o[i] = isub(imul(s, comp(in, 0, i)), imul(m, comp(in, 1, i)))).ok) return 0;
  return 3;
}

#undef X
#undef Y
#undef Z

/* ------------------------------------------- references (double, libm)
 * The exact function, for the bounds that are relative to it and for the
 * error figures; return the number of results, 0 outside the domain. */
typedef int (*ref_fn)(const double *in, double *out);

#define REF1(name, expr)                                                       \
  static int name(const double *in, double *out) {                            \
    const double x = in[0], y = in[1], z = in[2];                              \
    (void)y, (void)z;                                                          \
    out[0] = (expr);                                                           \
    return 1;                                                                  \
  }
REF1(r_abs, fabs(x))
REF1(r_min, fmin(x, y))
REF1(r_max, fmax(x, y))
REF1(r_sign, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0)
REF1(r_saturate, fmin(fmax(x, 0), 1))
REF1(r_step, x <= y ? 1.0 : 0.0)
REF1(r_round, nearbyint(x))
REF1(r_trunc, trunc(x))
REF1(r_floor, floor(x))
REF1(r_ceil, ceil(x))
REF1(r_fract, x - floor(x))
REF1(r_sqrt, sqrt(x))
REF1(r_isqrt, 1 / sqrt(x))
REF1(r_exp, exp(x))
REF1(r_exp2, exp2(x))
REF1(r_log, log(x))
REF1(r_log2, log2(x))
REF1(r_pow, pow(x, y))
REF1(r_sin, sin(x))
REF1(r_cos, cos(x))
REF1(r_tan, tan(x))
REF1(r_asin, asin(x))
REF1(r_acos, acos(x))
REF1(r_atan, atan(x))
REF1(r_atan2, atan2(x, y))
REF1(r_sinh, sinh(x))
REF1(r_cosh, cosh(x))
REF1(r_tanh, tanh(x))
REF1(r_asinh, asinh(x))
REF1(r_acosh, acosh(x))
REF1(r_atanh, atanh(x))
REF1(r_degrees, x * (180 / M_PI))
REF1(r_radians, x * (M_PI / 180))
REF1(r_fma, fma(x, y, z))
REF1(r_mix, x * (1 - z) + y * z)
REF1(r_length1, fabs(x))
REF1(r_ldexp, ldexp(x, (int)y))
#undef REF1

static int r_smoothstep(const double *in, double *out) {
  double t = fmin(fmax((in[2] - in[0]) / (in[1] - in[0]), 0), 1);
  out[0] = t * t * (3 - 2 * t);
  return 1;
}

/* clamp: min(max(x, lo), hi) or the median of the three (they differ only
 * when lo > hi); out[1] is the second allowed value */
static int r_clamp(const double *in, double *out) {
  double x = in[0], lo = in[1], hi = in[2];
  out[0] = fmin(fmax(x, lo), hi);
  out[1] = fmax(fmin(x, lo), fmin(fmax(x, lo), hi));
  return 1;
}

static int r_frexp(const double *in, double *out) {
  int e = 0;
  out[0] = in[0] == 0 ? in[0] : frexp(in[0], &e);
  out[1] = e;
  return 2;
}

static int r_modf(const double *in, double *out) {
  out[1] = trunc(in[0]);
  out[0] = in[0] - out[1];
  return 2;
}

/* quantizeToF16: x rounded to the nearest binary16 value (out[0]) or the
 * other neighbour (out[1]) */
static int r_quant(const double *in, double *out) {
  double x = in[0], a = fabs(x);
  int e;
  frexp(a, &e);
  double q = ldexp(1, (e - 1 < -14 ? -14 : e - 1) - 10); /* spacing of halves near a */
  out[0] = nearbyint(x / q) * q;
  out[1] = (out[0] <= x ? ceil(x / q) : floor(x / q)) * q;
  return 1;
}

static double half_value(uint32_t h) {
  int e = (int)((h >> 10) & 31), m = (int)(h & 1023);
  double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return (h & 0x8000u) ? -v : v;
}

/* IN_BITS rows get the word itself in in[0] (see check_row) */
static int r_unpack(const double *in, double *out, int bits, int sgn) {
  uint32_t w = (uint32_t)in[0];
  int n = 32 / bits;
  for (int i = 0; i < n; i++) {
    uint32_t f = (w >> (bits * i)) & ((1u << bits) - 1);
    double v = f;
    if (sgn && (f >> (bits - 1))) v -= (double)(1u << bits);
    double den = (double)((1u << (bits - sgn)) - 1);
    out[i] = sgn ? fmax(v / den, -1.0) : v / den;
  }
  return n;
}
static int r_u4x8s(const double *in, double *out) { return r_unpack(in, out, 8, 1); }
static int r_u4x8u(const double *in, double *out) { return r_unpack(in, out, 8, 0); }
static int r_u2x16s(const double *in, double *out) { return r_unpack(in, out, 16, 1); }
static int r_u2x16u(const double *in, double *out) { return r_unpack(in, out, 16, 0); }
static int r_u2x16f(const double *in, double *out) {
  uint32_t w = (uint32_t)in[0];
  for (int i = 0; i < 2; i++) {
    uint32_t h = (w >> (16 * i)) & 0xffffu;
    if (((h >> 10) & 31) == 31) return 0; /* infinity or NaN */
    out[i] = half_value(h);
  }
  return 2;
}

static double d3(const double *in, int a, int b) {
  return in[3 * a] * in[3 * b] + in[3 * a + 1] * in[3 * b + 1] + in[3 * a + 2] * in[3 * b + 2];
}
static int r_dot(const double *in, double *out) {
  out[0] = d3(in, 0, 1);
  return 1;
}
static int r_length(const double *in, double *out) {
  out[0] = sqrt(d3(in, 0, 0));
  return 1;
}
static int r_distance(const double *in, double *out) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += (in[i] - in[3 + i]) * (in[i] - in[3 + i]);
  out[0] = sqrt(s);
  return 1;
}
static int r_normalize(const double *in, double *out) {
  double l = sqrt(d3(in, 0, 0));
  for (int i = 0; i < 3; i++) out[i] = in[i] / l;
  return 3;
}
static int r_cross(const double *in, double *out) {
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    out[i] = in[j] * in[3 + k] - in[k] * in[3 + j];
  }
  return 3;
}
static int r_reflect(const double *in, double *out) {
  double k = 2 * d3(in, 0, 1);
  for (int i = 0; i < 3; i++) out[i] = in[i] - k * in[3 + i];
  return 3;
}
static int r_faceforward(const double *in, double *out) {
  double d = d3(in, 2, 1);
  for (int i = 0; i < 3; i++) out[i] = d < 0 ? in[i] : -in[i];
  return 3;
}
static int r_refract(const double *in, double *out) {
  double s = in[9], d = d3(in, 1, 0), k = 1 - s * s * (1 - d * d);
  for (int i = 0; i < 3; i++) out[i] = k < 0 ? 0 : s * in[i] - (s * d + sqrt(k)) * in[3 + i];
  return 3;
}

/* ------------------------------------------------------------- the table */

typedef enum bound {
  CR,      /* correctly rounded: the exact result, or a neighbour */
  ULP,     /* value ULP of the exact result */
  ABS,     /* absolute error value */
  EXPULP,  /* 3 + 2|x| ULP (exp, exp2) */
  LOGB,    /* absolute 2^-21 on [0.5, 2], 3 ULP outside (log, log2) */
  INH,     /* inherited from the formula (the row's inh function) */
  ABS_INH  /* the worse of absolute error value and the formula */
} bound;

/* The inputs a row runs on (see make_inputs). */
typedef enum input {
  IN_X,     /* x: every 2^15-th bit pattern, a sweep of [-4pi, 4pi], edges */
  IN_XY,    /* x, y: a grid of bit patterns, moderate values, edge pairs */
  IN_XYZ,   /* x, y, z: random bit patterns, moderate values, edges */
  IN_XE,    /* x and an exponent y in [-300, 300] (ldexp) */
  IN_BITS,  /* x's bits: every 2^14-th u32 (unpack) */
  IN_VEC    /* vec3 u, v, w and s in [0, 2.5] */
} input;

typedef struct row {
  const char *name;
  const char *expr; /* WGSL; x y z, u v w, s; its value is written out */
  input in;
  bound kind;
  double value;     /* ULP count or absolute error */
  double lo, hi;    /* domain of x (closed); outside it nothing is checked */
  ref_fn ref;
  inh_fn inh;
} row;

#define ALL -INFINITY, INFINITY
#define PI_ M_PI /* just below the real pi; no f32 lies between them */

static const row rows[] = {
  {"abs", "abs(x)", IN_X, CR, 0, ALL, r_abs, NULL},
  {"min", "min(x, y)", IN_XY, CR, 0, ALL, r_min, NULL},
  {"max", "max(x, y)", IN_XY, CR, 0, ALL, r_max, NULL},
  {"clamp", "clamp(x, y, z)", IN_XYZ, CR, 0, ALL, r_clamp, NULL},
  {"sign", "sign(x)", IN_X, CR, 0, ALL, r_sign, NULL},
  {"saturate", "saturate(x)", IN_X, CR, 0, ALL, r_saturate, NULL},
  {"step", "step(x, y)", IN_XY, CR, 0, ALL, r_step, NULL},
  {"round", "round(x)", IN_X, CR, 0, ALL, r_round, NULL},
  {"trunc", "trunc(x)", IN_X, CR, 0, ALL, r_trunc, NULL},
  {"floor", "floor(x)", IN_X, CR, 0, ALL, r_floor, NULL},
  {"ceil", "ceil(x)", IN_X, CR, 0, ALL, r_ceil, NULL},
  {"fract", "fract(x)", IN_X, INH, 0, ALL, r_fract, inh_fract},
  {"fma", "fma(x, y, z)", IN_XYZ, INH, 0, ALL, r_fma, inh_fma},
  {"mix", "mix(x, y, z)", IN_XYZ, INH, 0, ALL, r_mix, inh_mix},
  {"smoothstep", "smoothstep(x, y, z)", IN_XYZ, INH, 0, ALL, r_smoothstep, inh_smoothstep},
  {"sqrt", "sqrt(x)", IN_X, INH, 0, 0, INFINITY, r_sqrt, inh_sqrt},
  {"inverseSqrt", "inverseSqrt(x)", IN_X, ULP, 2, 0x1p-149, INFINITY, r_isqrt, NULL},
  {"exp", "exp(x)", IN_X, EXPULP, 0, ALL, r_exp, NULL},
  {"exp2", "exp2(x)", IN_X, EXPULP, 0, ALL, r_exp2, NULL},
  {"log", "log(x)", IN_X, LOGB, 0, 0x1p-149, INFINITY, r_log, NULL},
  {"log2", "log2(x)", IN_X, LOGB, 0, 0x1p-149, INFINITY, r_log2, NULL},
  {"pow", "pow(x, y)", IN_XY, INH, 0, 0x1p-149, INFINITY, r_pow, inh_pow},
  {"sin", "sin(x)", IN_X, ABS, 0x1p-11, -PI_, PI_, r_sin, NULL},
  {"cos", "cos(x)", IN_X, ABS, 0x1p-11, -PI_, PI_, r_cos, NULL},
  {"tan", "tan(x)", IN_X, INH, 0, -PI_, PI_, r_tan, inh_tan},
  {"asin", "asin(x)", IN_X, ABS_INH, 6.81e-5, -1, 1, r_asin, inh_asin},
  {"acos", "acos(x)", IN_X, ABS_INH, 6.77e-5, -1, 1, r_acos, inh_acos},
  {"atan", "atan(x)", IN_X, ULP, 4096, ALL, r_atan, NULL},
  {"atan2", "atan2(x, y)", IN_XY, ULP, 4096, ALL, r_atan2, NULL}, /* its x (our y) too: in_domain */
  {"sinh", "sinh(x)", IN_X, INH, 0, ALL, r_sinh, inh_sinh},
  {"cosh", "cosh(x)", IN_X, INH, 0, ALL, r_cosh, inh_cosh},
  {"tanh", "tanh(x)", IN_X, ABS_INH, 1.0e-5, ALL, r_tanh, inh_tanh},
  {"asinh", "asinh(x)", IN_X, INH, 0, ALL, r_asinh, inh_asinh},
  {"acosh", "acosh(x)", IN_X, INH, 0, 1, INFINITY, r_acosh, inh_acosh},
  {"atanh", "atanh(x)", IN_X, INH, 0, -0x1.fffffep-1, 0x1.fffffep-1, r_atanh, inh_atanh},
  {"degrees", "degrees(x)", IN_X, INH, 0, ALL, r_degrees, inh_degrees},
  {"radians", "radians(x)", IN_X, INH, 0, ALL, r_radians, inh_radians},
  {"ldexp", "ldexp(x, i32(y))", IN_XE, CR, 0, ALL, r_ldexp, NULL},
  {"frexp", "frexp(x)", IN_X, CR, 0, ALL, r_frexp, NULL}, /* zero or normal x: in_domain */
  {"modf", "modf(x)", IN_X, CR, 0, ALL, r_modf, NULL},
  {"quantizeToF16", "quantizeToF16(x)", IN_X, CR, 0, -65504, 65504, r_quant, NULL},
  {"unpack4x8snorm", "unpack4x8snorm(bitcast<u32>(x))", IN_BITS, ULP, 3, ALL, r_u4x8s, NULL},
  {"unpack4x8unorm", "unpack4x8unorm(bitcast<u32>(x))", IN_BITS, ULP, 3, ALL, r_u4x8u, NULL},
  {"unpack2x16snorm", "unpack2x16snorm(bitcast<u32>(x))", IN_BITS, ULP, 3, ALL, r_u2x16s, NULL},
  {"unpack2x16unorm", "unpack2x16unorm(bitcast<u32>(x))", IN_BITS, ULP, 3, ALL, r_u2x16u, NULL},
  {"unpack2x16float", "unpack2x16float(bitcast<u32>(x))", IN_BITS, CR, 0, ALL, r_u2x16f, NULL},
  {"length (scalar)", "length(x)", IN_X, INH, 0, ALL, r_length1, inh_length1},
  {"dot", "dot(u, v)", IN_VEC, INH, 0, ALL, r_dot, inh_dot},
  {"length", "length(u)", IN_VEC, INH, 0, ALL, r_length, inh_length},
  {"distance", "distance(u, v)", IN_VEC, INH, 0, ALL, r_distance, inh_distance},
  {"normalize", "normalize(u)", IN_VEC, INH, 0, ALL, r_normalize, inh_normalize},
  {"cross", "cross(u, v)", IN_VEC, INH, 0, ALL, r_cross, inh_cross},
  {"reflect", "reflect(u, v)", IN_VEC, INH, 0, ALL, r_reflect, inh_reflect},
  {"faceForward", "faceForward(u, v, w)", IN_VEC, INH, 0, ALL, r_faceforward, inh_faceforward},
  {"refract", "refract(u, v, s)", IN_VEC, INH, 0, ALL, r_refract, inh_refract},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* -------------------------------------------------------------- inputs */

enum { STRIDE = 12, NOUT = 4 };

static uint32_t lcg_state = 12345u;
static uint32_t lcg(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state;
}
static float uni(float lo, float hi) { return lo + (hi - lo) * (float)(lcg() >> 8) * 0x1p-24f; }
/* a random bit pattern, finite */
static float rbits(void) {
  for (;;) {
    float f = vm_bits_f(lcg());
    if (isfinite(f)) return f;
  }
}

/* Values every function meets: zeros, subnormals, the ends of the normal
 * range, 1 and its neighbours, halves, and multiples of pi/2 with their
 * neighbours. */
static size_t edge_values(float *e) {
  static const uint32_t bits[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                  0x00400000u, 0x00800000u, 0x80800000u, 0x7f7fffffu,
                                  0xff7fffffu, 0x7f000000u, 0x3f800000u, 0x3f7fffffu,
                                  0x3f800001u, 0xbf800000u, 0xbf7fffffu, 0xbf800001u,
                                  0x3f000000u, 0x3effffffu, 0x40000000u, 0x4b000000u,
                                  0x4b000001u, 0xcb7fffffu, 0x3f000001u, 0xbf000000u};
  size_t n = 0;
  for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) e[n++] = vm_bits_f(bits[i]);
  for (int k = -8; k <= 8; k++) {
    float p = (float)(k * M_PI / 2);
    e[n++] = p;
    e[n++] = nextafterf(p, INFINITY);
    e[n++] = nextafterf(p, -INFINITY);
  }
  return n;
}

/* A growing buffer of inputs, STRIDE floats per invocation. */
typedef struct inbuf {
  float *b;
  size_t n, cap;
} inbuf;

/* The next invocation's inputs, zeroed. */
static float *slot(inbuf *q) {
  if (q->n == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 4096;
    q->b = realloc(q->b, q->cap * STRIDE * sizeof *q->b);
    assert_non_null(q->b);
  }
  float *p = q->b + q->n++ * STRIDE;
  memset(p, 0, STRIDE * sizeof *p);
  return p;
}

static void push1(inbuf *q, float x) { slot(q)[0] = x; }
static void push3(inbuf *q, float x, float y, float z) {
  float *p = slot(q);
  p[0] = x, p[1] = y, p[2] = z;
}

/* Fills *buf (STRIDE floats per invocation) for input class c. */
static size_t make_inputs(input c, float **buf) {
  float edge[128];
  size_t ne = edge_values(edge);
  inbuf q = {NULL, 0, 0};
  lcg_state = 12345u + (uint32_t)c;
  switch (c) {
  case IN_X:
    for (uint64_t u = 0; u < (UINT64_C(1) << 32); u += 1u << 15)
      if (isfinite(vm_bits_f((uint32_t)u))) push1(&q, vm_bits_f((uint32_t)u));
    for (int i = 0; i <= 8192; i++) push1(&q, (float)(-4 * M_PI + i * (M_PI / 1024)));
    for (size_t i = 0; i < ne; i++) push1(&q, edge[i]);
    break;
  case IN_XY:
  case IN_XYZ: {
    /* a bit pattern per exponent and sign, with varied significands */
    float g[512];
    for (uint32_t k = 0; k < 512; k++) g[k] = vm_bits_f((k << 23) | ((k * 0x2f1b3u) & 0x7fffffu));
    if (c == IN_XY) {
      for (int i = 0; i < 512; i++)
        for (int j = 0; j < 512; j++)
          if (isfinite(g[i]) && isfinite(g[j])) push3(&q, g[i], g[j], 0);
      for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++) push3(&q, edge[i], edge[j], 0);
      for (int i = 0; i < 65536; i++) push3(&q, uni(-8, 8), uni(-8, 8), 0);
    } else {
      for (int i = 0; i < 65536; i++) push3(&q, rbits(), rbits(), rbits());
      for (int i = 0; i < 65536; i++) push3(&q, uni(-8, 8), uni(-8, 8), uni(-8, 8));
      /* ordered edges (lo < hi) with x anywhere, as smoothstep and clamp
       * are mostly used */
      for (int i = 0; i < 65536; i++) {
        float lo = uni(-4, 4), hi = lo + uni(0.001f, 4);
        push3(&q, lo, hi, uni(-6, 6));
      }
      for (size_t i = 0; i < ne; i += 2)
        for (size_t j = 0; j < ne; j += 3)
          for (size_t k = 0; k < ne; k += 5) push3(&q, edge[i], edge[j], edge[k]);
    }
    break;
  }
  case IN_XE: {
    static const int ex[] = {-300, -277, -200, -150, -149, -127, -126, -64, -24, -1, 0, 1,
                             2,    23,   64,   126,  127,  128,  129,  200, 254, 300};
    for (uint64_t u = 0; u < (UINT64_C(1) << 32); u += 1u << 18)
      for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++)
        if (isfinite(vm_bits_f((uint32_t)u))) push3(&q, vm_bits_f((uint32_t)u), (float)ex[k], 0);
    break;
  }
  case IN_BITS:
    for (uint64_t u = 0; u < (UINT64_C(1) << 32); u += 1u << 14) {
      /* the bits travel as f32 words and are read back with bitcast */
      uint32_t w = (uint32_t)u | (uint32_t)(u >> 16 & 0x3fffu);
      memcpy(slot(&q), &w, 4);
    }
    break;
  case IN_VEC:
    for (int i = 0; i < 65536; i++) {
      float *p = slot(&q);
      for (int k = 0; k < 9; k++) p[k] = uni(-4, 4);
      p[9] = uni(0, 2.5f);
    }
    for (int i = 0; i < 16384; i++) {
      /* unit vectors, as refract and reflect expect */
      float *p = slot(&q);
      for (int v = 0; v < 3; v++) {
        double a = uni(-1, 1), b = uni(-1, 1), cc = uni(-1, 1), l = sqrt(a * a + b * b + cc * cc);
        p[3 * v] = (float)(a / l), p[3 * v + 1] = (float)(b / l), p[3 * v + 2] = (float)(cc / l);
      }
      p[9] = uni(0, 2.5f);
    }
    for (int i = 0; i < 16384; i++) {
      float *p = slot(&q);
      for (int k = 0; k < 10; k++) p[k] = rbits();
    }
    break;
  }
  *buf = q.b;
  return q.n;
}

/* ------------------------------------------------------------ the run */

static const char *kernel_fmt =
    "@group(0) @binding(0) var<storage, read> inp: array<f32>;\n"
    "@group(0) @binding(1) var<storage, read_write> outp: array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) g: vec3u) {\n"
    "  let i = g.x;\n"
    "  if (i >= arrayLength(&outp) / 4u) { return; }\n"
    "  let b = 12u * i;\n"
    "  let x = inp[b]; let y = inp[b + 1u]; let z = inp[b + 2u];\n"
    "  let u = vec3f(inp[b], inp[b + 1u], inp[b + 2u]);\n"
    "  let v = vec3f(inp[b + 3u], inp[b + 4u], inp[b + 5u]);\n"
    "  let w = vec3f(inp[b + 6u], inp[b + 7u], inp[b + 8u]);\n"
    "  let s = inp[b + 9u];\n"
    "  _ = x; _ = y; _ = z; _ = u; _ = v; _ = w; _ = s;\n"
    "  let r = %s;\n"
    "%s"
    "}\n";

/* How the result is written: one f32, a vector, or a result struct. */
static const char *store_for(const row *r, int nres) {
  if (!strcmp(r->name, "frexp"))
    return "  outp[4u * i] = bitcast<u32>(r.fract); outp[4u * i + 1u] = bitcast<u32>(r.exp);\n";
  if (!strcmp(r->name, "modf"))
    return "  outp[4u * i] = bitcast<u32>(r.fract); outp[4u * i + 1u] = bitcast<u32>(r.whole);\n";
  if (nres == 1) return "  outp[4u * i] = bitcast<u32>(r);\n";
  return nres == 2 ? "  outp[4u * i] = bitcast<u32>(r.x); outp[4u * i + 1u] = bitcast<u32>(r.y);\n"
         : nres == 3
             ? "  for (var k = 0u; k < 3u; k++) { outp[4u * i + k] = bitcast<u32>(r[k]); }\n"
             : "  for (var k = 0u; k < 4u; k++) { outp[4u * i + k] = bitcast<u32>(r[k]); }\n";
}

static char last_error[2048];
static void on_error(void *user, ls_error_type type, const char *message) {
  (void)user, (void)type;
  snprintf(last_error, sizeof last_error, "%s", message);
}

/* Runs the row's kernel over n inputs; the results land in out
 * (NOUT words per invocation). */
static void run_kernel(ls_device *d, const row *r, int nres, const float *in, size_t n,
                       uint32_t *out) {
  char src[4096];
  snprintf(src, sizeof src, kernel_fmt, r->expr, store_for(r, nres));
  ls_shader_module_desc sd = {.code = src, .label = r->name};
  ls_shader_module *m = ls_device_create_shader_module(d, &sd);
  assert_non_null(m);
  if (!ls_shader_module_is_valid(m)) fprintf(stderr, "%s", ls_shader_module_format_messages(m));
  assert_true(ls_shader_module_is_valid(m));
  ls_compute_pipeline_desc pd;
  memset(&pd, 0, sizeof pd);
  pd.module = m;
  ls_compute_pipeline *p = ls_device_create_compute_pipeline(d, &pd);
  if (!p) fprintf(stderr, "%s: %s\n", r->name, last_error);
  assert_non_null(p);
  size_t isz = n * STRIDE * 4, osz = n * NOUT * 4;
  ls_buffer_desc bi = {.size = isz, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_DST, .label = "in"};
  ls_buffer_desc bo = {.size = osz, .usage = LS_BUFFER_USAGE_STORAGE | LS_BUFFER_USAGE_COPY_SRC, .label = "out"};
  ls_buffer *ib = ls_device_create_buffer(d, &bi), *ob = ls_device_create_buffer(d, &bo);
  assert_non_null(ib);
  assert_non_null(ob);
  assert_int_equal(ls_queue_write_buffer(d, ib, 0, in, isz), LS_OK);
  ls_bind_group_layout *l = ls_compute_pipeline_get_bind_group_layout(p, 0);
  assert_non_null(l);
  ls_bind_group_entry be[2] = {{0, ib, 0, LS_WHOLE_SIZE}, {1, ob, 0, LS_WHOLE_SIZE}};
  ls_bind_group *g = ls_device_create_bind_group(d, &(ls_bind_group_desc){.layout = l, .entries = be, .entry_count = 2});
  assert_non_null(g);
  ls_command_encoder *enc = ls_device_create_command_encoder(d, NULL);
  ls_compute_pass *pass = ls_command_encoder_begin_compute_pass(enc, NULL);
  ls_compute_pass_set_pipeline(pass, p);
  ls_compute_pass_set_bind_group(pass, 0, g, NULL, 0);
  ls_compute_pass_dispatch_workgroups(pass, (uint32_t)((n + 63) / 64), 1, 1);
  ls_compute_pass_end(pass);
  ls_compute_pass_release(pass);
  ls_command_buffer *cb = ls_command_encoder_finish(enc, NULL);
  ls_command_encoder_release(enc);
  assert_non_null(cb);
  assert_int_equal(ls_queue_submit(d, &cb, 1), LS_OK);
  ls_command_buffer_release(cb);
  assert_int_equal(ls_queue_read_buffer(d, ob, 0, out, osz), LS_OK);
  ls_bind_group_release(g);
  ls_bind_group_layout_release(l);
  ls_buffer_release(ib);
  ls_buffer_release(ob);
  ls_compute_pipeline_release(p);
  ls_shader_module_release(m);
}

/* The allowed results of one invocation under the row's bound; 0 where
 * there is none (skipped). */
static int allowed(const row *r, const float *in, const double *ref, int nres, iv *ok) {
  double x = in[0];
  for (int k = 0; k < nres; k++) {
    double v = ref[k];
    switch (r->kind) {
    case CR:
      ok[k] = pt(v);
      if (r->ref == r_clamp) ok[k] = hull(pt(v), pt(ref[1]));
      if (r->ref == r_quant) ok[k] = hull(pt(v), pt(ref[1]));
      break;
    case ULP: ok[k] = ulps(v, v, r->value); break;
    case ABS: ok[k] = abserr(v, v, r->value); break;
    case EXPULP: ok[k] = ulps(v, v, 3 + 2 * fabs(x)); break;
    case LOGB: ok[k] = x >= 0.5 && x <= 2.0 ? abserr(v, v, 0x1p-21) : ulps(v, v, 3); break;
    case INH:
    case ABS_INH: {
      iv f[4];
      int m = r->inh(in, f);
      if (r->kind == INH) {
        if (m != nres) return 0;
        ok[k] = f[k];
      } else {
        /* the worse of the two; the formula may have no bound here */
        ok[k] = hull(abserr(v, v, r->value), m == nres ? f[k] : BAD);
      }
      break;
    }
    }
    if (!ok[k].ok) return 0;
  }
  return 1;
}

/* Is got allowed? Results below the normal range may be flushed to zero. */
static int within(iv a, double got) {
  if (got >= a.lo && got <= a.hi) return 1;
  return got == 0 && a.lo <= 0x1p-126 && a.hi >= -0x1p-126;
}

/* Inputs outside the row's table entry: x outside the domain, infinities
 * and NaN, atan2's |x| outside [2^-126, 2^126] or y not normal, frexp's
 * subnormal x. */
static int in_domain(const row *r, const float *in) {
  double x = in[0];
  if (r->in == IN_BITS) return 1;
  if (!(x >= r->lo && x <= r->hi)) return 0;
  if (r->ref == r_atan2) {
    double ax = fabs(in[1]);
    return ax >= 0x1p-126 && ax <= 0x1p126 && fabs(x) >= 0x1p-126;
  }
  if (r->ref == r_frexp) return x == 0 || fabs(x) >= 0x1p-126;
  return 1;
}

typedef struct stats {
  size_t checked, skipped, failed;
  double max_ulp;  /* |result - exact| in ULP of the exact value, where it is normal */
  double max_used; /* the same distance over the bound's reach on that side */
} stats;

static stats check_row(ls_device *d, const row *r, int verbose) {
  float *in;
  size_t n = make_inputs(r->in, &in);
  double probe[4] = {0}, pin[STRIDE] = {0.5, 0.5, 0.5};
  int nres = r->ref(pin, probe);
  uint32_t *out = calloc(n * NOUT, 4);
  assert_non_null(out);
  run_kernel(d, r, r->ref == r_frexp || r->ref == r_modf ? 1 : nres, in, n, out);
  stats st = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < n; i++) {
    const float *a = in + i * STRIDE;
    double din[STRIDE], ref[4];
    for (int k = 0; k < STRIDE; k++) din[k] = a[k];
    if (r->in == IN_BITS) din[0] = (double)vm_f2u_bits(a[0]); /* no NaN on the way */
    iv ok[4];
    int m = in_domain(r, a) ? r->ref(din, ref) : 0;
    if (m != nres || !allowed(r, a, ref, nres, ok)) {
      st.skipped++;
      continue;
    }
    st.checked++;
    for (int k = 0; k < nres; k++) {
      uint32_t w = out[i * NOUT + k];
      /* frexp's exponent is an i32 */
      double got = r->ref == r_frexp && k == 1 ? (double)(int32_t)w : (double)vm_bits_f(w);
      if (!within(ok[k], got)) {
        if (st.failed++ < 5)
          fprintf(stderr,
                  "%s: input (%a, %a, %a, ... s %a) result %d: got %a (0x%08x), allowed [%a, %a], "
                  "reference %a\n",
                  r->name, a[0], a[1], a[2], a[9], k, got, w, ok[k].lo, ok[k].hi, ref[k]);
        continue;
      }
      if (!(r->ref == r_frexp && k == 1)) {
        double e = fabs(got - ref[k]) / ulp32(ref[k]);
        double reach = got >= ref[k] ? ok[k].hi - ref[k] : ref[k] - ok[k].lo;
        double used = reach > 0 ? fabs(got - ref[k]) / reach : 0;
        if (fabs(ref[k]) >= 0x1p-126 && e > st.max_ulp) st.max_ulp = e;
        if (used > st.max_used) st.max_used = used;
      }
    }
  }
  if (verbose)
    printf("%-16s %-7s checked %7zu skipped %6zu  largest error %9.3g ULP, %5.3f of the bound\n",
           r->name, r->kind == CR ? "CR" : r->kind == INH ? "inherit" : "bound", st.checked,
           st.skipped, st.max_ulp, st.max_used);
  free(out);
  free(in);
  return st;
}

static ls_device *make_device(ls_adapter **ad) {
  ls_adapter_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.threads = 2;
  char err[256];
  *ad = ls_adapter_create(&o, err, sizeof err);
  assert_non_null(*ad);
  ls_device_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.struct_size = sizeof dd;
  ls_status st;
  ls_device *d = ls_adapter_create_device(*ad, &dd, &st, err, sizeof err);
  assert_non_null(d);
  ls_device_set_error_callback(d, on_error, NULL);
  return d;
}

/* Every row: no result outside its bound, and enough inputs checked that
 * a row cannot pass by skipping everything. */
static void test_accuracy_table(void **state) {
  (void)state;
  ls_adapter *ad;
  ls_device *d = make_device(&ad);
  size_t total_failed = 0;
  for (size_t i = 0; i < NROWS; i++) {
    stats st = check_row(d, &rows[i], 1);
    if (st.checked < 2000) fprintf(stderr, "%s: only %zu inputs checked\n", rows[i].name, st.checked);
    assert_true(st.checked >= 2000);
    total_failed += st.failed;
  }
  assert_int_equal(total_failed, 0);
  ls_device_release(d);
  ls_adapter_release(ad);
}

/* The checker itself: a wrong result must be outside every kind of
 * bound (a correctly rounded, an ULP, an absolute, an inherited one). */
static void test_bounds_reject(void **state) {
  (void)state;
  assert_true(within(pt(1.0), 1.0));
  assert_false(within(pt(1.0), nextafterf(1.0f, 2.0f)));
  assert_true(within(pt(0.1), 0.1f)); /* 0.1 rounds to either neighbour */
  iv u = ulps(1.0, 1.0, 2);
  assert_true(within(u, 1.0 + 2 * 0x1p-23));
  assert_false(within(u, 1.0 + 3 * 0x1p-23));
  iv s = abserr(0.5, 0.5, 0x1p-11);
  assert_true(within(s, 0.5 + 0x1p-12));
  assert_false(within(s, 0.5 + 0x1p-10));
  float in[STRIDE] = {3.0f};
  iv f;
  assert_true(inh_sqrt(in, &f));
  assert_true(within(f, sqrtf(3.0f)));
  assert_false(within(f, sqrtf(3.0f) * 1.001f));
  assert_true(ulp32(1.0) == 0x1p-24); /* the smaller gap, below 1 */
  assert_true(ulp32(1.5) == 0x1p-23);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bounds_reject),
      cmocka_unit_test(test_accuracy_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
