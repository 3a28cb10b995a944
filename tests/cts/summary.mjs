// summary.mjs — a finished run's TSV (tests/cts/run.mjs --out) as a
// Markdown table: per query cases / pass / fail / skip, the failures the
// expected-failures list accounts for, and the sum of the cases' own times.
// Used for the tables of docs/conformance.md ("WebGPU CTS").
//
//   node tests/cts/summary.mjs RUN.tsv [--expect FILE] [--provider lockstep] [--mode core] [--subgroup-size 32]

import fs from 'node:fs';

import { readExpectations } from './results.mjs';

const args = process.argv.slice(2);
const tsv = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
if (!tsv) {
  console.error('usage: node tests/cts/summary.mjs RUN.tsv [--expect FILE] [--provider P] [--mode M] [--subgroup-size W]');
  process.exit(2);
}
const run = { provider: opt('--provider', 'lockstep'), mode: opt('--mode', 'core'),
  'subgroup-size': opt('--subgroup-size', '32'), profile: opt('--profile', '') };
const entries = opt('--expect') ? readExpectations(opt('--expect'), run) : [];
const rows = new Map();
for (const line of fs.readFileSync(tsv, 'utf8').split('\n').slice(1)) {
  if (!line) continue;
  const [query, name, status, ms] = line.split('\t');
  const r = rows.get(query) ?? { cases: 0, pass: 0, fail: 0, skip: 0, expected: 0, ms: 0 };
  rows.set(query, r);
  r.cases++;
  r.ms += Number(ms) || 0;
  if (status === 'pass' || status === 'warn') r.pass++;
  else if (status === 'skip') r.skip++;
  else {
    r.fail++;
    if (entries.some((e) => e.match(name))) r.expected++;
  }
}
const fmt = (n) => n.toLocaleString('en-US');
console.log('| query | cases | pass | fail (expected) | skip | case time |');
console.log('|---|---:|---:|---:|---:|---:|');
const total = { cases: 0, pass: 0, fail: 0, skip: 0, expected: 0, ms: 0 };
for (const [q, r] of rows) {
  for (const k of Object.keys(total)) total[k] += r[k];
  console.log(`| ${q.replace(/^webgpu:/, '')} | ${fmt(r.cases)} | ${fmt(r.pass)} | ${fmt(r.fail)} (${fmt(r.expected)}) | ${fmt(r.skip)} | ${Math.round(r.ms / 1000)} s |`);
}
console.log(`| **total** | ${fmt(total.cases)} | ${fmt(total.pass)} | ${fmt(total.fail)} (${fmt(total.expected)}) | ${fmt(total.skip)} | ${Math.round(total.ms / 1000)} s |`);
