#!/usr/bin/env node
// The benchmark suite, in one invocation: every workload of bench_suite.c on
// lockstep (W = 8, 32, 64, one thread, through the public C API) and as
// native C (gcc -O2, the bench build's flags), and on Dawn (npm `webgpu`,
// bench/node/suite_dawn.mjs), in rounds that alternate between the C
// process and the Dawn process (and which of the two goes first), then the
// whole small job as a process: `lockstep run` against Dawn's run_dawn.mjs
// on bench/suite/small_job.json, alternating. Prints per-dispatch medians
// of wall and CPU time, the ratios lockstep/Dawn and lockstep/native with
// the range of the per-round ratios, W = 8 against W = 32, and whether the
// outputs agree (lockstep at every width against native C bit for bit;
// Dawn against native C: words that differ and by how much).
//
//   node bench/suite.mjs [--rounds R] [--reps K] [--quick] [--only a,b]
//                        [--jobs J] [--no-dawn] [--build DIR] [--json FILE]
//
// Defaults: 3 rounds of 3 repetitions (a few minutes on a 2-core machine);
// --quick is 1 round of 1 repetition and 3 jobs. See docs/performance.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opt = { rounds: 3, reps: 3, jobs: 9, only: null, dawn: true, build: path.join(ROOT, 'build'), json: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--rounds') opt.rounds = Number(argv[++i]);
  else if (a === '--reps') opt.reps = Number(argv[++i]);
  else if (a === '--jobs') opt.jobs = Number(argv[++i]);
  else if (a === '--quick') Object.assign(opt, { rounds: 1, reps: 1, jobs: 3 });
  else if (a === '--only') opt.only = argv[++i];
  else if (a === '--no-dawn') opt.dawn = false;
  else if (a === '--build') opt.build = path.resolve(argv[++i]);
  else if (a === '--json') opt.json = argv[++i];
  else {
    console.error(`suite.mjs: unknown argument '${a}' (see the comment at the top of bench/suite.mjs)`);
    process.exit(2);
  }
}
const BENCH = path.join(opt.build, 'bench', 'bench_suite');
const CLI = path.join(opt.build, 'lockstep');
if (!fs.existsSync(BENCH)) {
  console.error(`suite.mjs: ${BENCH} is missing; build first (cmake --build ${opt.build} -j2)`);
  process.exit(2);
}
const PEER = process.env.LOCKSTEP_PEER_DIR || path.join(os.homedir(), '.cache', 'lockstep-peer');
const RUN_DAWN = path.join(PEER, 'run_dawn.mjs');
if (opt.dawn && !fs.existsSync(path.join(PEER, 'node_modules', 'webgpu'))) {
  console.error(`suite.mjs: Dawn is not installed in ${PEER} (../shared/peers/setup.sh); running without it`);
  opt.dawn = false;
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-suite-'));
const env = { ...process.env, EGL_PLATFORM: process.env.EGL_PLATFORM || 'surfaceless' };

function lines(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    console.error(`suite.mjs: ${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
    process.exit(1);
  }
  return r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

const specFile = path.join(tmp, 'spec.json');
fs.writeFileSync(specFile, spawnSync(BENCH, ['spec'], { encoding: 'utf8' }).stdout);
const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
const names = spec.workloads.map((w) => w.name).filter((n) => !opt.only || opt.only.split(',').includes(n));

// samples[workload][impl] = [{ round, wall: [...], cpu: [...] }]
const samples = {};
const skipped = {};
function record(rows, round) {
  for (const r of rows) {
    if (r.skipped) { skipped[r.workload] = r.skipped; continue; }
    ((samples[r.workload] ??= {})[r.impl] ??= []).push({ round, wall: r.wall_ms, cpu: r.cpu_ms });
  }
}

const common = ['--reps', String(opt.reps), ...(opt.only ? ['--only', opt.only] : [])];
for (let round = 0; round < opt.rounds; round++) {
  const out = round === 0 ? ['--out', tmp] : [];
  const c = () => record(lines(BENCH, ['run', ...common, ...out]), round);
  const d = () => opt.dawn && record(lines('node', [path.join(ROOT, 'bench/node/suite_dawn.mjs'), specFile, ...common, ...out]), round);
  if (round % 2) { d(); c(); } else { c(); d(); }
  process.stderr.write(`round ${round + 1} of ${opt.rounds} done\n`);
}

// The small job as a process: wall time and the CPU time of the process
// (user + system from wait4's rusage: `bench_suite exec`).
function timed(cmd, args) {
  const r = spawnSync(BENCH, ['exec', cmd, ...args], { encoding: 'utf8', env });
  if (r.status !== 0) {
    console.error(`suite.mjs: ${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
    process.exit(1);
  }
  const t = JSON.parse(r.stdout.trim().split('\n').pop());
  return { wall: t.wall_ms, cpu: t.cpu_ms };
}
const JOB = path.join(ROOT, 'bench/suite/small_job.json');
if (opt.jobs > 0 && (!opt.only || opt.only.split(',').includes('small_job'))) {
  const jl = path.join(tmp, 'job.lockstep.json'), jd = path.join(tmp, 'job.dawn.json');
  const runs = { lockstep: [], dawn: [] };
  for (let j = 0; j < opt.jobs; j++) {
    const a = () => runs.lockstep.push({ round: j, ...timed(CLI, ['run', JOB, '--quiet', '--out', jl]) });
    const b = () => opt.dawn && runs.dawn.push({ round: j, ...timed('node', [RUN_DAWN, JOB, '--out', jd]) });
    if (j % 2) { b(); a(); } else { a(); b(); }
  }
  samples.small_job = {
    'lockstep-w32': runs.lockstep.map((r) => ({ round: r.round, wall: [r.wall], cpu: [r.cpu] })),
    ...(opt.dawn ? { dawn: runs.dawn.map((r) => ({ round: r.round, wall: [r.wall], cpu: [r.cpu] })) } : {}),
  };
  names.push('small_job');
  if (opt.dawn) {
    const A = JSON.parse(fs.readFileSync(jl, 'utf8')).buffers, B = JSON.parse(fs.readFileSync(jd, 'utf8')).buffers;
    const same = Object.keys(A).every((k) => A[k].values.length === B[k].values.length &&
      A[k].values.every((v, i) => Object.is(Math.fround(v), Math.fround(B[k].values[i]))));
    skipped.small_job_agree = same ? 'read-back buffers identical' : 'READ-BACK BUFFERS DIFFER';
  }
}

// ------------------------------------------------------------------ figures
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : NaN; };
const all = (wl, impl, k) => (samples[wl]?.[impl] ?? []).flatMap((r) => r[k]);
const roundMed = (wl, impl, k, round) => median((samples[wl]?.[impl] ?? []).filter((r) => r.round === round).flatMap((r) => r[k]));
function ratio(wl, a, b, k) {
  const m = median(all(wl, a, k)) / median(all(wl, b, k));
  const per = [];
  for (const r of new Set((samples[wl]?.[a] ?? []).map((x) => x.round))) {
    const x = roundMed(wl, a, k, r) / roundMed(wl, b, k, r);
    if (Number.isFinite(x)) per.push(x);
  }
  return { m, lo: Math.min(...per), hi: Math.max(...per) };
}
const fmt = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) : '—');
const fr = (r) => (Number.isFinite(r.m) ? `${fmt(r.m)} (${fmt(r.lo)}-${fmt(r.hi)})` : '—');

// Output agreement, from the first round's buffers.
function agree(wl) {
  const file = (impl) => path.join(tmp, `${wl}.${impl}.bin`);
  if (!fs.existsSync(file('native'))) return '';
  const nat = fs.readFileSync(file('native'));
  const lsOk = ['lockstep-w8', 'lockstep-w32', 'lockstep-w64'].every((i) => fs.existsSync(file(i)) && nat.equals(fs.readFileSync(file(i))));
  let s = lsOk ? 'lockstep = native' : 'LOCKSTEP DIFFERS FROM NATIVE';
  if (!fs.existsSync(file('dawn'))) return s;
  const dawn = fs.readFileSync(file('dawn'));
  if (dawn.equals(nat)) return `${s}; Dawn = native`;
  const isF = spec.workloads.find((w) => w.name === wl)?.resources.some((r) => r.kind !== 'uniform' && r.init !== 'lcg_u32' && r.init !== 'iota1') && wl !== 'mandelbrot';
  const a = isF ? new Float32Array(nat.buffer, nat.byteOffset, nat.length / 4) : new Uint32Array(nat.buffer, nat.byteOffset, nat.length / 4);
  const b = isF ? new Float32Array(dawn.buffer, dawn.byteOffset, dawn.length / 4) : new Uint32Array(dawn.buffer, dawn.byteOffset, dawn.length / 4);
  let n = 0, max = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) { n++; max = Math.max(max, Math.abs(a[i] - b[i])); }
  return `${s}; Dawn: ${n} of ${a.length} words differ, by at most ${max.toPrecision(3)}`;
}

const rows = [];
const ms = (wl, impl, k) => fmt(median(all(wl, impl, k)));
console.log(`\nlockstep benchmark suite: ${opt.rounds} round(s) x ${opt.reps} repetition(s), ${opt.jobs} small jobs; ` +
  `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
console.log('Per dispatch, medians in ms (CPU time / wall time); ratios of CPU-time medians (range of the per-round ratios).\n');
console.log('| workload | W=8 | W=32 | W=64 | native C | Dawn | W=32 / Dawn | W=32 / native | W=8 / W=32 | outputs |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const wl of names) {
  const cell = (impl) => (samples[wl]?.[impl] ? `${ms(wl, impl, 'cpu')} / ${ms(wl, impl, 'wall')}` : '—');
  const rd = ratio(wl, 'lockstep-w32', 'dawn', 'cpu'), rn = ratio(wl, 'lockstep-w32', 'native', 'cpu');
  const r8 = ratio(wl, 'lockstep-w8', 'lockstep-w32', 'cpu');
  const note = wl === 'small_job' ? (skipped.small_job_agree ?? '') : agree(wl) + (skipped[wl] ? `; Dawn skipped: ${skipped[wl]}` : '');
  console.log(`| ${wl} | ${cell('lockstep-w8')} | ${cell('lockstep-w32')} | ${cell('lockstep-w64')} | ${cell('native')} | ` +
    `${cell('dawn')} | ${fr(rd)} | ${fr(rn)} | ${fr(r8)} | ${note} |`);
  rows.push({ workload: wl, ratios: { dawn: rd, native: rn, w8: r8 }, note });
}
console.log('\nsmall_job: the whole process (`lockstep run`, default threads, W = 32, against node run_dawn.mjs).');
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify({ opt, samples, rows, load: os.loadavg() }, null, 1));
fs.rmSync(tmp, { recursive: true, force: true });
