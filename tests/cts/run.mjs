// run.mjs — runs WebGPU CTS queries against a GPU provider and reports them.
// tests/cts/cts.sh builds the CTS and calls this; docs/conformance.md
// ("WebGPU CTS") has the options. Each query runs in its own Node process,
// the CTS's command-line runner in verbose mode, so that a crash or a hang
// costs one query, not the run; a query is killed after --timeout seconds
// and the cases it did not finish are listed (by the CTS's --list) as
// "timeout" or "crash". Per query it prints cases / pass / fail / skip /
// time and the failing cases; every case's status goes to a TSV file.
// With --expect FILE it compares failures against the expected-failures
// list (tests/cts/expectations.txt). Exit status 1 when some case failed
// that the list (if any) does not name, 2 for bad options.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { FAILING, count, isReason, markExpected, parseLog, readExpectations } from './results.mjs';

const USAGE = 'usage: run.mjs --cts DIR [--provider lockstep|dawn|FILE] [--binding DIR] [--subgroup-size W] ' +
  '[--profile NAME] [--threads N] [--flag K=V]... [--compat] [--queries FILE] [--timeout S] [--out FILE] ' +
  '[--json FILE] [--expect FILE] [--jobs N] [--shader-errors] [QUERY...]';

function fail(msg) {
  console.error(`cts: ${msg}`);
  process.exit(2);
}

// ---- options -------------------------------------------------------------

function parseArgs(argv) {
  const o = { provider: 'lockstep', flags: [], queries: [], compat: false, timeout: 600, jobs: 1 };
  const value = (i) => {
    if (i + 1 >= argv.length) fail(`${argv[i]} needs a value\n${USAGE}`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const takes = {
      '--cts': (v) => { o.cts = v; }, '--root': (v) => { o.root = v; },
      '--provider': (v) => { o.provider = v; }, '--binding': (v) => { o.binding = v; },
      '--subgroup-size': (v) => { o.flags.push(`subgroup-size=${v}`); o.width = v; },
      '--profile': (v) => { o.flags.push(`profile=${v}`); o.profile = v; },
      '--threads': (v) => { o.flags.push(`threads=${v}`); },
      '--flag': (v) => { o.flags.push(v); },
      '--queries': (v) => { o.queries.push(...readQueryFile(v)); },
      '--timeout': (v) => { o.timeout = positive('--timeout', v); },
      '--out': (v) => { o.out = v; }, '--json': (v) => { o.json = v; },
      '--expect': (v) => { o.expect = v; },
      '--jobs': (v) => { o.jobs = positive('--jobs', v); },
    };
    if (takes[a]) { takes[a](value(i)); i++; }
    else if (a === '--compat') o.compat = true;
    else if (a === '--shader-errors') o.shaderErrors = true;
    else if (a.startsWith('-')) fail(`unknown option ${a}\n${USAGE}`);
    else o.queries.push(a);
  }
  if (!o.cts) fail(`--cts DIR is required\n${USAGE}`);
  if (!o.queries.length) fail(`no queries given\n${USAGE}`);
  o.root ??= path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  o.out ??= path.join(o.cts, '..', 'results', 'last.tsv');
  return o;
}

function positive(name, v) {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) fail(`${name} ${v}: expected a positive number`);
  return n;
}

function readQueryFile(file) {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch (e) { fail(`${file}: ${e.message}`); }
  return text.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
}

// The provider module and the environment it needs.
function providerOf(o) {
  const env = { ...process.env };
  if (o.provider === 'lockstep') {
    const file = path.join(o.root, 'tests', 'cts', 'provider.cjs');
    if (o.binding) env.LOCKSTEP_CTS_BINDING = path.resolve(o.binding);
    if (o.shaderErrors) env.LOCKSTEP_CTS_SHADER_ERRORS = '1';
    return { file, env, name: 'lockstep' };
  }
  if (o.provider === 'dawn') {
    const dir = process.env.LOCKSTEP_PEER_DIR || path.join(os.homedir(), '.cache', 'lockstep-peer');
    const file = path.join(dir, 'cts_dawn_provider.cjs');
    if (!fs.existsSync(file)) fail(`${file} not found: run ../shared/peers/setup.sh to install Dawn`);
    env.EGL_PLATFORM ??= 'surfaceless';
    return { file, env, name: 'dawn' };
  }
  if (!fs.existsSync(o.provider)) fail(`--provider ${o.provider}: not lockstep, dawn or a module file`);
  return { file: path.resolve(o.provider), env, name: path.basename(o.provider) };
}

// ---- one query -----------------------------------------------------------

function ctsArgs(o, prov, query, extra = []) {
  const args = ['-e', "require('./out-node/common/runtime/cmdline.js')", '--', 'x', '--gpu-provider', prov.file];
  for (const f of o.flags) args.push('--gpu-provider-flag', f);
  if (o.compat) args.push('--compat');
  return [...args, ...extra, query];
}

// The child writes straight into its log file (a file, not a pipe: Node
// writes to files synchronously, so nothing is lost when the CTS exits),
// and the log is parsed once the process is gone.
function runQuery(o, prov, query, logFile) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const fd = fs.openSync(logFile, 'w');
    const child = spawn(process.execPath, ctsArgs(o, prov, query, ['--verbose']),
      { cwd: o.cts, env: prov.env, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, o.timeout * 1000);
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      const ms = Date.now() - t0;
      resolve({ query, code, signal, timedOut, ms, ...(await parseLog(logFile)) });
    });
  });
}

// The cases of a query, by the CTS's own listing (used when a run ended
// early, to name the cases that never reported).
function listQuery(o, prov, query) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ctsArgs(o, prov, query, ['--list']),
      { cwd: o.cts, env: prov.env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120000);
    child.on('close', () => { clearTimeout(timer); resolve(out.split('\n').filter((l) => l.startsWith('webgpu:'))); });
  });
}

async function finish(o, prov, r) {
  r.ended = 'ok';
  if (r.timedOut) r.ended = 'timeout';
  else if (r.signal || !r.summary || (r.code !== 0 && r.code !== 1)) r.ended = 'crash';
  if (r.ended !== 'ok') {
    const how = r.ended === 'timeout' ? `killed after ${o.timeout} s` :
      r.signal ? `the Node process died of ${r.signal}` : `the Node process exited with status ${r.code} before its summary`;
    r.tail = [how, ...r.tail.filter(isReason).slice(-6)];
    const seen = new Set(r.cases.map((c) => c.name));
    const rest = (await listQuery(o, prov, r.query)).filter((c) => !seen.has(c));
    // The first unfinished case is the one that hung or crashed; the rest never ran.
    rest.forEach((name, i) => r.cases.push({ name, status: i === 0 ? r.ended : 'notrun', ms: 0, log: i === 0 ? r.tail : [] }));
    if (!rest.length) r.cases.push({ name: `${r.query} (runner)`, status: r.ended, ms: 0, log: r.tail });
  }
  return r;
}

// ---- report --------------------------------------------------------------

function fmtTime(ms) { return ms >= 10000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`; }

function printQuery(r, expect) {
  const n = count(r);
  const extra = [n.warn && `${n.warn} warn`, n.timeout && 'TIMED OUT', n.crash && 'CRASHED', n.notrun && `${n.notrun} not run`]
    .filter(Boolean).join(', ');
  console.log(`${r.query}: ${n.cases} cases, ${n.pass + n.warn} pass, ${n.fail + n.timeout + n.crash} fail, ` +
    `${n.skip} skip, ${fmtTime(r.ms)}${extra ? ` (${extra})` : ''}`);
  for (const c of r.cases) {
    if (!FAILING.has(c.status)) continue;
    const e = c.expected;
    console.log(`  [${c.status}${e ? ', expected' : ''}] ${c.name}${e ? `  -- ${e.reason}` : ''}`);
    if (!e) for (const l of c.log.slice(0, 2)) console.log(`      ${l}`);
  }
  for (const c of r.cases) if (c.unexpectedPass) console.log(`  [pass, listed as expected failure] ${c.name}`);
}

// ---- main ----------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const prov = providerOf(o);
  const run = { provider: prov.name, mode: o.compat ? 'compat' : 'core', 'subgroup-size': o.width ?? '32', profile: o.profile ?? '' };
  let entries = [];
  try { if (o.expect) entries = readExpectations(o.expect, run); } catch (e) { fail(e.message); }
  const logDir = path.resolve(o.out).replace(/\.[^./]*$/, '') + '.logs';
  fs.mkdirSync(logDir, { recursive: true });
  console.log(`cts: ${o.queries.length} queries on ${prov.name} (${run.mode}${o.flags.length ? `, ${o.flags.join(' ')}` : ''}), ` +
    `timeout ${o.timeout} s per query, logs in ${logDir}`);

  // Every case, one line each, appended as each query finishes.
  fs.mkdirSync(path.dirname(path.resolve(o.out)), { recursive: true });
  fs.writeFileSync(o.out, 'query\tcase\tstatus\tms\texpected\n');
  const results = new Array(o.queries.length);
  let next = 0;
  const t0 = Date.now();
  async function worker() {
    while (next < o.queries.length) {
      const i = next++;
      const q = o.queries[i];
      const logFile = path.join(logDir, `${String(i).padStart(3, '0')}-${q.replace(/[^A-Za-z0-9_,.=-]+/g, '_').slice(0, 120)}.log`);
      const r = await finish(o, prov, await runQuery(o, prov, q, logFile));
      results[i] = r;
      markExpected([r], entries);
      printQuery(r);
      fs.appendFileSync(o.out, r.cases.map((c) => `${q}\t${c.name}\t${c.status}\t${c.ms}\t${c.expected ? 'yes' : ''}\n`).join(''));
    }
  }
  await Promise.all(Array.from({ length: Math.min(o.jobs, o.queries.length) }, worker));
  const wall = Date.now() - t0;

  const total = { cases: 0, pass: 0, fail: 0, skip: 0 };
  let unexpected = 0;
  for (const r of results) {
    const n = count(r);
    total.cases += n.cases; total.pass += n.pass + n.warn; total.skip += n.skip;
    total.fail += n.fail + n.timeout + n.crash;
    unexpected += r.cases.filter((c) => FAILING.has(c.status) && !c.expected).length;
  }
  const rate = (total.cases - total.skip) / (wall / 1000);
  console.log(`cts: total ${total.cases} cases, ${total.pass} pass, ${total.fail} fail ` +
    `(${total.fail - unexpected} expected), ${total.skip} skip, ${fmtTime(wall)} ` +
    `(${rate.toFixed(1)} cases/s run); every case in ${o.out}`);
  if (o.json) {
    const summary = { provider: prov.name, run, flags: o.flags, wall_ms: wall, date: new Date().toISOString(),
      queries: results.map((r) => ({ query: r.query, ended: r.ended, ms: r.ms, ...count(r),
        failures: r.cases.filter((c) => FAILING.has(c.status)).map((c) => ({ case: c.name, status: c.status, expected: c.expected?.reason ?? null })) })) };
    fs.writeFileSync(o.json, JSON.stringify(summary, null, 2) + '\n');
  }
  if (o.expect) {
    // A list covers more queries than one run: unused entries are a note.
    const stale = entries.filter((e) => e.used === 0);
    if (stale.length) console.log(`cts: ${stale.length} of ${entries.length} entries of ${o.expect} matched no case in this run`);
    if (unexpected) {
      console.log(`cts: FAILED: ${unexpected} failure(s) not in ${o.expect}`);
      process.exit(1);
    }
    console.log(`cts: OK: every failure is listed in ${o.expect}`);
  }
  process.exit(unexpected ? 1 : 0);
}

main().catch((e) => { console.error(e.stack ?? String(e)); process.exit(2); });
