// Lesson 001 (seeds/001_b7a5983b4ef64cf6.txt, "@workgroup_size y los
// límites de la especificación"): its code blocks (snippets/001_*) run as the
// lesson writes them in every configuration of the provider, with results
// checked against the lesson's arithmetic and the WebGPU spec's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProvider } from './provider.mjs';
import {
  snippet, runJs, acrossConfigs, bufferFrom, bufferOf, readBack, validationError, bindGroup,
  submitPass,
} from './harness.mjs';

const P = await loadProvider();
if (P.missing) throw new Error(P.missing);
Object.assign(globalThis, P.globals);

const S = GPUBufferUsage.STORAGE, CD = GPUBufferUsage.COPY_DST;
// Tests that build 256-invocation workgroups ask for them: min(256, the
// adapter's), lesson 001's own rule. Core devices have 256 by default;
// compatibility-level ones (Dawn here) 128.
const WIDE = { requiredLimits: { maxComputeInvocationsPerWorkgroup: 256, maxComputeWorkgroupSizeX: 256 } };

const u32s = (bytes) => new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const f32s = (bytes) => new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);

async function noCompileErrors(module, what) {
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  assert.deepEqual(errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`), [], `${what}: compilation errors`);
}

function computePipeline(device, module, entryPoint, constants, label) {
  const compute = { module, entryPoint };
  if (constants) compute.constants = constants;
  return device.createComputePipeline({ label, layout: 'auto', compute });
}

test('001 Las tres formas: 64, 8x8 and 4x4x4 are all 64 invocations, flattened as x + y*sx + z*sx*sy', async () => {
  // The three declarations as written compile to valid pipelines. Then,
  // for the lesson's claim about the flattened index, the same three shapes
  // (the test's kernels) write local_invocation_id packed as x | y<<8 | z<<16
  // at local_invocation_index li: for shape (sx, sy, sz) the lesson's formula
  // li = x + y*sx + z*sx*sy inverts to x = li % sx, y = (li / sx) % sy,
  // z = li / (sx*sy), for li in 0..63.
  const shapes = [[64, 1, 1], [8, 8, 1], [4, 4, 4]];
  const flat = shapes.map(([x, y, z], k) => `
@group(0) @binding(0) var<storage, read_write> salida${k}: array<u32, 64>;
@compute @workgroup_size(${x}, ${y}, ${z})
fn forma${k}(@builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) li: u32) {
  salida${k}[li] = lid.x | (lid.y << 8u) | (lid.z << 16u);
}`).join('\n');
  await acrossConfigs(P, async ({ device }) => {
    const module = device.createShaderModule({ label: '001_formas.wgsl', code: snippet('001_formas.wgsl') });
    await noCompileErrors(module, '001_formas.wgsl');
    const { error } = await validationError(device, () => ['a', 'b', 'c'].map((e) => computePipeline(device, module, e)));
    assert.equal(error, null, `fn a, b, c: ${error?.message}`);

    const fm = device.createShaderModule({ label: 'formas', code: flat });
    const out = {};
    shapes.forEach(([sx, sy], k) => {
      const p = computePipeline(device, fm, `forma${k}`);
      const buf = bufferOf(device, 256, S, `salida${k}`);
      submitPass(device, p, bindGroup(device, p, [buf]), (pass) => pass.dispatchWorkgroups(1));
      out[k] = buf;
    });
    const result = {};
    for (const [k, [sx, sy]] of shapes.entries()) {
      const got = u32s(await readBack(device, out[k]));
      const want = Array.from({ length: 64 }, (_, li) => (li % sx) | ((Math.floor(li / sx) % sy) << 8) | (Math.floor(li / (sx * sy)) << 16));
      assert.deepEqual([...got], want, `shape ${shapes[k]}`);
      result[k] = got;
    }
    return result;
  });
});

test('001 Los límites: requiredLimits from Math.min(quiero, puedo)', async () => {
  // The snippet asks for usar = min(1024, adapter's
  // maxComputeInvocationsPerWorkgroup) for that limit and for
  // maxComputeWorkgroupSizeX. requestDevice grants a device whose limits are
  // exactly the requested values (spec: requested limits replace the
  // defaults) when usar is within the adapter's maxComputeWorkgroupSizeX,
  // and rejects with OperationError otherwise. The granted device then runs
  // a usar-wide workgroup (each invocation writes its index), which a device
  // with default limits (256 core, 128 compatibility) rejects whenever usar
  // is above its default.
  await acrossConfigs(P, async (ctx) => {
    const adapterLimit = (await ctx.navigator.gpu.requestAdapter()).limits;
    const expectUsar = Math.min(1024, adapterLimit.maxComputeInvocationsPerWorkgroup);
    if (expectUsar > adapterLimit.maxComputeWorkgroupSizeX) {
      await assert.rejects(runJs('001_limites.js', { navigator: ctx.navigator }),
        (e) => e.name === 'OperationError');
      return { usar: expectUsar, rejected: true };
    }
    const { quiero, puedo, usar, device } = await runJs('001_limites.js', { navigator: ctx.navigator },
      ['quiero', 'puedo', 'usar', 'device']);
    try {
      assert.equal(quiero, 1024);
      assert.equal(puedo, adapterLimit.maxComputeInvocationsPerWorkgroup);
      assert.equal(usar, expectUsar);
      assert.equal(device.limits.maxComputeInvocationsPerWorkgroup, usar);
      assert.equal(device.limits.maxComputeWorkgroupSizeX, usar);
      const code = `@group(0) @binding(0) var<storage, read_write> salida: array<u32>;
@compute @workgroup_size(${usar}) fn main(@builtin(local_invocation_index) li: u32) { salida[li] = li + 1u; }`;
      const { value: p, error } = await validationError(device, () =>
        computePipeline(device, device.createShaderModule({ code }), 'main'));
      assert.equal(error, null, `workgroup of ${usar} on the granted device: ${error?.message}`);
      const buf = bufferOf(device, usar * 4, S);
      submitPass(device, p, bindGroup(device, p, [buf]), (pass) => pass.dispatchWorkgroups(1));
      const got = u32s(await readBack(device, buf));
      assert.deepEqual([...got], Array.from({ length: usar }, (_, i) => i + 1));
      const dflt = ctx.device.limits.maxComputeInvocationsPerWorkgroup;
      if (usar > dflt) {
        const { error: e2 } = await validationError(ctx.device, () =>
          computePipeline(ctx.device, ctx.device.createShaderModule({ code }), 'main'));
        assert.ok(e2 instanceof GPUValidationError, `workgroup of ${usar} above the default ${dflt} must be refused`);
      }
      return { usar, got };
    } finally {
      device.destroy();
    }
  });
});

test('001 Los límites: @workgroup_size(256, 256) is rejected, 16,384 bytes of workgroup storage is the ceiling', async () => {
  // The prose: each dimension has its own cap and the product may not pass
  // maxComputeInvocationsPerWorkgroup; 256 x 256 = 65,536 > 256. The WGSL
  // module is valid (the limit is not a WGSL rule); creating the pipeline is
  // the validation error (GPUProgrammableStage validation), and the async
  // form rejects with a GPUPipelineError whose reason is "validation".
  // Storage: a 64 x 64 f32 tile is 64 * 64 * 4 = 16,384 bytes, exactly
  // maxComputeWorkgroupStorageSize's default, so it fits; one more f32
  // (16,388 bytes) does not.
  const code = '@compute @workgroup_size(256, 256) fn main() { }';
  const tile = (extra) => `var<workgroup> tile: array<array<f32, 64>, 64>;
${extra ? 'var<workgroup> mas: f32;' : ''}
@group(0) @binding(0) var<storage, read_write> salida: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) li: u32) {
  tile[li][li] = f32(li);
  ${extra ? 'mas = 1.0;' : ''}
  workgroupBarrier();
  salida[li] = tile[63u - li][63u - li]${extra ? ' + mas' : ''};
}`;
  await acrossConfigs(P, async ({ device }) => {
    const module = device.createShaderModule({ label: '256x256', code });
    await noCompileErrors(module, '256x256');
    const { error } = await validationError(device, () => computePipeline(device, module, 'main', undefined, '256x256'));
    assert.ok(error instanceof GPUValidationError, `createComputePipeline: expected a GPUValidationError, got ${error}`);
    await assert.rejects(device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } }),
      (e) => e instanceof GPUPipelineError && e.reason === 'validation');

    assert.equal(device.limits.maxComputeWorkgroupStorageSize, 16_384);
    const ok = await validationError(device, () => computePipeline(device, device.createShaderModule({ code: tile(false) }), 'main'));
    assert.equal(ok.error, null, `64 x 64 f32 tile: ${ok.error?.message}`);
    const over = await validationError(device, () => computePipeline(device, device.createShaderModule({ code: tile(true) }), 'main'));
    assert.ok(over.error instanceof GPUValidationError, '16,388 bytes of workgroup storage must be refused');
    const buf = bufferOf(device, 256, S);
    submitPass(device, ok.value, bindGroup(device, ok.value, [buf]), (pass) => pass.dispatchWorkgroups(1));
    const got = f32s(await readBack(device, buf));
    assert.deepEqual([...got], Array.from({ length: 64 }, (_, li) => 63 - li));
    return got;
  });
});

test('001 Parametrizar: one module, pipelines with constants { TAM: 64 } and { TAM: 256 }', async () => {
  // entrada[i] = i*i for i < 1,000 (exact in f32), so salida[i] = sqrt(i*i)
  // = i, within WGSL's sqrt accuracy (inherited from 1/inverseSqrt: a few
  // ULP; the test allows 4 ULP of i, under 0.0003 for i < 1,000). p64 gets
  // ceil(1,000 / 64) = 16 workgroups and p256 ceil(1,000 / 256) = 4: 1,024
  // invocations either way. If TAM did not reach p256, its 4 workgroups
  // would be 256 invocations and salida[256..999] would stay 0.
  const N = 1000;
  const ulp = (x) => 2 ** (Math.floor(Math.log2(x)) - 23);
  await acrossConfigs(P, async ({ device }) => {
    const { module, p64, p256 } = await runJs('001_override.js', { device, wgsl: snippet('001_override.wgsl') },
      ['module', 'p64', 'p256']);
    await noCompileErrors(module, '001_override.wgsl');
    const entradaData = Float32Array.from({ length: N }, (_, i) => i * i);
    const entrada = bufferFrom(device, entradaData, S);
    const out = {};
    for (const [name, p, groups] of [['p64', p64, 16], ['p256', p256, 4]]) {
      const salida = bufferOf(device, N * 4, S, name);
      submitPass(device, p, bindGroup(device, p, [entrada, salida]), (pass) => pass.dispatchWorkgroups(groups));
      out[name] = f32s(await readBack(device, salida));
      out[name].forEach((v, i) => {
        if (Math.abs(v - i) > (i ? 4 * ulp(i) : 0)) assert.fail(`${name}: salida[${i}] = ${v}, expected ${i}`);
      });
    }
    assert.deepEqual(out.p64, out.p256);
    return out;
  }, WIDE);
});

// The override-sized workgroup array the lesson says does not compile, and
// the test's entry point using it: buf[li] = li, barrier, salida[li] =
// buf[TAM - 1 - li], so salida reads TAM - 1 - li for li < TAM.
const REVERSE = `
@group(0) @binding(0) var<storage, read_write> salida: array<f32>;
@compute @workgroup_size(TAM)
fn main(@builtin(local_invocation_index) li: u32) {
  buf[li] = f32(li);
  workgroupBarrier();
  salida[li] = buf[TAM - 1u - li];
}`;
const reversed = (tam) => Array.from({ length: tam }, (_, li) => tam - 1 - li);

test('001 Parametrizar: an override may size a var<workgroup> array (WGSL; the lesson says it may not)', async () => {
  // WGSL: the element count of an array in the workgroup address space may
  // be an override-expression (docs/spec-notes.md, "Override-sized workgroup
  // arrays are valid"). So the lesson's "ERROR" block is a valid module, and
  // with the test's entry point it runs at TAM = 64 and 256.
  await acrossConfigs(P, async ({ device }) => {
    const text = snippet('001_override_workgroup.wgsl');
    const { error } = await validationError(device, async () => {
      await noCompileErrors(device.createShaderModule({ label: '001_override_workgroup.wgsl', code: text }), 'as written');
    });
    assert.equal(error, null, `the lesson's block: ${error?.message}`);
    const module = device.createShaderModule({ code: text + REVERSE });
    const out = {};
    for (const tam of [64, 256]) {
      const p = computePipeline(device, module, 'main', { TAM: tam });
      const salida = bufferOf(device, tam * 4, S);
      submitPass(device, p, bindGroup(device, p, [salida]), (pass) => pass.dispatchWorkgroups(1));
      out[tam] = f32s(await readBack(device, salida));
      assert.deepEqual([...out[tam]], reversed(tam), `TAM = ${tam}`);
    }
    return out;
  }, WIDE);
});

test('001 Parametrizar: the templated WGSL function gives a workgroup array as large as the workgroup', async () => {
  // wgsl(TAM) as written compiles and makes a valid pipeline for TAM = 64
  // and 256. With the lesson's "// ..." filled with salida[li] =
  // buf[TAM - 1 - li] (and salida declared), each invocation reads the word
  // another one wrote before the barrier: salida[li] = TAM - 1 - li.
  await acrossConfigs(P, async ({ device }) => {
    const { wgsl } = await runJs('001_plantilla.js', {}, ['wgsl']);
    assert.equal(typeof wgsl, 'function');
    const out = {};
    for (const tam of [64, 256]) {
      const text = wgsl(tam);
      assert.ok(text.includes(`const TAM: u32 = ${tam}u;`) && text.includes('  // ...\n'));
      const plain = device.createShaderModule({ label: `plantilla(${tam})`, code: text });
      await noCompileErrors(plain, `wgsl(${tam})`);
      const { error } = await validationError(device, () => computePipeline(device, plain, 'main'));
      assert.equal(error, null, `wgsl(${tam}) as written: ${error?.message}`);
      const filled = text.replace('  // ...', '  salida[li] = buf[TAM - 1u - li];') +
        '\n@group(0) @binding(0) var<storage, read_write> salida: array<f32>;\n';
      const p = computePipeline(device, device.createShaderModule({ code: filled }), 'main');
      const salida = bufferOf(device, tam * 4, S);
      submitPass(device, p, bindGroup(device, p, [salida]), (pass) => pass.dispatchWorkgroups(1));
      out[tam] = f32s(await readBack(device, salida));
      assert.deepEqual([...out[tam]], reversed(tam), `TAM = ${tam}`);
    }
    return out;
  }, WIDE);
});
