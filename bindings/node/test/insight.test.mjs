// insight.test.mjs — lockstep's own insight from an unmodified program: the
// `check` flag prints each sanitizer finding to stderr as the CLI does
// (file:line:column severity: message) and hands it to the program on the lockstep channel;
// prof=FILE.html writes the profiler's report at exit or destroy(); a
// lockstep warning (an indirect dispatch over the limit) goes to the channel
// and stderr, not to error scopes or uncapturederror.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNode, packageDir, getDevice, runKernel } from './helpers.mjs';

const fixture = (f) => path.join(packageDir, 'test', 'fixtures', f);
const register = path.join(packageDir, 'register.mjs');

test('LOCKSTEP_CHECK=1: findings on stderr (compiler style) and on the channel, as events and a list', () => {
  const r = runNode(['--import', register, fixture('racy.mjs')], { env: { LOCKSTEP_CHECK: '1' } });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const ids = out.findings.map((f) => f.id);
  assert.ok(ids.includes('out-of-bounds'), ids.join());
  assert.ok(ids.some((id) => /race/.test(id)), ids.join());
  assert.deepEqual(out.events, ids);
  assert.ok(out.findings.every((f) => f.file === 'racy.wgsl'));
  const oob = out.findings.find((f) => f.id === 'out-of-bounds');
  assert.equal(oob.line, 3);
  assert.match(r.stderr, /^racy\.wgsl:3:3 error: out-of-bounds write/m);
  assert.match(r.stderr, /^racy\.wgsl:6:3 error: data race/m);
  assert.match(r.stderr, /^ +d\[id\.x\] = id\.x;\n +\^{15}$/m); // the source line and its caret
  // without the flag: no findings, nothing on stderr
  const quiet = runNode(['--import', register, fixture('racy.mjs')]);
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.deepEqual(JSON.parse(quiet.stdout).findings, []);
  assert.doesNotMatch(quiet.stderr, /racy\.wgsl/);
});

test('prof=FILE.html / LOCKSTEP_PROF: the HTML report of the whole run, written at exit or at destroy()', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-node-'));
  try {
    const html = path.join(dir, 'report.html');
    const json = path.join(dir, 'report.json');
    const r = runNode(['--import', register, fixture('job.mjs')], { env: { LOCKSTEP_PROF: html, LOCKSTEP_PROF_JSON: json } });
    assert.equal(r.status, 0, r.stderr);
    const page = fs.readFileSync(html, 'utf8');
    assert.match(page, /<html/i);
    assert.match(page, /entry point <code>main<\/code>/);
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.ok(JSON.stringify(report).includes('job.wgsl'));
    fs.rmSync(html);
    const r2 = runNode(['--import', register, fixture('job.mjs'), 'destroy'], { env: { LOCKSTEP_PROF: html } });
    assert.equal(r2.status, 0, r2.stderr);
    assert.ok(fs.existsSync(html));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('check and prof together: each sees every dispatch', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-node-'));
  try {
    const json = path.join(dir, 'both.json');
    const r = runNode(['--import', register, fixture('racy.mjs')], { env: { LOCKSTEP_CHECK: '1', LOCKSTEP_PROF_JSON: json } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).findings.length, 2);
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.deepEqual(report.dispatches.map((d) => d.entryPoint), ['unguarded', 'racy']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a lockstep warning (indirect dispatch over the limit, skipped) goes to the channel and stderr, never to WebGPU errors', () => {
  const r = runNode(['--import', register, fixture('overlimit.mjs')]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.scoped, null);
  assert.deepEqual(out.errors, []);
  assert.equal(out.warnings.length, 1);
  assert.match(out.warnings[0], /70000|65535|skipped/);
  assert.match(r.stderr, /lockstep: warning: .*(70000|65535|skipped)/);
});

test('the channel in-process: findings, the adapter, workgroup sizes and profiles', async () => {
  const { device } = await getDevice(['check', 'subgroup-size=16']);
  const ch = device[Symbol.for('lockstep')];
  assert.equal(ch.adapter.subgroupSize, 16);
  await runKernel(device, `@group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) { d[id.x] = 1u; }`, [new Uint32Array(32)], 1, { label: 'unguarded.wgsl' });
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(ch.findings.length >= 1);
  assert.equal(ch.findings[0].file, 'unguarded.wgsl');
  assert.equal(ch.profile(), undefined); // no profiler without prof
  const module = device.createShaderModule({ code: 'override TAM: u32 = 64u;\n@compute @workgroup_size(TAM) fn main() {}' });
  const p = device.createComputePipeline({ layout: 'auto', compute: { module, constants: { TAM: 256 } } });
  assert.deepEqual(ch.workgroupSize(p), [256, 1, 1]);
  device.destroy();
});
