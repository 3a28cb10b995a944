// ops.mjs — the TensorFlow.js operations the real-program captures record:
// each builds its inputs from a fixed seed and returns the output tensors
// whose data() the program reads (each read is one readback of the case).
// `small` is the set whose captures are committed as tests; the rest is
// produced by capture_real.mjs --set all.

// Deterministic inputs in [lo, hi): version 1's LCG, f32 formula.
export function values(n, seed, lo = -1, hi = 1) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = Number((1664525n * BigInt(s) + 1013904223n) % 4294967296n);
    out[i] = lo + (hi - lo) * Math.floor(s / 256) / 2 ** 24;
  }
  return out;
}

const t = (tf, shape, seed, lo, hi) => tf.tensor(values(shape.reduce((a, b) => a * b, 1), seed, lo, hi), shape);

export const OPS = [
  { name: 'matmul_4x4x4', small: true, run: (tf) => [tf.matMul(t(tf, [4, 4], 1), t(tf, [4, 4], 2))] },
  { name: 'matmul_33x17x29', run: (tf) => [tf.matMul(t(tf, [33, 17], 3), t(tf, [17, 29], 4))] },
  { name: 'matmul_64x128x96', run: (tf) => [tf.matMul(t(tf, [64, 128], 5), t(tf, [128, 96], 6))] },
  { name: 'matmul_batch_3x8x16x5', run: (tf) => [tf.matMul(t(tf, [3, 8, 16], 7), t(tf, [3, 16, 5], 8))] },
  { name: 'matmul_transposed_20x12x9', run: (tf) => [tf.matMul(t(tf, [12, 20], 9), t(tf, [9, 12], 10), true, true)] },
  { name: 'conv2d_1x8x8x3_3x3x3x4', small: true, run: (tf) => [tf.conv2d(t(tf, [1, 8, 8, 3], 11), t(tf, [3, 3, 3, 4], 12), 1, 'same')] },
  { name: 'conv2d_2x15x13x4_5x5x4x6_stride2', run: (tf) => [tf.conv2d(t(tf, [2, 15, 13, 4], 13), t(tf, [5, 5, 4, 6], 14), 2, 'valid')] },
  { name: 'softmax_7x33', small: true, run: (tf) => [tf.softmax(t(tf, [7, 33], 15, -4, 4))] },
  { name: 'softmax_2x1000', run: (tf) => [tf.softmax(t(tf, [2, 1000], 16, -8, 8))] },
  { name: 'sum_axis0_37x19', small: true, run: (tf) => [tf.sum(t(tf, [37, 19], 17), 0)] },
  { name: 'sum_axis1_37x19', run: (tf) => [tf.sum(t(tf, [37, 19], 18), 1)] },
  { name: 'max_axis1_5x300', run: (tf) => [tf.max(t(tf, [5, 300], 19), 1)] },
  { name: 'mean_axis2_4x6x50', run: (tf) => [tf.mean(t(tf, [4, 6, 50], 20), 2)] },
  { name: 'min_all_4097', run: (tf) => [tf.min(t(tf, [4097], 21))] },
  { name: 'cumsum_300', small: true, run: (tf) => [tf.cumsum(t(tf, [300], 22))] },
  { name: 'cumsum_axis1_6x129_reverse', run: (tf) => [tf.cumsum(t(tf, [6, 129], 23), 1, false, true)] },
  { name: 'topk_3x100_k5', small: true, run: (tf) => { const r = tf.topk(t(tf, [3, 100], 24), 5); return [r.values, r.indices]; } },
  { name: 'topk_1000_k17', run: (tf) => { const r = tf.topk(t(tf, [1000], 25), 17); return [r.values, r.indices]; } },
  { name: 'mlp_3layer_8x32', small: true, run: (tf) => {
    // a small model end to end: dense+relu, dense+relu, dense+softmax
    let x = t(tf, [8, 32], 26);
    const layers = [[32, 64], [64, 48], [48, 10]];
    layers.forEach(([i, o], k) => {
      x = tf.add(tf.matMul(x, t(tf, [i, o], 30 + k, -0.3, 0.3)), t(tf, [o], 40 + k, -0.1, 0.1));
      x = k < layers.length - 1 ? tf.relu(x) : tf.softmax(x);
    });
    return [x];
  } },
];
