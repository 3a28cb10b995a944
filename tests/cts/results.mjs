// results.mjs — what tests/cts/run.mjs makes of a CTS run: the CTS's
// verbose output parsed into cases, the expected-failures list
// (tests/cts/expectations.txt) and the counts. Separate so that
// tests/cts/results.test.mjs can check them without a CTS build.

import fs from 'node:fs';
import readline from 'node:readline';

// The expected-failures list.
// A line: PATTERN [TAG...] REASON. PATTERN is a case name in which each '*'
// matches any characters (so 'webgpu:a,b:*' is every case of a,b). Tags in brackets restrict the entry to a run:
// [provider=dawn] [mode=compat] [subgroup-size=8]. The reason is required.

export function readExpectations(file, run) {
  const entries = [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, n) => {
    const text = line.trim();
    if (!text || text.startsWith('#')) return;
    const m = /^(\S+)((?:\s+\[[^\]]*\])*)\s+(\S.*)$/.exec(text);
    if (!m) throw new Error(`${file}:${n + 1}: expected "CASE-OR-PREFIX* [tag=value]... reason"`);
    const tags = [...m[2].matchAll(/\[([^\]=]+)=([^\]]*)\]/g)].map((t) => [t[1].trim(), t[2].trim()]);
    for (const [k] of tags) if (!(k in run)) throw new Error(`${file}:${n + 1}: unknown tag [${k}=...] (known: ${Object.keys(run).join(', ')})`);
    if (tags.some(([k, v]) => run[k] !== v)) return;
    const pattern = m[1];
    const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    entries.push({ pattern, reason: m[3], line: n + 1, used: 0, match: (c) => re.test(c) });
  });
  return entries;
}

// The CTS's verbose output: one status line per case, then its log.
const STATUS_LINE = /^\[(pass|fail|warn|skip)\] (\S.*) \(([0-9.]+)ms\)\. Log:$/;
const SECTION = /^\*\* (Skipped|Warnings|Failures|Summary) \*\*$/;

// A line of a failing case's log worth showing: not a stack frame, not the
// CTS's note that a subcase ran.
export function isReason(line) {
  const t = line.trim();
  return t && !t.startsWith('at ') && !/INFO: subcase ran$/.test(t) && !t.startsWith('- INFO:');
}

export async function parseLog(logFile) {
  const cases = [];
  let last = null; // the case whose log lines follow
  let summary = false;
  const tail = [];
  const rl = readline.createInterface({ input: fs.createReadStream(logFile), crlfDelay: Infinity });
  for await (const line of rl) {
    // After the last case the CTS repeats skips, warnings and failures
    // in the same shape: those sections are not cases.
    if (SECTION.test(line)) { summary = true; last = null; continue; }
    if (summary) continue;
    const m = STATUS_LINE.exec(line);
    if (m) {
      last = { name: m[2], status: m[1], ms: Number(m[3]), log: [] };
      cases.push(last);
      continue;
    }
    if (last && (last.status === 'fail' || last.status === 'warn') && last.log.length < 8 && isReason(line)) {
      last.log.push(line.trim().slice(0, 300));
    }
    tail.push(line);
    if (tail.length > 40) tail.shift();
  }
  return { cases, summary, tail };
}

export const FAILING = new Set(['fail', 'timeout', 'crash']);

export function count(r) {
  const n = { cases: r.cases.length, pass: 0, warn: 0, fail: 0, skip: 0, timeout: 0, crash: 0, notrun: 0 };
  for (const c of r.cases) n[c.status]++;
  return n;
}

export function markExpected(results, entries) {
  for (const r of results) {
    for (const c of r.cases) {
      const e = entries.find((x) => x.match(c.name));
      if (!e) continue;
      e.used++;
      if (FAILING.has(c.status)) c.expected = e;
      else if (c.status === 'pass' || c.status === 'warn') c.unexpectedPass = true;
    }
  }
}

