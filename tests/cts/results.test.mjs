// The CTS runner's bookkeeping (tests/cts/results.mjs) on hand-made CTS
// output: which lines are cases, what a failing case's reason is, how an
// expected-failures file is read and applied. No CTS build needed; ctest
// runs it as cts.results.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { count, markExpected, parseLog, readExpectations } from './results.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cts-results-'));
function file(name, text) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

// The shape of the CTS's --verbose output: each case after it ran, then the
// skips and failures again, then the summary.
const LOG = `DataCache: deserializing
[pass] webgpu:a,b:t:x=1 (1.5ms). Log:
[fail] webgpu:a,b:t:x=2 (20.25ms). Log:
  - (in subcase: y=1) INFO: subcase ran
  - (in subcase: y=2) EXPECTATION FAILED: DID NOT REJECT
      at F.eventualAsyncExpectation (fixture.js:217:28)
[skip] webgpu:a,b:u:p={"k":0} (0.1ms). Log:
  - SKIP: subgroups not supported
lockstep: a line on stderr

** Skipped **
[skip] webgpu:a,b:u:p={"k":0} (0.1ms). Log:

** Failures **
[fail] webgpu:a,b:t:x=2 (20.25ms). Log:
  - (in subcase: y=2) EXPECTATION FAILED: DID NOT REJECT

** Summary **
Passed  w/o warnings = 1 / 3 =  33.33%
`;

test('a finished run: one case per status line, the repeated sections ignored', async () => {
  const r = await parseLog(file('done.log', LOG));
  assert.equal(r.summary, true);
  assert.deepEqual(r.cases.map((c) => [c.name, c.status, c.ms]), [
    ['webgpu:a,b:t:x=1', 'pass', 1.5],
    ['webgpu:a,b:t:x=2', 'fail', 20.25],
    ['webgpu:a,b:u:p={"k":0}', 'skip', 0.1],
  ]);
  // the reason keeps the failed expectation, not the stack or the "subcase ran" notes
  assert.deepEqual(r.cases[1].log, ['- (in subcase: y=2) EXPECTATION FAILED: DID NOT REJECT']);
  const n = count(r);
  assert.equal(n.pass, 1);
  assert.equal(n.fail, 1);
  assert.equal(n.skip, 1);
});

test('a run cut short has no summary, so the runner calls it a crash', async () => {
  const cut = LOG.slice(0, LOG.indexOf('[skip]'));
  const r = await parseLog(file('cut.log', cut));
  assert.equal(r.summary, false);
  assert.equal(r.cases.length, 2);
});

const EXPECT = `# comment
webgpu:a,b:t:x=2 spec/index.bs says so
webgpu:a,b:u:* [provider=dawn] only on Dawn
webgpu:a,b:v:* [mode=core] [subgroup-size=8] a prefix, in core mode at W = 8
`;

test('expected failures: exact names, prefixes and tags', () => {
  const run = { provider: 'lockstep', mode: 'core', 'subgroup-size': '8', profile: '' };
  const e = readExpectations(file('e.txt', EXPECT), run);
  assert.deepEqual(e.map((x) => [x.pattern, x.reason, x.line]), [
    ['webgpu:a,b:t:x=2', 'spec/index.bs says so', 2],
    ['webgpu:a,b:v:*', 'a prefix, in core mode at W = 8', 4],
  ]);
  assert.equal(e[0].match('webgpu:a,b:t:x=2'), true);
  assert.equal(e[0].match('webgpu:a,b:t:x=20'), false);
  assert.equal(e[1].match('webgpu:a,b:v:anything'), true);
  assert.equal(e[1].match('xwebgpu:a,b:v:anything'), false);
  const w32 = readExpectations(file('e.txt', EXPECT), { ...run, 'subgroup-size': '32' });
  assert.equal(w32.length, 1);
});

test('a * matches anywhere in the name; other characters match themselves', () => {
  const run = { provider: 'lockstep', mode: 'core', 'subgroup-size': '32', profile: '' };
  const [e] = readExpectations(file('g.txt', 'webgpu:t:*format="depth*" why\n'), run);
  assert.equal(e.match('webgpu:t:sampled_2d:stage="c";format="depth16unorm"'), true);
  assert.equal(e.match('webgpu:t:arrayed:format="depth32float";texture_type="x"'), true);
  assert.equal(e.match('webgpu:t:sampled_2d:format="r8unorm"'), false);
  const [q] = readExpectations(file('q.txt', 'webgpu:a:x=(1) why\n'), run);
  assert.equal(q.match('webgpu:a:x=(1)'), true);
  assert.equal(q.match('webgpu:a:x=1'), false);
});

test('an entry needs a reason, and a tag must be one the runner knows', () => {
  const run = { provider: 'lockstep', mode: 'core', 'subgroup-size': '32', profile: '' };
  assert.throws(() => readExpectations(file('r.txt', 'webgpu:a,b:t:x=2\n'), run), /r\.txt:1: expected/);
  assert.throws(() => readExpectations(file('t.txt', 'webgpu:a:* [os=linux] why\n'), run), /t\.txt:1: unknown tag \[os=/);
});

test('marking: a listed failure is expected, a listed pass is reported', async () => {
  const r = await parseLog(file('done.log', LOG));
  const run = { provider: 'lockstep', mode: 'core', 'subgroup-size': '32', profile: '' };
  const e = readExpectations(file('m.txt', 'webgpu:a,b:t:* both cases of t\n'), run);
  markExpected([r], e);
  assert.equal(r.cases[1].expected.reason, 'both cases of t');
  assert.equal(r.cases[0].expected, undefined);
  assert.equal(r.cases[0].unexpectedPass, true);
  assert.equal(e[0].used, 2);
});
