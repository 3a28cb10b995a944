// compare.mjs — two CTS runs case by case (the TSV files of tests/cts/run.mjs
// --out): every case the reference run passes and the other run does not,
// and per query how many each passes. Used to hold lockstep to Dawn's row
// (docs/conformance.md, "WebGPU CTS").
//
//   node tests/cts/compare.mjs REFERENCE.tsv OTHER.tsv
// Exit status 1 when some case passes in REFERENCE and not in OTHER.

import fs from 'node:fs';

function read(file) {
  const rows = new Map();
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean);
  for (const l of lines) {
    const [query, name, status] = l.split('\t');
    rows.set(name, { query, status });
  }
  return rows;
}

const [refFile, otherFile] = process.argv.slice(2);
if (!refFile || !otherFile) {
  console.error('usage: node tests/cts/compare.mjs REFERENCE.tsv OTHER.tsv');
  process.exit(2);
}
const ref = read(refFile);
const other = read(otherFile);
const passes = (s) => s === 'pass' || s === 'warn';
const perQuery = new Map();
const lost = [];
for (const [name, r] of ref) {
  const q = perQuery.get(r.query) ?? { ref: 0, other: 0, lost: 0, missing: 0 };
  perQuery.set(r.query, q);
  const o = other.get(name);
  if (passes(r.status)) q.ref++;
  if (o && passes(o.status)) q.other++;
  if (!o) q.missing++;
  if (passes(r.status) && !(o && passes(o.status))) { q.lost++; lost.push(`${name}\t${o ? o.status : 'not run'}`); }
}
for (const [name, o] of other) {
  if (ref.has(name)) continue;
  const q = perQuery.get(o.query);
  if (q && passes(o.status)) q.other++;
}
console.log('query\treference pass\tother pass\tpassed by reference only\tnot in other run');
for (const [query, q] of perQuery) console.log(`${query}\t${q.ref}\t${q.other}\t${q.lost}\t${q.missing}`);
if (lost.length) {
  console.log(`\n${lost.length} case(s) pass in ${refFile} and not in ${otherFile}:`);
  for (const l of lost) console.log(`  ${l}`);
}
process.exit(lost.length ? 1 : 0);
