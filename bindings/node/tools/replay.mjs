#!/usr/bin/env node
// replay.mjs — runs a version-2 case (wgsl-compute-case/2) through a WebGPU
// implementation and writes its result file (wgsl-compute-result/1), so a
// capture made on one implementation replays on another:
//
//   node bindings/node/tools/replay.mjs CASE.json --impl lockstep|dawn|MODULE [--out RESULT.json]
//        [--flag K=V]...        a flag of the implementation's create() (repeatable)
//        [--feature-level L]    requestAdapter's featureLevel (dawn: compatibility)
//
// lockstep is this package; dawn is npm `webgpu` from $LOCKSTEP_PEER_DIR
// (default ~/.cache/lockstep-peer, ../shared/peers/setup.sh), on its OpenGL
// ES backend (LOCKSTEP_DAWN_BACKEND=vulkan for a real GPU); MODULE is any module with dawn.node's contract. Without
// --out the result goes to stdout. Exit status: 0 done; 1 the
// implementation cannot be loaded; 2 a bad case (the file and JSON path are
// named) or a validation error of the device; 3 the result cannot be written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { loadCase, replay } = require('../lib/capture/replay.js');
const { stringify, writeAll } = require('../lib/capture/words.js');

const HERE = path.dirname(fileURLToPath(import.meta.url));

export async function loadImpl(which, flags = [], featureLevel) {
  if (which === 'lockstep') {
    const m = require(path.join(HERE, '..', 'index.js'));
    return { name: `lockstep ${m.version}`, create: m.create, globals: m.globals, flags, featureLevel };
  }
  if (which === 'dawn') {
    const dir = process.env.LOCKSTEP_PEER_DIR || path.join(os.homedir(), '.cache', 'lockstep-peer');
    const entry = path.join(dir, 'node_modules', 'webgpu', 'index.js');
    if (!fs.existsSync(entry)) throw new Error(`Dawn (npm webgpu) is not installed in ${dir} (run ../shared/peers/setup.sh)`);
    process.env.EGL_PLATFORM ??= 'surfaceless';
    const m = await import(pathToFileURL(entry).href);
    const version = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'webgpu', 'package.json'), 'utf8')).version;
    // llvmpipe's OpenGL ES at "compatibility" by default; on a real GPU,
    // LOCKSTEP_DAWN_BACKEND=vulkan (then the feature level is core)
    const backend = process.env.LOCKSTEP_DAWN_BACKEND || 'opengles';
    return { name: `Dawn via npm webgpu@${version} (${backend})`, create: m.create, globals: m.globals,
      flags: flags.length ? flags : [`backend=${backend}`],
      featureLevel: featureLevel ?? (backend === 'opengles' ? 'compatibility' : 'core') };
  }
  const m = require(path.resolve(which));
  if (typeof m.create !== 'function' || !m.globals) throw new Error(`${which} does not export create(flags) and globals`);
  return { name: path.basename(which), create: m.create, globals: m.globals, flags, featureLevel };
}

async function main(argv) {
  let casePath = null, out = null, impl = 'lockstep', level;
  const flags = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) { console.error(`replay: ${a} needs a value`); process.exit(2); }
      return argv[++i];
    };
    if (a === '--out') out = value();
    else if (a === '--impl') impl = value();
    else if (a === '--flag') flags.push(value());
    else if (a === '--feature-level') level = value();
    else if (a === '-h' || a === '--help') { console.log('usage: replay.mjs CASE.json --impl lockstep|dawn|MODULE [--out RESULT.json] [--flag K=V] [--feature-level L]'); return 0; }
    else if (!casePath && !a.startsWith('--')) casePath = a;
    else { console.error(`replay: unexpected argument ${a}`); return 2; }
  }
  if (!casePath) { console.error('replay: usage: replay.mjs CASE.json --impl lockstep|dawn|MODULE [--out RESULT.json]'); return 2; }
  let loaded;
  try {
    loaded = loadCase(casePath);
  } catch (e) {
    console.error(`replay: ${e.message}`);
    return 2;
  }
  let provider;
  try {
    provider = await loadImpl(impl, flags, level);
  } catch (e) {
    console.error(`replay: ${e.message}`);
    return 1;
  }
  const { result, errors, adjusted } = await replay(loaded, provider);
  for (const a of adjusted) console.error(`replay: ${path.basename(casePath)}: ${a}`);
  if (errors.length) {
    console.error(`replay: ${path.basename(casePath)} on ${provider.name}:\n  ${errors.join('\n  ')}`);
    return 2;
  }
  const text = stringify(result) + '\n';
  if (!out) { process.stdout.write(text); return 0; }
  try {
    writeAll([[out, text]]);
  } catch (e) {
    console.error(`replay: cannot write ${out}: ${e.code ?? e.message}`);
    return 3;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
  // Dawn's device keeps the process alive after destroy(); the work is done
  process.exit();
}
