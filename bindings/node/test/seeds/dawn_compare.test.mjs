// A race-free program gives the same bytes on lockstep as on Dawn. One
// script drives both: lockstep's binding (every configuration: W = 32, 8, 64
// and `check`, which must agree among themselves) and Dawn's npm `webgpu`
// (OpenGL ES on Mesa's llvmpipe, feature level "compatibility"), each
// program on a fresh device of each, and every buffer read back is compared
// byte for byte. The programs: seed-lesson kernels run from their snippets,
// and a matrix multiply, a workgroup-memory reduction and an atomic
// histogram, which also have JavaScript models (programs.mjs).
//
// Dawn is not a build dependency: without it (../shared/peers/setup.sh not
// run) every test here is skipped with a message saying so. Nothing here
// downloads anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProvider } from './provider.mjs';
import { snippet, runJs, acrossConfigs, bufferFrom, bufferOf, readBack, bindGroup, submitPass } from './harness.mjs';
import {
  GUARD, GUARD_DECLS, WORK, initialData, pipeline, guarded, indirectJob, DIVERGENCIA, BUCLE, limite,
  ACCESO, matmul, matmulModel, reduccion, reduccionModel, histograma, histogramaModel,
} from './programs.mjs';

const envProvider = process.env.LOCKSTEP_JS_PROVIDER;
const L = await loadProvider(envProvider && envProvider !== 'dawn' ? envProvider : 'lockstep');
const D = await loadProvider('dawn');
// lockstep missing is a failure (ctest registers this only where the
// binding is built); Dawn missing is a skip.
if (L.missing) throw new Error(L.missing);
Object.assign(globalThis, L.globals);
const skip = D.missing || false;
if (skip) console.log(`dawn_compare: skipped: ${skip}`);

const S = () => GPUBufferUsage.STORAGE, CD = () => GPUBufferUsage.COPY_DST;
const WIDE = { requiredLimits: { maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256 } };

// One kernel over a fresh storage buffer (or two: input, output) with the
// given workgroup count; returns the output's bytes.
async function simple(device, code, entry, groups, input, outWords) {
  const p = pipeline(device, code, entry, entry);
  const bufs = [];
  if (input) bufs.push(bufferFrom(device, input, S()));
  bufs.push(bufferOf(device, outWords * 4, S()));
  submitPass(device, p, bindGroup(device, p, bufs), (pass) => pass.dispatchWorkgroups(...groups));
  return readBack(device, bufs.at(-1));
}

const PROGRAMS = [
  ['seed 000: guard kernel, 3,000,001 floats, 46,876 workgroups', async (device) =>
    ({ datos: (await guarded(device, { code: GUARD, js: '000_techo_3000001.js', results: [],
      len: 3_000_001 + 127, count: 3_000_001 })).bytes })],
  ['seed 000: 2D dispatch re-flattened, 4,194,241 floats', async (device) =>
    ({ datos: (await guarded(device, { code: (GUARD_DECLS + snippet('000_2d.wgsl')).replace('  // ...', WORK),
      js: '000_2d.js', scope: { n: 4_194_241 }, results: [], len: 4_194_241 + 127, count: 4_194_241 })).bytes })],
  ['seed 000: grid-stride loop, 1,024 workgroups over 3,000,001 floats', async (device) => {
    const params = bufferFrom(device, new Uint32Array([3_000_001]), GPUBufferUsage.UNIFORM | CD());
    const datos = bufferFrom(device, initialData(3_000_128), S() | CD());
    const p = pipeline(device, GUARD_DECLS + snippet('000_zancada.wgsl'));
    submitPass(device, p, bindGroup(device, p, [params, datos]), (pass) => pass.dispatchWorkgroups(1024));
    return { datos: await readBack(device, datos) };
  }],
  ['seed 000: indirect dispatch counted on the device (12,000 of 100,000)', (device) =>
    indirectJob(device, { capacity: 100_000, alive: 12_000 })],
  ['seed 001: one module, constants { TAM: 64 } and { TAM: 256 } (sqrt)', async (device) => {
    const { p64, p256 } = await runJs('001_override.js', { device, wgsl: snippet('001_override.wgsl') }, ['p64', 'p256']);
    const entrada = bufferFrom(device, Float32Array.from({ length: 1000 }, (_, i) => i * 0.37 + 0.01), S());
    const out = {};
    for (const [name, p, groups] of [['p64', p64, 16], ['p256', p256, 4]]) {
      const salida = bufferOf(device, 4000, S());
      submitPass(device, p, bindGroup(device, p, [entrada, salida]), (pass) => pass.dispatchWorkgroups(groups));
      out[name] = await readBack(device, salida);
    }
    return out;
  }, WIDE],
  ['seed 001: templated WGSL, workgroup array of TAM = 64 and 256', async (device) => {
    const { wgsl } = await runJs('001_plantilla.js', {}, ['wgsl']);
    const out = {};
    for (const tam of [64, 256]) {
      const code = wgsl(tam).replace('  // ...', '  salida[li] = buf[TAM - 1u - li] * 0.5 + 0.25;') +
        '\n@group(0) @binding(0) var<storage, read_write> salida: array<f32>;\n';
      out[tam] = await simple(device, code, 'main', [1], null, tam);
    }
    return out;
  }, WIDE],
  ['seed 002: arrayLength guard, 100,000 words, 1,563 workgroups', async (device) => {
    const code = '@group(0) @binding(0) var<storage, read_write> datos: array<u32>;\n' +
      snippet('002_guarda.wgsl').replace('  // ...', '  datos[i] = datos[i] * 3u + i;');
    const p = pipeline(device, code);
    const datos = bufferFrom(device, Uint32Array.from({ length: 100_064 }, (_, i) => i ^ 0x5555), S() | CD());
    submitPass(device, p, bindGroup(device, p, [{ buffer: datos, offset: 0, size: 400_000 }]),
      (pass) => runJs('002_reparto.js', { pase: pass }));
    return { datos: await readBack(device, datos) };
  }],
  ['seed 002: divergent branches', async (device) => ({ salida: await simple(device, DIVERGENCIA, 'main', [64], null, 4096) })],
  ['seed 002: loops as long as the longest lane', async (device) =>
    ({ salida: await simple(device, BUCLE, 'main', [32], Uint32Array.from({ length: 2048 }, (_, g) => limite(g)), 2048) })],
  ['seed 002: coalesced, blocked and scattered access', async (device) => {
    const input = Uint32Array.from({ length: 64_000 }, (_, i) => Number((BigInt(i) * 2654435761n) & 0xffffffffn));
    const out = {};
    for (const [entry, groups] of [['contiguo', 16], ['bloques', 10], ['disperso', 1000]])
      out[entry] = await simple(device, ACCESO, entry, [groups], input, 64_000);
    return out;
  }],
  ['matrix multiply 100 x 90 . 90 x 72, 8 x 8 tiles in workgroup memory', matmul, undefined, matmulModel],
  ['reduction of 2^20 floats, 128-wide tree in workgroup memory', reduccion, undefined, reduccionModel],
  ['atomic histogram of 2^20 words, workgroup and global atomics', histograma, undefined, histogramaModel],
];

const differs = (a, b) => {
  const i = a.findIndex((v, k) => v !== b[k]);
  return i < 0 && a.length === b.length ? null : `byte ${i} of ${a.length} (${b.length})`;
};

for (const [name, run, opts, model] of PROGRAMS) {
  test(`same bytes on lockstep and Dawn: ${name}`, { skip }, async () => {
    const onLockstep = await acrossConfigs(L, ({ device }) => run(device), opts);
    const onDawn = await acrossConfigs(D, ({ device }) => run(device), opts);
    assert.deepEqual(Object.keys(onDawn), Object.keys(onLockstep));
    for (const k of Object.keys(onDawn)) {
      const d = differs(onLockstep[k], onDawn[k]);
      assert.equal(d, null, `${k}: lockstep and Dawn differ at ${d}`);
    }
    if (model) {
      const want = model();
      for (const k of Object.keys(want)) assert.equal(differs(Buffer.from(want[k]), onDawn[k]), null, `${k}: the model`);
    }
  });
}
