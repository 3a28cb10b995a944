// Checks the profiler's cost model against the GPU timings committed here:
//
//   node bench/gpu/check_model.mjs LOCKSTEP [--log h200-run1.json] [--all] [NAME ...]
//
// Runs each case under `lockstep run --profile nvidia --prof-json -`, reads
// the predicted time, and compares it with the measured one (h200-run3.json,
// all 38 cases): within 2x
// absolute, and for each group of variants (experiments.json) the ratio of
// every variant to the group's first within +-20% of the measured ratio.
// Without --all the slow microbenchmarks (over a few seconds on the CPU)
// are left out. Prints a table; exit 1 when a check fails.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SLOW = new Set(['alu_int', 'alu_f32', 'banks1', 'banks32', 'uniform', 'sfu', 'barrier', 'parity_split', 'alu_xs']);
const args = process.argv.slice(2);
const lockstep = args.shift();
let logName = 'h200-run3.json', all = false;
const only = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--log') logName = args[++i];
  else if (args[i] === '--all') all = true;
  else only.push(args[i]);
}
if (!lockstep) { console.error('usage: check_model.mjs LOCKSTEP [--log FILE] [--all] [NAME ...]'); process.exit(2); }
const log = JSON.parse(fs.readFileSync(path.join(HERE, logName), 'utf8'));
const measured = new Map(log.results.map((r) => [r.case, r.us]));
// alu_xs came last, in its own run (h200-run5.json)
if (logName === 'h200-run3.json')
  for (const r of JSON.parse(fs.readFileSync(path.join(HERE, 'h200-run5.json'), 'utf8')).results)
    if (!measured.has(r.case)) measured.set(r.case, r.us);
const exps = JSON.parse(fs.readFileSync(path.join(HERE, 'experiments.json'), 'utf8')).experiments
  .filter((e) => (only.length ? only.includes(e.case) : all || !SLOW.has(e.case)))
  .filter((e) => {
    if (measured.has(e.case)) return true;
    console.log(`${e.case}: not in ${logName}, not checked`);
    return false;
  });

const rows = [];
let bad = 0;
for (const e of exps) {
  // no wall-time limit: what is checked is the model's prediction, and the
  // largest cases take most of a minute per dispatch under AddressSanitizer
  // on a loaded machine (the test's own CTest timeout still bounds the run)
  const out = execFileSync(lockstep, ['run', path.join(HERE, 'cases', e.case + '.json'), '--quiet',
    '--profile', 'nvidia', '--time-limit', 'none', '--prof-json', '-'],
    { encoding: 'utf8', maxBuffer: 1 << 26 });
  const d = JSON.parse(out).dispatches[0];
  const us = d.predicted.ns / 1e3, m = measured.get(e.case);
  const r = { ...e, us, m, bound: d.predicted.bound, ratio: us / m };
  if (e.role !== 'report' && !(r.ratio >= 0.5 && r.ratio <= 2)) { r.fail = 'absolute'; bad++; }
  rows.push(r);
}
const first = new Map();
for (const r of rows) {
  if (!r.group) continue;
  if (!first.has(r.group)) { first.set(r.group, r); continue; }
  const f = first.get(r.group);
  r.mRel = r.m / f.m;
  r.pRel = r.us / f.us;
  if (r.role !== 'report' && !(r.pRel / r.mRel >= 0.8 && r.pRel / r.mRel <= 1.2)) { r.fail = (r.fail ? r.fail + ', ' : '') + 'ratio'; bad++; }
}
console.log('case            role       measured us  predicted us  pred/meas  ratio to first: meas  pred   bound');
for (const r of rows)
  console.log(`${r.case.padEnd(15)} ${r.role.padEnd(9)} ${r.m.toFixed(2).padStart(11)} ${r.us.toFixed(2).padStart(13)} ${r.ratio.toFixed(2).padStart(10)}` +
    `  ${r.mRel ? ('x' + r.mRel.toFixed(2)).padStart(20) + ('x' + r.pRel.toFixed(2)).padStart(7) : ''.padStart(27)}   ${r.bound}${r.fail ? '   FAIL ' + r.fail : ''}${r.role === 'report' ? '   (not checked: ' + r.why + ')' : ''}`);
const checked = rows.filter((r) => r.role !== 'report').length;
console.log(bad ? `${bad} check(s) failed` : `all ${checked} checked cases within 2x, every ratio within 20%`);
process.exit(bad ? 1 : 0);
