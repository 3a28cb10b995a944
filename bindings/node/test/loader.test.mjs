// loader.test.mjs — the JavaScript layer's code cache (index.js): a
// second process takes every module's compiled code from the cache (one
// script, the bundle); an edited module makes the bundle again from the
// new sources, never served stale (nor is a same-size replacement with the
// old mtime, as npm packs files); a damaged, unreadable or unwritable
// cache costs speed, not correctness; a stack frame leads back to the
// module's line (and names the file itself with the cache off); the cache
// comes to hold the functions of the programs that use it, not only of the
// first, and is written only by processes that ran the layer cold; the
// sources are ASCII; the code is aligned for V8 to use in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageDir } from './helpers.mjs';

// A copy of the package's JavaScript (the addon stays where it is), so that
// a test can edit a module without touching the repository.
function copyPackage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-loader-'));
  for (const f of ['index.js', 'package.json']) fs.copyFileSync(path.join(packageDir, f), path.join(dir, f));
  fs.cpSync(path.join(packageDir, 'lib'), path.join(dir, 'lib'), { recursive: true });
  return dir;
}

const addon = process.env.LOCKSTEP_NODE_ADDON ??
  path.join(packageDir, '..', '..', 'build', 'bindings', 'node', 'lockstep.node');

// Loads the package at `dir` in a fresh process, requests an adapter (so
// the layer really works) and prints what the loader did.
function run(dir, cacheSetting, extra = '') {
  const script = `
    const m = require(${JSON.stringify(dir)});
    const { stats, load } = m[Symbol.for('lockstep.loader')];
    ${extra}
    m.create([]).requestAdapter().then((a) => {
      console.log(JSON.stringify({ ...stats, adapter: !!a, probe: load('flags.js').probe ?? null }));
    });`;
  const r = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: { ...process.env, LOCKSTEP_NODE_ADDON: addon, LOCKSTEP_NODE_CACHE: cacheSetting },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

test('a second process takes every module from the cache', () => {
  const dir = copyPackage();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  const first = run(dir, cache);
  assert.ok(first.adapter);
  assert.ok(first.modules >= 10, `only ${first.modules} modules loaded`);
  assert.equal(first.fromCache, 0);
  const files = fs.readdirSync(cache);
  assert.equal(files.length, 1, `cache folder holds ${files.join(', ')}`);
  assert.match(files[0], /^lockstep-js-v\d+\.\d+\.\d+-\w+-[0-9a-f]{8}\.cache$/);
  const second = run(dir, cache);
  assert.equal(second.modules, first.modules);
  assert.equal(second.fromCache, second.modules);
  assert.equal(path.basename(second.file), files[0]);
  // the code starts at a multiple of 8 bytes of the file (of its mapping),
  // where V8 takes it in place instead of copying it
  const bytes = fs.readFileSync(path.join(cache, files[0]));
  const magicEnd = bytes.indexOf(10) + 1;
  const lineEnd = bytes.indexOf(10, magicEnd) + 1;
  const indexLen = Number(bytes.toString('latin1', magicEnd, lineEnd).split(' ')[0]);
  const index = JSON.parse(bytes.toString('utf8', lineEnd, lineEnd + indexLen));
  assert.equal((lineEnd + indexLen + index.code[0]) % 8, 0, `code at byte ${lineEnd + indexLen + index.code[0]}`);
});

test('an edited module is compiled from its new source', () => {
  const dir = copyPackage();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  const first = run(dir, cache);
  assert.equal(first.probe, null);
  const flags = path.join(dir, 'lib', 'flags.js');
  fs.appendFileSync(flags, '\nmodule.exports.probe = 41 + 1;\n');
  const second = run(dir, cache);
  assert.equal(second.probe, 42);
  assert.equal(second.fromCache, 0); // the bundle was made again
  // the cache was written again with the new module: all hits now
  const third = run(dir, cache);
  assert.equal(third.probe, 42);
  assert.equal(third.fromCache, third.modules);
});

// npm packs every file with one fixed mtime: a new version of a module of
// the same size looks alike by size and mtime, and only its ctime (which
// nothing can set back) tells it from the old one.
test('a module replaced by one of the same size and mtime is compiled from its new source', () => {
  const dir = copyPackage();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  const flags = path.join(dir, 'lib', 'flags.js');
  fs.appendFileSync(flags, '\nmodule.exports.probe = 41;\n');
  const when = new Date('1985-10-26T08:15:00Z'); // npm's
  fs.utimesSync(flags, when, when);
  const first = run(dir, cache);
  assert.equal(first.probe, 41);
  assert.equal(run(dir, cache).fromCache, first.modules); // cached
  const text = fs.readFileSync(flags, 'utf8');
  fs.writeFileSync(flags, text.replace('probe = 41;', 'probe = 42;')); // same size
  fs.utimesSync(flags, when, when);
  assert.equal(fs.statSync(flags).size, Buffer.byteLength(text));
  const second = run(dir, cache);
  assert.equal(second.probe, 42);
  assert.equal(second.fromCache, 0);
});

// The cache with 64 bytes in the middle of its code (which the checksum
// covers) changed: the file is MAGIC, "<index length> <code length>
// <checksum>", the index, then the code.
function codeDamaged(good) {
  const first = good.indexOf(0x0a) + 1;
  const second = good.indexOf(0x0a, first) + 1;
  const [indexLen, codeLen] = good.toString('latin1', first, second).split(' ').map(Number);
  const at = second + indexLen + (codeLen >> 1);
  assert.ok(codeLen > 1024 && at + 64 < good.length);
  const bad = Buffer.from(good);
  bad.fill(0xa5, at, at + 64);
  return bad;
}

test('a damaged cache is ignored and replaced', () => {
  const dir = copyPackage();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  const { file } = run(dir, cache);
  const good = fs.readFileSync(file);
  const damaged = [
    Buffer.from('not a cache at all'),
    Buffer.from('lockstep-js-cache/1\n12\n{"broken": \n'),
    good.subarray(0, good.length >> 1), // truncated: entries point past the end
    codeDamaged(good), // code bytes changed
  ];
  for (const bytes of damaged) {
    fs.writeFileSync(file, bytes);
    const r = run(dir, cache);
    assert.ok(r.adapter);
    assert.equal(r.modules, run(dir, cache).fromCache); // rewritten complete at exit
  }
});

test('no cache: turned off, or a folder that cannot be written', () => {
  const dir = copyPackage();
  const off = run(dir, '0');
  assert.equal(off.file, null);
  assert.equal(off.fromCache, 0);
  const missing = path.join(os.tmpdir(), `lockstep-no-such-dir-${process.pid}`, 'x');
  const r = run(dir, missing);
  assert.ok(r.adapter);
  assert.equal(r.fromCache, 0);
  assert.equal(fs.existsSync(missing), false);
});

// With the cache, lib/ is one script: a frame names lib/[bundle] and a
// line that stats.lines maps back to the module's; with the cache off each
// module is its own file.
test("stack frames lead to the module's file and line", () => {
  const dir = copyPackage();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  const flags = path.join(dir, 'lib', 'flags.js');
  const src = fs.readFileSync(flags, 'utf8').split('\n');
  const line = src.findIndex((l) => l.includes("throw new TypeError('lockstep-webgpu create(flags)")) + 1;
  assert.ok(line > 0);
  const bundle = JSON.stringify(path.join(dir, 'lib', '[bundle]') + ':');
  const check = (expect) => `
      try { m.create('not an array'); } catch (e) {
        const at = e.stack.split('\\n')[1];
        const { lines } = m[Symbol.for('lockstep.loader')].stats;
        const n = Number(at.split(':').at(-2));
        const ok = ${expect};
        if (!ok) throw new Error('the frame does not lead to flags.js:${line}: ' + at + ' ' + JSON.stringify(lines));
      }`;
  for (let i = 0; i < 2; i++) { // compiled from source, then from the cache
    const r = run(dir, cache, check(`at.includes(${bundle}) && n - lines['flags.js'] + 1 === ${line}`));
    assert.ok(r.adapter);
    assert.equal(r.fromCache, i === 0 ? 0 : r.modules);
  }
  const off = run(dir, '0', check(`at.includes(${JSON.stringify(flags + ':' + line + ':')})`));
  assert.ok(off.adapter);
});

test('the sources are ASCII (V8 keeps them as one-byte strings, half the memory)', () => {
  for (const f of ['index.js', ...fs.readdirSync(path.join(packageDir, 'lib')).filter((n) => n.endsWith('.js')).map((n) => path.join('lib', n))]) {
    const bytes = fs.readFileSync(path.join(packageDir, f));
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `${f}: a byte above 0x7f at offset ${at} (write it as a \\u escape)`);
  }
});

// V8's function events name every function compiled. A process that only
// imports the package writes the cache with the little it ran; the next,
// a whole job, compiles what the job needs and adds it to the cache; the
// job after compiles none of lib/'s functions: all come from the cache.
test('the cache takes in the functions of later processes, not only of the first', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  // the same flags for both (the cache is per set of flags), each its own
  // log: a relative --logfile in a folder of its own
  const flags = ['--log-function-events', '--logfile=functions.log', '--no-logfile-per-isolate',
    '--import', path.join(packageDir, 'register.mjs')];
  const env = { ...process.env, LOCKSTEP_NODE_ADDON: addon, LOCKSTEP_NODE_CACHE: cache };
  const [a, b] = [fs.mkdtempSync(path.join(cache, 'a-')), fs.mkdtempSync(path.join(cache, 'b-'))];
  const job = path.join(packageDir, 'test', 'fixtures', 'job.mjs');
  const first = spawnSync(process.execPath, [...flags, '-e', ''], { encoding: 'utf8', env, cwd: a });
  assert.equal(first.status, 0, first.stderr);
  for (const cwd of [a, b]) { // the first job adds to the cache, the second is measured
    const r = spawnSync(process.execPath, [...flags, job], { encoding: 'utf8', env, cwd });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^sum 1047552 /);
  }
  // script ids are reused: an event belongs to the script its id names at
  // that point of the log
  const ours = /[\\/]lib[\\/]\[bundle\]$/;
  const url = new Map();
  const events = [];
  const seen = new Set();
  for (const f of fs.readFileSync(path.join(b, 'functions.log'), 'utf8').split('\n').map((l) => l.split(','))) {
    if (f[0] === 'script' && f[1] === 'create') url.delete(f[2]);
    else if (f[0] === 'script-details') url.set(f[1], f[2]);
    else if (f[0] === 'function' && ours.test(url.get(f[2]) ?? '')) {
      events.push(f);
      seen.add(url.get(f[2]));
    }
  }
  assert.equal(seen.size, 1, 'the log names the bundle of lib/');
  assert.ok(events.filter((f) => f[1] === 'first-execution').length > 50, 'the log shows functions of lib/ running');
  const compiled = events.filter((f) => f[1] === 'interpreter' || f[1] === 'full-parse');
  assert.deepEqual(compiled.map((f) => f.slice(1, 5).join(',')), [], 'functions of lib/ compiled again');
});

// The cache is written by processes that ran something its writers did
// not (a native export none of them called) and that ran the layer cold:
// V8 keeps in the cache how hot each function ran, and a process that
// made hundreds of calls would make later small jobs compile further.
test('the cache is written again only by a cold process that ran something new', () => {
  const dir = copyPackage();
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-cache-'));
  const hot = 'for (let i = 0; i < 1000; i++) m[Symbol.for("lockstep.loader")].addon.version();';
  const first = run(dir, cache, hot); // no cache, but hot: none written
  assert.equal(first.fromCache, 0);
  assert.equal(fs.existsSync(first.file), false, 'a hot process wrote the cache');
  // cold: written, then again by the first process that reads it (the
  // loader's exports for that are new) and by any that called an export
  // the others did not (events come in their own time); then no more
  const mtime = () => (fs.existsSync(first.file) ? fs.statSync(first.file).mtimeMs : null);
  let written = null;
  for (let i = 0; ; i++) {
    assert.ok(i < 6, 'cold processes that ran nothing new still write the cache');
    const before = mtime();
    assert.equal(run(dir, cache).fromCache, i === 0 ? 0 : first.modules);
    written = mtime();
    if (written === before) break;
  }
  // an export none of the writers called before writing
  const fresh = 'm[Symbol.for("lockstep.loader")].addon.checksum(new Uint8Array(4));';
  run(dir, cache, hot + fresh); // something new, but hot: not written
  assert.equal(fs.statSync(first.file).mtimeMs, written);
  run(dir, cache, fresh); // something new, cold: written
  assert.notEqual(fs.statSync(first.file).mtimeMs, written);
});

test('require of the addon itself gives the module the package loaded', () => {
  const script = `
    const m = require(${JSON.stringify(packageDir)});
    const again = require(m.addonPath);
    if (again.checksum !== m[Symbol.for('lockstep.loader')].addon.checksum)
      throw new Error('a second copy of the addon');
    console.log('same');`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, LOCKSTEP_NODE_ADDON: addon } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'same');
});
