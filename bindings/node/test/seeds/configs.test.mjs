// The configurations the seed tests run in are what they claim: on lockstep,
// `subgroup-size=W` really runs W-lane subgroups (a kernel reads
// @builtin(subgroup_size)) and `check` really runs the sanitizer (a racy
// kernel is reported there and nowhere else). Without this, "identical
// results in every configuration" could be one configuration four times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProvider } from './provider.mjs';
import { navigatorFor, bufferOf, readBack, bindGroup, submitPass, lockstepChannel } from './harness.mjs';

const P = await loadProvider();
if (P.missing) throw new Error(P.missing);
Object.assign(globalThis, P.globals);
const skip = P.name === 'lockstep' ? false : `${P.name} has no lockstep configurations`;

// One workgroup of 64: every invocation writes the subgroup width; the
// first also writes word 0 alone, so with the race line enabled all 64 write
// word 0 with no barrier — a write-write race on a storage word.
const kernel = (racy) => `enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_size) w: u32, @builtin(local_invocation_index) li: u32) {
  o[1u + li] = w;
  ${racy ? 'o[0] = li;' : 'if (li == 0u) { o[0] = 7u; }'}
}`;

async function run(config, racy) {
  const gpu = P.create(config.flags); // kept referenced until the device is done
  const adapter = await navigatorFor(gpu, P.featureLevel).gpu.requestAdapter();
  assert.ok(adapter.features.has('subgroups'), 'lockstep offers "subgroups"');
  const dev = await adapter.requestDevice({ requiredFeatures: ['subgroups'] });
  try {
    const module = dev.createShaderModule({ label: racy ? 'racy.wgsl' : 'quiet.wgsl', code: kernel(racy) });
    const p = dev.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const o = bufferOf(dev, 65 * 4, GPUBufferUsage.STORAGE);
    submitPass(dev, p, bindGroup(dev, p, [o]), (pass) => pass.dispatchWorkgroups(1));
    const words = new Uint32Array((await readBack(dev, o)).buffer);
    await dev.queue.onSubmittedWorkDone();
    return { widths: new Set(words.slice(1)), findings: lockstepChannel(dev).findings };
  } finally {
    dev.destroy();
    gpu.toString();
  }
}

test('each lockstep configuration runs the subgroup width it names', { skip }, async () => {
  // subgroup-size=W: all 64 invocations see subgroup_size = W.
  for (const config of P.configs) {
    const w = Number(config.flags.find((f) => f.startsWith('subgroup-size=')).split('=')[1]);
    const { widths } = await run(config, false);
    assert.deepEqual([...widths], [w], config.name);
  }
});

test('the check configuration runs the sanitizer, the others do not', { skip }, async () => {
  // A race-free kernel: no finding anywhere. The racy one: a data-race
  // finding under `check` only.
  for (const config of P.configs) {
    const checked = config.flags.includes('check');
    assert.deepEqual((await run(config, false)).findings, [], `${config.name}: race-free kernel`);
    const ids = (await run(config, true)).findings.map((f) => f.id);
    if (checked) assert.ok(ids.includes('data-race'), `${config.name}: findings ${ids}`);
    else assert.deepEqual(ids, [], config.name);
  }
});
