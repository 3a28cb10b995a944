// The speed of the JavaScript front door, against Dawn's npm `webgpu` in the
// same run (a benchmark, not a test; docs/performance.md, "JavaScript front
// door", has the figures and how they were taken):
//
//   (a) per-dispatch overhead of the JavaScript path: createBindGroup +
//       encoder + setPipeline + setBindGroup + dispatchWorkgroups(1) + end +
//       finish + submit + await onSubmittedWorkDone of a one-invocation
//       kernel, 200 in a row per process (child.mjs dispatch);
//   (b) a whole small job in a running Node process: import, adapter,
//       device, module, pipeline, one dispatch of 1,024 elements, read back;
//       Node's start-up excluded (child.mjs job).
//
// Every measurement is a child process of its own, lockstep and Dawn
// alternating (and alternating which goes first), so the two never share a
// process and every import is a first one.

// Reports medians and the ratio Dawn / lockstep (above 1: lockstep faster).
//
//   node bench/node/front_door.mjs [--rounds 15] [--iterations 200] [--jobs 15]
//                                  [--lockstep PATH]
//
// lockstep: --lockstep or LOCKSTEP_JS_PROVIDER (default: this checkout's
// bindings/node, whose addon LOCKSTEP_NODE_ADDON may name); Dawn: installed
// by ../shared/peers/setup.sh (LOCKSTEP_PEER_DIR).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryOf, loadProvider } from '../../bindings/node/test/seeds/provider.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const ROUNDS = Number(opt('rounds', 15));
const ITER = Number(opt('iterations', 200));
const JOBS = Number(opt('jobs', 15));
const envWhich = process.env.LOCKSTEP_JS_PROVIDER;
const lockstepWhich = opt('lockstep', envWhich && envWhich !== 'dawn' ? envWhich : 'lockstep');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, d = 3) => x.toFixed(d);

for (const p of [await loadProvider(lockstepWhich), await loadProvider('dawn')])
  if (p.missing) { console.error(`front_door: ${p.missing}`); process.exit(2); }

// lockstep's code cache starts empty in a folder of the run's own, so that
// what it holds comes from this run's programs (the untimed first job
// below), not from whatever ran before with the default cache.
const env = { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM || 'surfaceless',
  LOCKSTEP_NODE_CACHE: process.env.LOCKSTEP_NODE_CACHE ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-front-door-')) };
function child(mode, name, extra = []) {
  const spec = entryOf(name === 'dawn' ? 'dawn' : lockstepWhich);
  const res = spawnSync(process.execPath, [path.join(HERE, 'child.mjs'), mode, JSON.stringify(spec), ...extra], { env, encoding: 'utf8' });
  const line = res.stdout.trim().split('\n').at(-1);
  let j;
  try { j = JSON.parse(line); } catch { j = null; }
  if (!j || !j.ok) throw new Error(`${name} ${mode}: exit ${res.status ?? res.signal}: ${res.stdout}${res.stderr}`);
  return j;
}

// Runs `rounds` alternating pairs of children; returns each side's results.
function alternate(mode, rounds, extra) {
  const out = { lockstep: [], dawn: [] };
  for (let r = 0; r < rounds; r++)
    for (const name of r % 2 ? ['dawn', 'lockstep'] : ['lockstep', 'dawn']) out[name].push(child(mode, name, extra));
  return out;
}

// One untimed job each first: the one that finds lockstep's code cache
// missing or stale compiles the JavaScript layer and writes the cache, as
// any first run after an install or an edit does; the rounds measure the
// runs after it (and Dawn's first run warms the page cache alike).
alternate('job', 1);
const a = alternate('dispatch', ROUNDS, [String(ITER)]);
const b = alternate('job', JOBS);

const us = (name) => a[name].map((j) => j.us);
const ms = (name) => b[name].map((j) => j.jobMs);
const part = (name, k) => median(b[name].map((j) => j[k]));
const mA = { lockstep: median(us('lockstep')), dawn: median(us('dawn')) };
const mB = { lockstep: median(ms('lockstep')), dawn: median(ms('dawn')) };
console.log(`front door: lockstep = ${lockstepWhich}, Dawn = npm webgpu (OpenGL ES, llvmpipe, compatibility)`);
console.log(`(a) per dispatch: ${ROUNDS} processes each x ${ITER} dispatches, median of the processes' means`);
console.log(`    lockstep ${fmt(mA.lockstep, 1)} us   dawn ${fmt(mA.dawn, 1)} us   dawn / lockstep ${fmt(mA.dawn / mA.lockstep, 2)}`);
console.log(`    lockstep: ${us('lockstep').map((x) => fmt(x, 0)).join(' ')}`);
console.log(`    dawn:     ${us('dawn').map((x) => fmt(x, 0)).join(' ')}`);
console.log(`(b) small job (import .. read back of 1,024 elements): ${JOBS} processes each, medians`);
console.log(`    lockstep ${fmt(mB.lockstep, 1)} ms   dawn ${fmt(mB.dawn, 1)} ms   dawn / lockstep ${fmt(mB.dawn / mB.lockstep, 1)}`);
const cpuL = part('lockstep', 'cpuMs'), cpuD = part('dawn', 'cpuMs');
console.log(`    CPU time of all threads: lockstep ${fmt(cpuL, 1)} ms   dawn ${fmt(cpuD, 1)} ms   dawn / lockstep ${fmt(cpuD / cpuL, 1)}`);
for (const name of ['lockstep', 'dawn'])
  console.log(`    ${name.padEnd(8)} import ${fmt(part(name, 'importMs'), 1)} ms, adapter + device ${fmt(part(name, 'deviceMs'), 1)} ms, ` +
    `module .. read back ${fmt(part(name, 'workMs'), 1)} ms (Node start-up before the clock: ${fmt(part(name, 'startupMs'), 1)} ms)`);
