// Lesson 000 (seeds/000_e5339060c8c47559.txt, "Mapear el dominio: el
// guardia, el techo y el dispatch indirecto"): every code block runs as the
// lesson writes it (snippets/000_*), in every configuration of the provider
// (provider.mjs: lockstep at W = 32, 8, 64 and under `check`), and its
// results are checked against values worked out below from the lesson.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProvider } from './provider.mjs';
import {
  snippet, acrossConfigs, bufferFrom, bufferOf, readBack, validationError, bindGroup, submitPass,
  mulF32, lockstepChannel,
} from './harness.mjs';
import { GUARD, GUARD_DECLS, WORK, initialData, pipeline, guarded, indirectJob } from './programs.mjs';

const P = await loadProvider();
if (P.missing) throw new Error(P.missing);
Object.assign(globalThis, P.globals);

const S = GPUBufferUsage.STORAGE, U = GPUBufferUsage.UNIFORM, CD = GPUBufferUsage.COPY_DST;

// What the guarded kernels must leave: x * 0.99 (one f32 multiply, see
// mulF32) below `count`, the initial value at and above it. WGSL converts the
// literal 0.99 to f32 by rounding to nearest, which is f32(0.99).
function expectedData(len, count) {
  const a = initialData(len);
  for (let i = 0; i < count; i++) a[i] = mulF32(a[i], 0.99);
  return a;
}

function assertFloats(got, want, what) {
  const g = new Float32Array(got.buffer, got.byteOffset, got.byteLength / 4);
  if (Buffer.from(got).equals(Buffer.from(want.buffer))) return;
  const i = g.findIndex((v, k) => !Object.is(v, want[k]));
  assert.fail(`${what}: word ${i} is ${g[i]}, expected ${want[i]}`);
}

test('000 El techo: 3,000,000 elements at workgroup size 64 are 46,875 workgroups', async () => {
  // 3,000,000 / 64 = 46,875 exactly (64 x 46,875 = 3,000,000): every
  // invocation has an element, none is guarded off. The buffer has 128 more
  // floats than the count, which must keep their initial values.
  const len = 3_000_000 + 128;
  await acrossConfigs(P, async ({ device }) => {
    const r = await guarded(device, { code: GUARD, js: '000_techo.js', results: ['TAM', 'n', 'grupos'],
      len, count: 3_000_000 });
    assert.deepEqual(r.vars, { TAM: 64, n: 3_000_000, grupos: 46_875 });
    assert.deepEqual(r.calls, [['direct', 46_875]]);
    assertFloats(r.bytes, expectedData(len, 3_000_000), 'datos');
    return r.bytes;
  });
});

test('000 El guardia: 3,000,001 elements are 46,876 workgroups and the 63 extra invocations write nothing', async () => {
  // ceil(3,000,001 / 64) = 46,876 because 46,875 x 64 = 3,000,000 < 3,000,001;
  // 46,876 x 64 = 3,000,064 invocations, 63 past the count. Those 63 land
  // inside the buffer (3,000,001 + 127 floats), so without the guard they
  // would have multiplied words 3,000,001..3,000,063 by 0.99.
  const len = 3_000_001 + 127;
  await acrossConfigs(P, async ({ device }) => {
    const r = await guarded(device, { code: GUARD, js: '000_techo_3000001.js', results: ['n', 'grupos'],
      len, count: 3_000_001 });
    assert.deepEqual(r.vars, { n: 3_000_001, grupos: 46_876 });
    assert.equal(r.vars.grupos * 64 - r.vars.n, 63);
    assert.deepEqual(r.calls, [['direct', 46_876]]);
    assertFloats(r.bytes, expectedData(len, 3_000_001), 'datos');
    return r.bytes;
  });
});

test('000 Cuando 65535 no basta: one dimension stops at 65,535 workgroups', async () => {
  // maxComputeWorkgroupsPerDimension defaults to 65,535, so 65,535 x 64 =
  // 4,194,240 elements is the most one dimension covers; 65,536 workgroups
  // is a validation error (dispatchWorkgroups' rule, reported by finish()).
  await acrossConfigs(P, async ({ device }) => {
    assert.equal(device.limits.maxComputeWorkgroupsPerDimension, 65_535);
    const p = pipeline(device, GUARD);
    const params = bufferFrom(device, new Uint32Array([0]), U | CD);
    const datos = bufferOf(device, 64, S);
    const bg = bindGroup(device, p, [params, datos]);
    const { error } = await validationError(device, () => {
      const enc = device.createCommandEncoder({ label: 'demasiados' });
      const pass = enc.beginComputePass();
      pass.setPipeline(p);
      pass.setBindGroup(0, bg);
      pass.dispatchWorkgroups(65_536);
      pass.end();
      return enc.finish();
    });
    assert.ok(error instanceof GPUValidationError, `65,536 workgroups: expected a GPUValidationError, got ${error}`);
    return { rejected: true };
  });
});

test('000 Cuando 65535 no basta: the 2D dispatch re-flattened covers 4,194,241 elements', async () => {
  // n = 65,535 x 64 + 1 = 4,194,241, one element more than one dimension
  // covers. The snippet: total = ceil(n / 64) = 65,536 workgroups,
  // alto = ceil(65,536 / 4,096) = 16 rows, so dispatchWorkgroups(4096, 16):
  // 65,536 workgroups, 4,194,304 invocations, 63 past n. In the kernel,
  // grupo = wid.y * 4096 + wid.x and i = grupo * 64 + li enumerate
  // 0..4,194,303 once each, so every element below n is multiplied once.
  const n = 65_535 * 64 + 1;
  const len = n + 127;
  const code2d = GUARD_DECLS + snippet('000_2d.wgsl');
  assert.ok(code2d.includes('  // ...\n'));
  await acrossConfigs(P, async ({ device }) => {
    // As the lesson writes it (work elided), the kernel is valid.
    const { error } = await validationError(device, () => pipeline(device, code2d, 'main', '000_2d.wgsl'));
    assert.equal(error, null, `000_2d.wgsl as written: ${error?.message}`);
    const r = await guarded(device, { code: code2d.replace('  // ...', WORK), js: '000_2d.js',
      scope: { n }, results: ['TAM', 'ANCHO', 'total', 'alto'], len, count: n });
    assert.deepEqual(r.vars, { TAM: 64, ANCHO: 4096, total: 65_536, alto: 16 });
    assert.deepEqual(r.calls, [['direct', 4096, 16]]);
    assertFloats(r.bytes, expectedData(len, n), 'datos');
    return r.bytes;
  });
});

test('000 El bucle de zancada: 1,024 workgroups process 3,000,001 elements, each once', async () => {
  // 1,024 workgroups of 64: zancada = nwg.x * 64 = 65,536; invocation g
  // handles g, g + 65,536, ... below 3,000,001 (45 or 46 elements each).
  // Each element is reached by exactly one invocation once, so it is
  // multiplied by 0.99 once; twice would give x * 0.99 * 0.99.
  const count = 3_000_001, len = count + 127;
  const code = GUARD_DECLS + snippet('000_zancada.wgsl');
  await acrossConfigs(P, async ({ device }) => {
    const params = bufferFrom(device, new Uint32Array([count]), U | CD, 'params');
    const datos = bufferFrom(device, initialData(len), S | CD, 'datos');
    const p = pipeline(device, code, 'main', '000_zancada.wgsl');
    submitPass(device, p, bindGroup(device, p, [params, datos]), (pass) => pass.dispatchWorkgroups(1024));
    const bytes = await readBack(device, datos);
    assertFloats(bytes, expectedData(len, count), 'datos');
    return bytes;
  });
});

test('000 Dejar que la GPU decida: the indirect count is computed on the device by the previous kernel', async () => {
  // 12,000 live particles: preparar writes x = (12,000 + 63) / 64 = 188
  // (integer division; 187 x 64 = 11,968 < 12,000 <= 188 x 64 = 12,032);
  // y = z = 1 from the snippet's writeBuffer at byte offset 4. procesar runs
  // 188 workgroups, the guard stops at 12,000: datos[0..11,999] x 0.99,
  // the other 88,000 unchanged.
  await acrossConfigs(P, async ({ device }) => {
    const r = await indirectJob(device, { capacity: 100_000, alive: 12_000 });
    assert.deepEqual([...r.contador], [12_000]);
    assert.deepEqual([...r.args], [188, 1, 1]);
    assertFloats(r.datos, expectedData(100_000, 12_000), 'datos');
    return r;
  });
});

test('000 Dejar que la GPU decida: an indirect count over 65,535 skips the dispatch, with no validation error', async () => {
  // The lesson's warning: preparar computing 200,000 workgroups. With
  // contador = 200,000 x 64, x = (12,800,000 + 63) / 64 = 200,000 > 65,535.
  // The WebGPU spec does not validate indirect arguments: a dispatch whose
  // arguments exceed maxComputeWorkgroupsPerDimension does nothing
  // (docs/spec-notes.md). So datos keeps every initial value and no error is
  // raised (acrossConfigs asserts no uncaptured error).
  await acrossConfigs(P, async ({ device }) => {
    device.pushErrorScope('validation');
    const r = await indirectJob(device, { capacity: 1024, alive: 0, setCount: 200_000 * 64 });
    assert.equal(await device.popErrorScope(), null);
    assert.deepEqual([...r.args], [200_000, 1, 1]);
    assertFloats(r.datos, initialData(1024), 'datos');
    // lockstep says so on its own channel, never through WebGPU's errors.
    const ch = lockstepChannel(device);
    if (ch) assert.ok(ch.warnings.some((w) => /exceed maxComputeWorkgroupsPerDimension/.test(w)),
      `lockstep's warnings: ${JSON.stringify(ch.warnings)}`);
    return r;
  });
});
