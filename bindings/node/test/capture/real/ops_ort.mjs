// ops_ort.mjs — the onnxruntime-web operations the real-program captures
// record: each is a one-graph ONNX model (onnx.mjs) with its inputs from a
// fixed seed; run(ort) gives { model, feeds, fetches }. `small` marks the
// ones run_real.sh captures by default.
import { model } from './onnx.mjs';
import { values } from './ops.mjs';

const size = (dims) => dims.reduce((a, b) => a * b, 1);
const feed = (ort, dims, seed, lo, hi) => new ort.Tensor('float32', values(size(dims), seed, lo, hi), dims);
const weights = (dims, seed, lo, hi) => values(size(dims), seed, lo, hi);
const i64 = (...v) => BigInt64Array.from(v.map(BigInt));

function single(op, inDims, outDims, { attrs, initializers = [], extraInputs = [], seed, lo, hi } = {}) {
  return (ort) => ({
    model: model({ nodes: [{ op, inputs: ['X', ...extraInputs], outputs: ['Y'], attrs }], inputs: [['X', inDims]],
      outputs: [['Y', outDims]], initializers }),
    feeds: { X: feed(ort, inDims, seed, lo, hi) },
    fetches: ['Y'],
  });
}

export const ORT_OPS = [
  { name: 'ort_matmul_24x40x12', small: true, run: single('MatMul', [24, 40], [24, 12], { extraInputs: ['W'], seed: 101,
    initializers: [['W', [40, 12], weights([40, 12], 102)]] }) },
  { name: 'ort_matmul_batch_2x9x33x7', run: single('MatMul', [2, 9, 33], [2, 9, 7], { extraInputs: ['W'], seed: 103,
    initializers: [['W', [33, 7], weights([33, 7], 104)]] }) },
  { name: 'ort_conv_1x3x10x10_4x3x3x3', small: true, run: single('Conv', [1, 3, 10, 10], [1, 4, 10, 10], { extraInputs: ['W', 'B'], seed: 105,
    attrs: { pads: [1, 1, 1, 1], kernel_shape: [3, 3] },
    initializers: [['W', [4, 3, 3, 3], weights([4, 3, 3, 3], 106)], ['B', [4], weights([4], 107)]] }) },
  { name: 'ort_softmax_6x50', small: true, run: single('Softmax', [6, 50], [6, 50], { attrs: { axis: 1 }, seed: 108, lo: -5, hi: 5 }) },
  { name: 'ort_reducesum_axis1_8x31x5', small: true, run: single('ReduceSum', [8, 31, 5], [8, 1, 5], { extraInputs: ['axes'], seed: 109,
    initializers: [['axes', [1], i64(1)]] }) },
  { name: 'ort_reducemean_axis2_4x6x70', run: single('ReduceMean', [4, 6, 70], [4, 6], { attrs: { axes: [2], keepdims: 0 }, seed: 110 }) },
  { name: 'ort_cumsum_axis1_5x200', small: true, run: single('CumSum', [5, 200], [5, 200], { extraInputs: ['axis'], seed: 111,
    initializers: [['axis', [], i64(1)]] }) },
  // onnxruntime-web 1.20's WebGPU provider has no TopK (it runs on the CPU,
  // nothing to capture); ArgMax is its nearest top-k relative.
  { name: 'ort_argmax_axis1_4x64', small: true, run: (ort) => ({
    model: model({ nodes: [{ op: 'ArgMax', inputs: ['X'], outputs: ['I'], attrs: { axis: 1, keepdims: 0 } }], inputs: [['X', [4, 64]]],
      outputs: [['I', [4], 'int64']] }),
    feeds: { X: feed(ort, [4, 64], 112) },
    fetches: ['I'],
  }) },
  { name: 'ort_mlp_gemm_relu_4x16', small: true, run: (ort) => ({
    // a small model end to end: Gemm, Relu, Gemm, Relu, Gemm, Softmax
    model: model({
      nodes: [
        { op: 'Gemm', inputs: ['X', 'W0', 'B0'], outputs: ['h0'] }, { op: 'Relu', inputs: ['h0'], outputs: ['r0'] },
        { op: 'Gemm', inputs: ['r0', 'W1', 'B1'], outputs: ['h1'] }, { op: 'Relu', inputs: ['h1'], outputs: ['r1'] },
        { op: 'Gemm', inputs: ['r1', 'W2', 'B2'], outputs: ['h2'] }, { op: 'Softmax', inputs: ['h2'], outputs: ['Y'], attrs: { axis: 1 } },
      ],
      inputs: [['X', [4, 16]]], outputs: [['Y', [4, 8]]],
      initializers: [[16, 32], [32, 24], [24, 8]].flatMap(([i, o], k) => [
        [`W${k}`, [i, o], weights([i, o], 120 + k, -0.4, 0.4)], [`B${k}`, [o], weights([o], 130 + k, -0.1, 0.1)]]),
    }),
    feeds: { X: feed(ort, [4, 16], 113) },
    fetches: ['Y'],
  }) },
];
