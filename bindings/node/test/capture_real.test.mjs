// capture_real.test.mjs — captures of real programs, committed: TensorFlow.js
// operations (matMul, conv2d, softmax, a reduction along an axis, cumsum,
// top-k and a three-layer model end to end; onnxruntime-web's Conv, CumSum, ArgMax
// and a Gemm-Relu-Softmax model) recorded by
// test/capture/real/capture_real.mjs while the libraries ran them on WebGPU
// on lockstep (capture/cases/lockstep) and on Dawn (capture/cases/dawn).
// Each is replayed on lockstep and, when it is installed, on Dawn: on the
// implementation that made it the replay gives the captured bits; on the
// other it agrees within the WGSL accuracy bounds of check_real.mjs; and
// the captured outputs agree with the library's CPU backend. Neither
// library is needed here (run_real.sh, ctest capture.real, installs them
// and captures afresh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDir } from './capture/real/check_real.mjs';
import { loadImpl } from '../tools/replay.mjs';
import { loadProvider } from './seeds/provider.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const D = await loadProvider('dawn');
const noDawn = D.missing || false;
if (noDawn) console.log(`capture_real: Dawn parts skipped: ${noDawn}`);

for (const made of ['lockstep', 'dawn']) {
  for (const on of ['lockstep', 'dawn']) {
    test(`tfjs and onnxruntime-web operations captured on ${made}, replayed on ${on}`, { skip: on === 'dawn' && noDawn }, async () => {
      const rows = await checkDir(path.join(HERE, 'capture', 'cases', made), await loadImpl(on));
      assert.equal(rows.length, 6);
      for (const r of rows) {
        assert.deepEqual(r.problems, [], r.name);
        if (made === on) assert.equal(r.replayUlp, 0, `${r.name}: a replay on the implementation that captured it gives its bits`);
      }
    });
  }
}
