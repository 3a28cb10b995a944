#!/usr/bin/env node
// The interpreter's instruction-set variants against each other: bench_suite
// run in rounds, one process per variant (LOCKSTEP_ISA=sse2, avx2, avx512,
// those the CPU has), alternating, the order rotating per round. Each
// process also times the native C loops, so every figure is a ratio to a
// baseline measured in the same process: per workload and width, the
// median CPU time over native C's for each variant, and each variant's
// time over sse2's (the ratio of those medians; the range over rounds in
// brackets). Outputs are compared too: every variant must write the same
// bytes as native C.
//
//   node bench/isa_ab.mjs [--rounds R] [--reps K] [--only a,b] [--isa sse2,avx2]
//                         [--build DIR] [--bench PATH] [--variant LABEL=PATH[:ISA]]...
//
// --variant (repeatable) compares builds instead: LABEL's bench_suite at
// PATH, under LOCKSTEP_ISA=ISA when given; the first is the baseline.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opt = { rounds: 3, reps: 2, only: null, isa: null, bench: null, build: path.join(ROOT, 'build'), variants: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--rounds') opt.rounds = Number(argv[++i]);
  else if (a === '--reps') opt.reps = Number(argv[++i]);
  else if (a === '--only') opt.only = argv[++i];
  else if (a === '--isa') opt.isa = argv[++i].split(',');
  else if (a === '--build') opt.build = path.resolve(argv[++i]);
  else if (a === '--bench') opt.bench = path.resolve(argv[++i]);
  else if (a === '--variant') {
    const [label, rest] = argv[++i].split('=');
    const [bin, isa] = rest.split(':');
    opt.variants.push({ label, bench: path.resolve(bin), isa: isa || '' });
  }
  else { console.error(`isa_ab.mjs: unknown argument '${a}'`); process.exit(2); }
}
const BENCH = opt.bench || path.join(opt.build, 'bench', 'bench_suite');
// The variants this CPU has (bench_suite isa lists them), or the builds
// named by --variant.
const have = spawnSync(BENCH, ['isa'], { encoding: 'utf8' }).stdout.trim().split(/\s+/);
const variants = opt.variants.length ? opt.variants
  : (opt.isa || have).filter((x) => have.includes(x)).map((isa) => ({ label: isa, bench: BENCH, isa }));
const isas = variants.map((v) => v.label);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-isa-'));
const data = {}; // data[isa][workload][impl] = [{round, cpu: [...]}]
let bad = 0;
for (let r = 0; r < opt.rounds; r++) {
  for (let j = 0; j < isas.length; j++) {
    const v = variants[(j + r) % variants.length], isa = v.label;
    const dir = path.join(tmp, isa);
    fs.mkdirSync(dir, { recursive: true });
    const args = ['run', '--reps', String(opt.reps), ...(opt.only ? ['--only', opt.only] : []), ...(r === 0 ? ['--out', dir] : [])];
    const env = { ...process.env };
    if (v.isa) env.LOCKSTEP_ISA = v.isa;
    const p = spawnSync(v.bench, args, { encoding: 'utf8', env, maxBuffer: 1 << 26 });
    if (p.status !== 0) { console.error(p.stderr); process.exit(1); }
    for (const l of p.stdout.split('\n').filter((x) => x.startsWith('{'))) {
      const o = JSON.parse(l);
      (((data[isa] ??= {})[o.workload] ??= {})[o.impl] ??= []).push({ round: r, cpu: o.cpu_ms });
    }
  }
  process.stderr.write(`round ${r + 1} of ${opt.rounds} done\n`);
}
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]; };
const rel = (isa, wl, impl, round) => {
  const d = data[isa][wl];
  const pick = (i) => d[i].filter((x) => round === undefined || x.round === round).flatMap((x) => x.cpu);
  return median(pick(impl)) / median(pick('native'));
};
const f = (x) => x.toFixed(2);
console.log(`\nvariants: ${isas.join(', ')}; ${opt.rounds} rounds x ${opt.reps} repetitions; ` +
  `${os.cpus()[0]?.model}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
console.log(`| workload | W | ${isas.map((i) => `${i} / native`).join(' | ')} | ${isas.slice(1).map((i) => `${i} / ${isas[0]}`).join(' | ')} | outputs |`);
console.log(`| --- | --- | ${isas.map(() => '---').join(' | ')} | ${isas.slice(1).map(() => '---').join(' | ')} | --- |`);
for (const wl of Object.keys(data[isas[0]])) {
  for (const w of [8, 32, 64]) {
    const impl = `lockstep-w${w}`;
    const cols = isas.map((i) => f(rel(i, wl, impl)));
    const vs = isas.slice(1).map((i) => {
      const per = [...Array(opt.rounds).keys()].map((r) => rel(i, wl, impl, r) / rel(isas[0], wl, impl, r));
      return `${f(rel(i, wl, impl) / rel(isas[0], wl, impl))} (${f(Math.min(...per))}-${f(Math.max(...per))})`;
    });
    const nat = fs.readFileSync(path.join(tmp, isas[0], `${wl}.native.bin`));
    const same = isas.every((i) => nat.equals(fs.readFileSync(path.join(tmp, i, `${wl}.${impl}.bin`))));
    if (!same) bad = 1;
    console.log(`| ${wl} | ${w} | ${cols.join(' | ')} | ${vs.join(' | ')} | ${same ? 'identical' : 'DIFFER'} |`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(bad);
