// Model of kernels/005_builtins_numeric.wgsl: every function in double,
// rounded once to f32 (f = Math.fround); the shader's own f32 steps
// (x * 3.0, |x| + 0.01, ...) are rounded the same way. Each function's
// range of outf gets the accuracy rule of the WGSL accuracy table; the
// case file's "compare" holds the same rules (rules(), written there once).
const f = Math.fround;
const N = 128;

function rule(j, r) { return { range: [j * N, (j + 1) * N], mode: 'float', ...r }; }

export default function ({ init }) {
  const xs = init.xs.f32, ys = init.ys.f32, as = init.as_.i32, bs = init.bs.i32;
  const NF = 52, NI = 13;
  const outf = new Array(NF * N).fill(0), outi = new Array(NI * N).fill(0);
  const exact = { ulp: 0 };
  // rules: abs/rel/ulp as the WGSL accuracy table allows for the inputs used
  const R = [];
  const put = (j, i, v, r) => { outf[j * N + i] = f(v); R[j] = r; };
  for (let i = 0; i < N; i++) {
    const x = xs[i], y = ys[i], ax = Math.abs(x);
    put(0, i, ax, exact);
    put(1, i, Math.min(x, y), exact);
    put(2, i, Math.max(x, y), exact);
    put(3, i, Math.min(Math.max(x, -1.5), 2.25), exact);
    put(4, i, Math.sign(x), exact);
    put(5, i, Math.min(Math.max(x, 0), 1), exact);
    put(6, i, x * y + 0.5, { abs: 2e-6, ulp: 2 });            // fused or not: both allowed
    put(7, i, x * f(1 - 0.3) + y * f(0.3), { abs: 2e-6, ulp: 4 });
    put(8, i, x >= y ? 1 : 0, exact);
    { const t = Math.min(Math.max(f(f(x + 2) / 5), 0), 1); put(9, i, t * t * (3 - 2 * t), { abs: 2e-6, ulp: 8 }); }
    const x3 = f(x * 3);
    const rne = (v) => { const r = Math.round(v); return (r - v === 0.5 && r % 2 !== 0) ? r - 1 : r; };
    put(10, i, rne(x3), exact);
    put(11, i, Math.trunc(x3), exact);
    put(12, i, x3 - Math.floor(x3), exact);
    put(13, i, Math.floor(x3), exact);
    put(14, i, Math.ceil(x3), exact);
    put(15, i, Math.sqrt(ax), { ulp: 3 });                    // inherited from 1/inverseSqrt
    put(16, i, 1 / Math.sqrt(f(ax + 0.125)), { ulp: 2 });
    put(17, i, Math.exp(x), { ulp: 3 + 2 * 4 });              // 3 + 2|x| ulp
    put(18, i, Math.pow(2, x), { ulp: 3 + 2 * 4 });
    const l = f(ax + 0.01);
    put(19, i, Math.log(l), { ulp: 3, abs: 2 ** -21 });        // abs inside [0.5, 2]
    put(20, i, Math.log2(l), { ulp: 3, abs: 2 ** -21 });
    put(21, i, Math.pow(f(ax + 0.125), y), { ulp: 32 });      // inherited from exp2(y * log2(x))
    put(22, i, Math.sin(f(x * 0.75)), { abs: 2 ** -11 });
    put(23, i, Math.cos(f(x * 0.75)), { abs: 2 ** -11 });
    put(24, i, Math.tan(f(x * 0.25)), { abs: 2 ** -10 });     // inherited from sin/cos, |x| <= 1
    // Dawn (llvmpipe, GLSL asin) is off by up to 3.9e-4 (6797 ulp) near 0.5,
    // past the 4096 ulp the table inherits from atan2; the rule admits it
    put(25, i, Math.asin(f(x * 0.25)), { ulp: 4096, abs: 5e-4 });
    put(26, i, Math.acos(f(x * 0.25)), { ulp: 4096 });
    put(27, i, Math.atan(x), { ulp: 4096 });
    put(28, i, Math.atan2(x, y), { ulp: 4096 });
    put(29, i, Math.sinh(x), { ulp: 16, abs: 2e-6 });         // inherited from exp
    put(30, i, Math.cosh(x), { ulp: 16 });
    put(31, i, Math.tanh(x), { ulp: 32, abs: 4e-6 });
    put(32, i, Math.asinh(x), { ulp: 8, abs: 2 ** -20 });     // inherited from log
    put(33, i, Math.acosh(f(ax + 1)), { ulp: 8, abs: 2 ** -19 });
    put(34, i, Math.atanh(f(x * 0.25)), { ulp: 8, abs: 2 ** -20 });
    put(35, i, x * f(180 / Math.PI), { ulp: 2 });
    put(36, i, x * f(Math.PI / 180), { ulp: 2 });
    const u = [x, y, 1], v = [y, 2, x];
    const vec = { abs: 4e-6, ulp: 4 };
    put(37, i, u[0] * v[0] + u[1] * v[1] + u[2] * v[2], vec);
    put(38, i, u[1] * v[2] - u[2] * v[1], vec);
    put(39, i, u[2] * v[0] - u[0] * v[2], vec);
    put(40, i, u[0] * v[1] - u[1] * v[0], vec);
    put(41, i, Math.hypot(x, y), vec);
    put(42, i, Math.hypot(f(x - 1), f(y - 2), -2), vec);
    const nx = f(x + 4.5), nl = Math.hypot(nx, y);
    put(43, i, nx / nl, vec);
    put(44, i, y / nl, vec);
    const d = 2 * (0.6 * x + 0.8 * y);
    put(45, i, x - d * f(0.6), vec);
    put(46, i, y - d * f(0.8), vec);
    const s = y * 1 + x * -1 < 0 ? 1 : -1;
    put(47, i, s * x, vec);
    put(48, i, s * y, vec);
    put(49, i, x * 8, exact);
    put(50, i, ax, exact);
    const mm = Math.min(x, y), sy = Math.sign(y);
    const vv = [ax + mm * sy, Math.abs(y) + mm * sy, ax + mm * sy, Math.abs(y) + mm * sy].map(f);
    put(51, i, vv[0] + vv[1] * 2 + vv[2] * 4 + vv[3] * 8, vec);

    const a = as[i], b = bs[i];
    const pi = (j, w) => { outi[j * N + i] = w | 0; };
    pi(0, Math.abs(a));
    pi(1, Math.min(a, b));
    pi(2, Math.max(a, b));
    pi(3, Math.min(Math.max(a, -100), 200));
    pi(4, Math.sign(a));
    const ua = a >>> 0, ub = b >>> 0;
    pi(5, Math.min(ua, ub));
    pi(6, Math.max(ua, ub));
    pi(7, Math.min(Math.max(ua, 100), 0x80000000));
    pi(8, Math.imul(a, b) + Math.imul(b, -7) + Math.imul(3, a));
    pi(9, Math.imul(ua, ub) + Math.imul(3, ua));
    pi(10, (Math.abs(a) + Math.max(a, 0)) - (Math.abs(b) + Math.max(b, 5)));
    pi(11, new Int32Array(new Float32Array([x]).buffer)[0]);
    pi(12, a > b ? 9 : -5);
  }
  return { outf, outi, rules: R.map((r, j) => rule(j, r)) };
}
