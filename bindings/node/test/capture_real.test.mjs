// capture_real.test.mjs — captures of real programs, committed: TensorFlow.js
// operations (matMul, conv2d, softmax, a reduction along an axis, cumsum,
// top-k and a three-layer model end to end; onnxruntime-web's Conv, CumSum, ArgMax
// and a Gemm-Relu-Softmax model) recorded by
// test/capture/real/capture_real.mjs while the libraries ran them on WebGPU
// on lockstep (capture/cases/lockstep), on Dawn on llvmpipe
// (capture/cases/dawn) and on Dawn's Vulkan backend on an NVIDIA H200
// (capture/cases/h200, made by capture_gpu.sh on the GPU machine).
// Each is replayed on lockstep and, when it is installed, on Dawn: on the
// implementation that made it the replay gives the captured bits; on the
// other it agrees within the WGSL accuracy bounds of check_real.mjs; and
// the captured outputs agree with the library's CPU backend. lockstep run
// (the C replayer, $LOCKSTEP_CLI or build/lockstep) replays each with
// --expect and the compare rules the capture wrote. Neither
// library is needed here (run_real.sh, ctest capture.real, installs them
// and captures afresh).
import { test } from 'node:test';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
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

for (const made of ['lockstep', 'dawn', 'h200']) {
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

const CLI = process.env.LOCKSTEP_CLI || path.join(HERE, '..', '..', '..', 'build', 'lockstep');
test('lockstep run --expect replays every committed capture to its reference', { skip: !fs.existsSync(CLI) && `no ${CLI}` }, () => {
  let n = 0;
  for (const made of ['lockstep', 'dawn', 'h200']) {
    const dir = path.join(HERE, 'capture', 'cases', made);
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json') && !x.endsWith('.result.json') && !x.endsWith('.cpu.json'))) {
      const c = path.join(dir, f);
      // the H200's device asked for its 48 KiB of workgroup storage: the
      // nvidia profile offers it, the default adapter (32 KiB) does not
      const profile = made === 'h200' ? ['--profile', 'nvidia'] : [];
      const r = spawnSync(CLI, ['run', c, '--expect', c.replace(/\.json$/, '.result.json'), '--quiet', ...profile], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${made}/${f}: ${r.stdout}${r.stderr}`);
      n++;
    }
  }
  assert.equal(n, 18);
});

test('lockstep run --check on captures: a clean one passes; tfjs matMul reading past its B binding is found at the module file and line', { skip: !fs.existsSync(CLI) && `no ${CLI}` }, () => {
  const dir = path.join(HERE, 'capture', 'cases', 'lockstep');
  let r = spawnSync(CLI, ['run', path.join(dir, 'cumsum_300.json'), '--check', '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /check: 0 errors, 0 warnings/);
  r = spawnSync(CLI, ['run', path.join(dir, 'mlp_3layer_8x32.json'), '--check', '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  // getB's read of B (tfjs 4.22's matMul shader, written to its own file by the capture)
  assert.match(r.stdout + r.stderr, /mlp_3layer_8x32\.m12\.wgsl:146:18 error: out-of-bounds read of 4 bytes from 'B' \(@group\(0\) @binding\(2\)\) at byte offset 8192; the binding is 8192 bytes/);
  const line = fs.readFileSync(path.join(dir, 'mlp_3layer_8x32.m12.wgsl'), 'utf8').split('\n')[145];
  assert.match(line, /return f32\(B\[/);
});
