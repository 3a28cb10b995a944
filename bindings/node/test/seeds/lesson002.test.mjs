// Lesson 002 (seeds/002_67b4d361477d1bec.txt, "SIMT: por qué tus
// invocaciones no son hilos independientes"): its code blocks
// (snippets/002_*) run as written, and the kernels its prose describes —
// divergence, loops as long as the longest lane, coalesced against blocked
// and scattered access — are written out here and run in every
// configuration of the provider. None of their results may depend on the
// subgroup width: acrossConfigs compares the bytes of W = 32, 8, 64 and the
// sanitizer run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProvider } from './provider.mjs';
import {
  snippet, runJs, acrossConfigs, bufferFrom, bufferOf, readBack, validationError, bindGroup,
  recordingPass, submitPass,
} from './harness.mjs';
import { DIVERGENCIA, divergencia, BUCLE, limite, bucle, ACCESO } from './programs.mjs';

const P = await loadProvider();
if (P.missing) throw new Error(P.missing);
Object.assign(globalThis, P.globals);

const S = GPUBufferUsage.STORAGE, CD = GPUBufferUsage.COPY_DST;
const u32s = (bytes) => new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);

function pipelineOf(device, module, entryPoint) {
  return device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint } });
}

function assertWords(got, want, what) {
  const i = want.findIndex((v, k) => got[k] !== v);
  if (i >= 0 || got.length !== want.length)
    assert.fail(`${what}: word ${i} is ${got[i]}, expected ${want[i]} (${got.length} words, expected ${want.length})`);
}

test('adapter.info reports the subgroup size range as the spec shapes it', async () => {
  // The lesson: WebGPU exposes the width only as subgroupMinSize and
  // subgroupMaxSize, a range. The spec: both powers of two, 4 <= min <= max
  // <= 128.
  await acrossConfigs(P, async ({ adapter }) => {
    const { subgroupMinSize: lo, subgroupMaxSize: hi } = adapter.info;
    const pow2 = (v) => Number.isInteger(v) && v > 0 && (v & (v - 1)) === 0;
    assert.ok(pow2(lo) && pow2(hi) && lo >= 4 && lo <= hi && hi <= 128, `subgroup sizes ${lo}..${hi}`);
    return {};
  });
});

// The `/* ... */` bodies of peor, mejor and imagen become a call marking the
// invocation's cell of a 64-wide grid, declared before the lesson's text.
const MARCAR = `
@group(0) @binding(0) var<storage, read_write> marcas: array<atomic<u32>>;
fn marcar(gid: vec3<u32>) { atomicAdd(&marcas[gid.y * 64u + gid.x], 1u); }
`;

test('002 Workgroup y subgrupo: peor (100), mejor (64) and imagen (8x8) each run every invocation once', async () => {
  // peor: 10 workgroups of 100 = invocations 0..999; mejor: 16 of 64 =
  // 0..1,023; imagen: dispatchWorkgroups(8, 8) of 8x8 = a 64 x 64 grid,
  // cell gid.y * 64 + gid.x, 0..4,095. Each cell reached is marked exactly
  // once, the rest of the 4,096-word buffer stays 0.
  const text = snippet('002_tamanos.wgsl');
  assert.equal(text.split('/* ... */').length, 4);
  const runs = [['peor', [10], 1000], ['mejor', [16], 1024], ['imagen', [8, 8], 4096]];
  await acrossConfigs(P, async ({ device }) => {
    const plain = device.createShaderModule({ label: '002_tamanos.wgsl', code: text });
    const { error } = await validationError(device, () => runs.map(([e]) => pipelineOf(device, plain, e)));
    assert.equal(error, null, `as written: ${error?.message}`);
    const module = device.createShaderModule({ code: MARCAR + text.replaceAll('/* ... */', 'marcar(gid);') });
    const out = {};
    for (const [entry, groups, reached] of runs) {
      const p = pipelineOf(device, module, entry);
      const marcas = bufferOf(device, 4096 * 4, S, entry);
      submitPass(device, p, bindGroup(device, p, [marcas]), (pass) => pass.dispatchWorkgroups(...groups));
      out[entry] = u32s(await readBack(device, marcas));
      assertWords(out[entry], Array.from({ length: 4096 }, (_, i) => (i < reached ? 1 : 0)), entry);
    }
    return out;
  });
});

test('002 El reparto: 100,000 elements are 1,563 workgroups, and the guard stops the 32 extra', async () => {
  // ceil(100,000 / 64) = 1,563 (1,562 x 64 = 99,968 < 100,000), 1,563 x 64 =
  // 100,032 invocations: 32 past the end. datos is bound as a 100,000-word
  // window of a 100,064-word buffer, so arrayLength(&datos) = 100,000 and
  // the 32 extra invocations would land in the 64 words after it. The
  // lesson's "// ..." becomes datos[i] = datos[i] + 1u; datos[i] starts at
  // 3i, so the window ends at 3i + 1 and the tail keeps 3i.
  const N = 100_000, len = N + 64;
  const decl = '@group(0) @binding(0) var<storage, read_write> datos: array<u32>;\n';
  const text = decl + snippet('002_guarda.wgsl');
  await acrossConfigs(P, async ({ device }) => {
    const plain = device.createShaderModule({ label: '002_guarda.wgsl', code: text });
    const { error } = await validationError(device, () => pipelineOf(device, plain, 'main'));
    assert.equal(error, null, `as written: ${error?.message}`);
    const p = pipelineOf(device, device.createShaderModule({ code: text.replace('  // ...', '  datos[i] = datos[i] + 1u;') }), 'main');
    const datos = bufferFrom(device, Uint32Array.from({ length: len }, (_, i) => 3 * i), S | CD, 'datos');
    const bg = bindGroup(device, p, [{ buffer: datos, offset: 0, size: N * 4 }]);
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    pass.setBindGroup(0, bg);
    const pase = recordingPass(pass);
    await runJs('002_reparto.js', { pase });
    pass.end();
    device.queue.submit([enc.finish()]);
    assert.deepEqual(pase.calls, [['direct', 1563]]);
    const got = u32s(await readBack(device, datos));
    assertWords(got, Array.from({ length: len }, (_, i) => 3 * i + (i < N ? 1 : 0)), 'datos');
    return got;
  });
});

test('002 SIMT prose: divergent branches give each invocation its own result', async () => {
  // 4,096 invocations (64 workgroups of 64); expected values by divergencia().
  const n = 4096;
  await acrossConfigs(P, async ({ device }) => {
    const p = pipelineOf(device, device.createShaderModule({ label: 'divergencia', code: DIVERGENCIA }), 'main');
    const salida = bufferOf(device, n * 4, S);
    submitPass(device, p, bindGroup(device, p, [salida]), (pass) => pass.dispatchWorkgroups(n / 64));
    const got = u32s(await readBack(device, salida));
    assertWords(got, Array.from({ length: n }, (_, i) => divergencia(i)), 'divergencia');
    return got;
  });
});

test('002 SIMT prose: a loop as long as its longest lane still gives each lane its own count', async () => {
  // 2,048 invocations; lane g loops limite(g) times; expected by bucle().
  const n = 2048;
  await acrossConfigs(P, async ({ device }) => {
    const p = pipelineOf(device, device.createShaderModule({ label: 'bucle', code: BUCLE }), 'main');
    const lim = bufferFrom(device, Uint32Array.from({ length: n }, (_, g) => limite(g)), S);
    const salida = bufferOf(device, n * 4, S);
    submitPass(device, p, bindGroup(device, p, [lim, salida]), (pass) => pass.dispatchWorkgroups(n / 64));
    const got = u32s(await readBack(device, salida));
    assertWords(got, Array.from({ length: n }, (_, g) => bucle(g)), 'bucle');
    return got;
  });
});

test('002 SIMT prose: coalesced, blocked and scattered access give the same words', async () => {
  // 64,000 words, entrada[i] = i * 2,654,435,761 mod 2^32 (a Weyl sequence,
  // so no two neighbours are alike). contiguo: 16 workgroups (zancada
  // 1,024); bloques: ceil(64,000 / 100) = 640 invocations = 10 workgroups;
  // disperso: 1,000 workgroups, one word each. All: salida[i] = 2 entrada[i]
  // + 1 mod 2^32.
  const n = 64_000;
  const entradaData = Uint32Array.from({ length: n }, (_, i) => Number((BigInt(i) * 2654435761n) & 0xffffffffn));
  const want = Array.from(entradaData, (x) => (x * 2 + 1) >>> 0);
  await acrossConfigs(P, async ({ device }) => {
    const module = device.createShaderModule({ label: 'acceso', code: ACCESO });
    const entrada = bufferFrom(device, entradaData, S);
    const out = {};
    for (const [entry, groups] of [['contiguo', 16], ['bloques', 10], ['disperso', 1000]]) {
      const p = pipelineOf(device, module, entry);
      const salida = bufferOf(device, n * 4, S, entry);
      submitPass(device, p, bindGroup(device, p, [entrada, salida]), (pass) => pass.dispatchWorkgroups(groups));
      out[entry] = u32s(await readBack(device, salida));
      assertWords(out[entry], want, entry);
    }
    return out;
  });
});
