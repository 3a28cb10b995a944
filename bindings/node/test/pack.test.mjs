// pack.test.mjs — `npm pack` gives an installable package: it holds the
// prebuilt lockstep.node, installs offline into an empty project, and
// `require('lockstep-webgpu')` and `node --import lockstep-webgpu/register`
// work there, with no build tree in sight. Also: require('./bindings/node')
// from the repository root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageDir } from './helpers.mjs';

const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' });

test('npm pack, install offline, require and --import register', { skip: npm.status !== 0 && 'npm is not installed' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-pack-'));
  try {
    const env = { ...process.env, npm_config_update_notifier: 'false' };
    const pack = spawnSync('npm', ['pack', '--pack-destination', dir], { cwd: packageDir, encoding: 'utf8', env });
    assert.equal(pack.status, 0, pack.stderr);
    const tgz = path.join(dir, pack.stdout.trim().split('\n').pop());
    assert.match(pack.stderr, /lockstep\.node/);
    assert.equal(fs.existsSync(path.join(packageDir, 'lockstep.node')), false, 'postpack removes the copy');
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}');
    const inst = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tgz], { cwd: app, encoding: 'utf8', env });
    assert.equal(inst.status, 0, inst.stderr);
    const cleanEnv = { ...env };
    delete cleanEnv.LOCKSTEP_NODE_ADDON;
    const req = spawnSync(process.execPath, ['-e', `
      const { create, globals, addonPath } = require('lockstep-webgpu');
      create().requestAdapter().then((a) => console.log(a instanceof globals.GPUAdapter, addonPath));`],
    { cwd: app, encoding: 'utf8', env: cleanEnv });
    assert.equal(req.status, 0, req.stderr);
    assert.match(req.stdout, /^true .*node_modules\/lockstep-webgpu\/lockstep\.node/);
    fs.writeFileSync(path.join(app, 'main.mjs'), 'const a = await navigator.gpu.requestAdapter();\nconsole.log(a.info.subgroupMaxSize, typeof GPUBufferUsage.STORAGE);\n');
    const reg = spawnSync(process.execPath, ['--import', 'lockstep-webgpu/register', 'main.mjs'],
      { cwd: app, encoding: 'utf8', env: { ...cleanEnv, LOCKSTEP_SUBGROUP_SIZE: '16' } });
    assert.equal(reg.status, 0, reg.stderr);
    assert.equal(reg.stdout.trim(), '16 number');
    // the recorder and the replayer travel in the package
    const cap = spawnSync(process.execPath, ['-e', `
      const c = require('lockstep-webgpu/capture');
      console.log(typeof c.wrapGPU, typeof c.replay, require.resolve('lockstep-webgpu/replay').endsWith('tools/replay.mjs'));`],
    { cwd: app, encoding: 'utf8', env: cleanEnv });
    assert.equal(cap.status, 0, cap.stderr);
    assert.equal(cap.stdout.trim(), 'function function true');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("require('./bindings/node') from the repository root", () => {
  const root = path.join(packageDir, '..', '..');
  const r = spawnSync(process.execPath, ['-e', "const m = require('./bindings/node'); console.log(typeof m.create, typeof m.globals.GPUDevice)"],
    { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'function function');
});
