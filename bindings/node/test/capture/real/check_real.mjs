// check_real.mjs — checks captured TensorFlow.js operations: each case in a
// directory (NAME.json with NAME.result.json, the reads of the program that
// was captured, and NAME.cpu.json, TensorFlow.js's CPU backend on the same
// inputs) is replayed on an implementation, and
//   1. the replay's reads agree with the captured reads: integer outputs
//      exactly; f32 within 16 ULP or 1e-5 absolute (the same WGSL on two
//      implementations: WGSL lets exp, log and division be off by a few
//      ULP, and a fused or unfused multiply-add differs by rounding; the
//      absolute bound covers results that cancel to near zero), and
//   2. the captured reads agree with the library's CPU backend (tfjs's cpu,
//      onnxruntime's wasm: a different algorithm in f32, 1e-4 absolute plus
//      1e-4 relative; integers exactly, int64 as two words).
// checkDir returns one row per case, with the largest differences seen.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const capture = createRequire(import.meta.url)(path.resolve(HERE, '..', '..', '..', 'capture.js'));

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer), i32 = new Int32Array(f32.buffer);
const asF32 = (h) => { u32[0] = parseInt(h, 16); return f32[0]; };
const asI32 = (h) => { u32[0] = parseInt(h, 16); return i32[0]; };
function ulp(a, b) {
  if (Number.isNaN(a) && Number.isNaN(b)) return 0;
  f32[0] = a; const x = i32[0] < 0 ? -(i32[0] & 0x7fffffff) : i32[0];
  f32[0] = b; const y = i32[0] < 0 ? -(i32[0] & 0x7fffffff) : i32[0];
  return Math.abs(x - y);
}

export const REPLAY_ULP = 16, REPLAY_ABS = 1e-5, CPU_ABS = 1e-4, CPU_REL = 1e-4;

// Compares read `got` (hex words) with `want` (hex words or numbers) for
// n values of dtype; returns { bad, maxUlp, maxAbs }.
function compare(got, want, n, dtype, vsCpu) {
  let bad = null, maxUlp = 0, maxAbs = 0;
  for (let i = 0; i < n; i++) {
    if (dtype !== 'float32') {
      const a = asI32(got[i]), b = typeof want[i] === 'number' ? want[i] : asI32(want[i]);
      if (a !== b) bad ??= `[${i}] ${a} != ${b}`;
      continue;
    }
    const a = asF32(got[i]), b = typeof want[i] === 'number' ? Math.fround(want[i]) : asF32(want[i]);
    const d = Math.abs(a - b), u = ulp(a, b);
    if (!(d <= maxAbs)) maxAbs = Number.isNaN(d) ? Infinity : d;
    maxUlp = Math.max(maxUlp, u);
    const ok = vsCpu ? d <= CPU_ABS + CPU_REL * Math.abs(b) : u <= REPLAY_ULP || d <= REPLAY_ABS;
    if (!ok) bad ??= `[${i}] ${a} vs ${b} (${u} ULP, ${d} apart)`;
  }
  return { bad, maxUlp, maxAbs };
}

// Replays every case of dir on impl (replay.mjs's loadImpl) and checks it.
export async function checkDir(dir, impl, { only } = {}) {
  const rows = [];
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.cpu.json')).map((f) => f.slice(0, -9)).sort();
  for (const name of names) {
    if (only && name !== only) continue;
    const file = path.join(dir, `${name}.json`);
    const ref = JSON.parse(fs.readFileSync(path.join(dir, `${name}.result.json`), 'utf8'));
    const cpu = JSON.parse(fs.readFileSync(path.join(dir, `${name}.cpu.json`), 'utf8'));
    const row = { name, problems: [], replayUlp: 0, replayAbs: 0, cpuAbs: 0 };
    const { result, errors } = await capture.replay(capture.loadCase(file), impl);
    row.problems.push(...errors);
    const reads = Object.keys(ref.buffers).filter((k) => !k.startsWith('end_'));
    if (reads.length !== cpu.outputs.length) row.problems.push(`${reads.length} reads captured, ${cpu.outputs.length} outputs`);
    reads.forEach((k, j) => {
      // an int64 output is two words on the GPU, low word first
      const want = cpu.dtypes[j] === 'int64'
        ? (cpu.outputs[j] ?? []).flatMap((v) => [Number(BigInt.asUintN(32, BigInt(v))) | 0, Number(BigInt.asIntN(32, BigInt(v) >> 32n))])
        : cpu.outputs[j] ?? [];
      const got = result.buffers[k]?.hex;
      if (!got) { row.problems.push(`${k}: not in the replay's result`); return; }
      const n = want.length;
      if (ref.buffers[k].hex.length < n) row.problems.push(`${k}: ${ref.buffers[k].hex.length} words read, ${n} expected`);
      const r = compare(got, ref.buffers[k].hex, n, cpu.dtypes[j], false);
      if (r.bad) row.problems.push(`${k}: replay differs from the capture at ${r.bad}`);
      row.replayUlp = Math.max(row.replayUlp, r.maxUlp);
      row.replayAbs = Math.max(row.replayAbs, r.maxAbs);
      const c = compare(ref.buffers[k].hex, want, n, cpu.dtypes[j], true);
      if (c.bad) row.problems.push(`${k}: capture differs from the CPU backend at ${c.bad}`);
      row.cpuAbs = Math.max(row.cpuAbs, c.maxAbs);
    });
    rows.push(row);
  }
  return rows;
}

// node check_real.mjs DIR --impl lockstep|dawn [--exact]: replays and checks
// one directory of captures, prints a row per case, exit 1 on a problem
// (--exact: the replay must give the captured bits, for a capture replayed
// on the implementation that made it).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dir = args[0];
  const which = args[args.indexOf('--impl') + 1];
  const exact = args.includes('--exact');
  const { loadImpl } = await import(path.resolve(HERE, '..', '..', '..', 'tools', 'replay.mjs'));
  const rows = await checkDir(dir, await loadImpl(which));
  let failed = 0;
  for (const r of rows) {
    if (exact && r.replayUlp) r.problems.push(`replayed on the implementation that captured it, ${r.replayUlp} ULP from the capture`);
    if (r.problems.length) failed++;
    console.log(`${path.basename(dir)} on ${which}: ${r.name}: replay ${r.replayUlp} ULP / ${r.replayAbs.toExponential(1)} from the capture, ` +
      `capture ${r.cpuAbs.toExponential(1)} from the library's CPU backend${r.problems.length ? ': FAIL\n  ' + r.problems.join('\n  ') : ''}`);
  }
  if (!rows.length) { console.log(`${dir}: no captures`); failed++; }
  process.exit(failed ? 1 : 0);
}
