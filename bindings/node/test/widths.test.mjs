// widths.test.mjs — race-free programs give the same bytes at subgroup
// widths 8, 16, 32 and 64 and under the sanitizer (`check`), as they must on
// hardware: a workgroup reduction through workgroup memory and barriers,
// divergent branches, loops whose trip count differs per lane, atomics,
// and a 2D dispatch re-flattened in the shader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDevice, runKernel } from './helpers.mjs';

const PROGRAMS = {
  reduction: [`
    @group(0) @binding(0) var<storage, read> input: array<u32>;
    @group(0) @binding(1) var<storage, read_write> sums: array<u32>;
    var<workgroup> part: array<u32, 256>;
    @compute @workgroup_size(256) fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3u) {
      part[l] = input[w.x * 256u + l];
      workgroupBarrier();
      for (var s = 128u; s > 0u; s = s >> 1u) {
        if (l < s) { part[l] = part[l] + part[l + s]; }
        workgroupBarrier();
      }
      if (l == 0u) { sums[w.x] = part[0]; }
    }`, () => [Uint32Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 20), new Uint32Array(16)], 16],
  divergence: [`
    @group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(100) fn main(@builtin(global_invocation_id) id: vec3u) {
      var x = id.x;
      var trips = 0u;
      loop {
        if (x <= 1u) { break; }
        if ((x & 1u) == 0u) { x = x / 2u; } else { x = 3u * x + 1u; }
        trips++;
      }
      d[id.x] = trips;
    }`, () => [new Uint32Array(1000)], 10],
  atomics: [`
    @group(0) @binding(0) var<storage, read_write> bins: array<atomic<u32>, 16>;
    @compute @workgroup_size(48) fn main(@builtin(global_invocation_id) id: vec3u) {
      atomicAdd(&bins[(id.x * 7u) % 16u], id.x);
    }`, () => [new Uint32Array(16)], 20],
  grid2d: [`
    @group(0) @binding(0) var<storage, read_write> d: array<u32>;
    @compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) n: vec3u) {
      let i = id.y * n.x * 8u + id.x;
      if (i < arrayLength(&d)) { d[i] = i ^ (id.x * 31u); }
    }`, () => [new Uint32Array(3000)], [8, 6]],
};

const CONFIGS = [['subgroup-size=8'], ['subgroup-size=16'], ['subgroup-size=32'], ['subgroup-size=64'],
  ['check'], ['subgroup-size=8', 'check'], ['subgroup-size=64', 'threads=1']];

const words = (h) => new Uint32Array(Uint8Array.from(Buffer.from(h, 'hex')).buffer);
const hex = (arrays) => arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex')).join('|');

test('the same results at every subgroup width and under check', async () => {
  const results = {};
  for (const flags of CONFIGS) {
    const { device } = await getDevice(flags);
    for (const [name, [code, data, groups]] of Object.entries(PROGRAMS)) {
      const out = await runKernel(device, code, data(), groups, { label: `${name}.wgsl` });
      (results[name] ??= []).push([flags.join(' '), hex(out)]);
    }
    device.destroy();
  }
  for (const [name, rows] of Object.entries(results)) {
    for (const [flags, h] of rows) assert.equal(h, rows[0][1], `${name} under ${flags} differs from ${rows[0][0]}`);
  }
  // and the results are right, not only equal: the reduction against JavaScript
  const [input] = PROGRAMS.reduction[1]();
  const sums = Array.from({ length: 16 }, (_, g) => input.slice(g * 256, g * 256 + 256).reduce((a, b) => a + b, 0));
  const got = words(results.reduction[0][1].split('|')[1]);
  assert.deepEqual([...got], sums);
  const collatz = (x) => { let t = 0; while (x > 1) { x = x % 2 ? 3 * x + 1 : x / 2; t++; } return t; };
  const trips = words(results.divergence[0][1]);
  assert.deepEqual([...trips.slice(0, 30)], Array.from({ length: 30 }, (_, i) => collatz(i)));
});
