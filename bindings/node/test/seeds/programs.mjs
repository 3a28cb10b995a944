// The programs the seed tests and the Dawn comparison share: lesson 000's
// guarded kernel and its indirect job, the kernels lesson 002's prose
// describes (with JavaScript models of their results), and the comparison's
// own race-free programs (matrix multiply, a workgroup-memory reduction, an
// atomic histogram). Each takes a device and returns the bytes it read back.
// GPUBufferUsage and the other globals must be installed before a call.
import {
  snippet, runJs, bufferFrom, bufferOf, readBack, bindGroup, recordingPass, submitPass,
} from './harness.mjs';

const S = () => GPUBufferUsage.STORAGE, U = () => GPUBufferUsage.UNIFORM, CD = () => GPUBufferUsage.COPY_DST;

// The guard kernel's declarations (struct Params, params, datos): the later
// WGSL blocks of the lesson use them without repeating them.
export const GUARD = snippet('000_guardia.wgsl');
export const GUARD_DECLS = GUARD.slice(0, GUARD.indexOf('@compute'));
// The lesson's placeholder for the kernel's work, and the work its guard
// kernel does (datos[i] * 0.99), which the test puts there to observe it.
export const WORK = '  datos[i] = datos[i] * 0.99;';

// datos[i] starts at (i mod 1024) + 1: normal f32 values, none zero.
export function initialData(len) {
  const a = new Float32Array(len);
  for (let i = 0; i < len; i++) a[i] = (i % 1024) + 1;
  return a;
}

export function pipeline(device, code, entryPoint = 'main', label) {
  const module = device.createShaderModule({ label, code });
  return device.createComputePipeline({ label, layout: 'auto', compute: { module, entryPoint } });
}

// Runs the guard kernel over a buffer of `len` floats with params.conteo =
// `count`, dispatching through the JavaScript snippet `js` (which computes
// the workgroup count itself); returns what the snippet computed, the
// dispatches it made, and the buffer.
export async function guarded(device, { code, js, scope = {}, results, len, count }) {
  const params = bufferFrom(device, new Uint32Array([count]), U() | CD(), 'params');
  const datos = bufferFrom(device, initialData(len), S() | CD(), 'datos');
  const p = pipeline(device, code, 'main', js);
  const bg = bindGroup(device, p, [params, datos], 'guard');
  let rec, vars;
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(p);
  pass.setBindGroup(0, bg);
  rec = recordingPass(pass);
  vars = await runJs(js, { ...scope, pass: rec }, results);
  pass.end();
  device.queue.submit([enc.finish()]);
  return { vars, calls: rec.calls, bytes: await readBack(device, datos) };
}

// Lesson 000's own example of a count only the GPU knows: a particle pool of
// capacity 100,000 with 12,000 alive. A counting kernel (the test's, not the
// lesson's) counts the live ones into `contador`; kernel A (preparar) turns
// it into the dispatch arguments; kernel B (the guard kernel, as procesar)
// consumes them through dispatchWorkgroupsIndirect in the same pass.
export const CONTAR = `
@group(0) @binding(0) var<storage, read> vivo: array<u32>;
@group(0) @binding(1) var<storage, read_write> contador: atomic<u32>;
@compute @workgroup_size(64)
fn contar(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x < arrayLength(&vivo)) {
    if (vivo[gid.x] != 0u) { atomicAdd(&contador, 1u); }
  }
}`;
// argsDispatch has no COPY_SRC (the lesson's usage list), so a last kernel
// copies it out through its STORAGE usage.
export const COPIAR = `
struct Args { x: u32, y: u32, z: u32 };
@group(0) @binding(0) var<storage, read> args: Args;
@group(0) @binding(1) var<storage, read_write> copia: array<u32, 3>;
@compute @workgroup_size(1)
fn copiar() { copia[0] = args.x; copia[1] = args.y; copia[2] = args.z; }`;

export async function indirectJob(device, { capacity, alive, setCount }) {
  const { argsDispatch } = await runJs('000_indirecto_args.js', { device }, ['argsDispatch']);
  const contadorBuf = bufferOf(device, 16, S() | U() | CD(), 'contador');
  if (setCount !== undefined) device.queue.writeBuffer(contadorBuf, 0, new Uint32Array([setCount]));
  const vivoData = new Uint32Array(capacity);
  vivoData.fill(1, 0, alive);
  const vivo = bufferFrom(device, vivoData, S(), 'vivo');
  const datos = bufferFrom(device, initialData(capacity), S() | CD(), 'datos');
  const copia = bufferOf(device, 12, S(), 'copia');

  const contar = pipeline(device, CONTAR, 'contar', 'contar');
  const preparar = pipeline(device, snippet('000_indirecto_preparar.wgsl'), 'preparar', 'preparar');
  const procesar = pipeline(device, GUARD, 'main', 'procesar');
  const copiar = pipeline(device, COPIAR, 'copiar', 'copiar');
  const bgContar = bindGroup(device, contar, [vivo, contadorBuf]);
  const bgPreparar = bindGroup(device, preparar, [argsDispatch, contadorBuf]);
  // params.conteo of procesar is the same word, bound as a uniform.
  const bgProcesar = bindGroup(device, procesar, [contadorBuf, datos]);
  const bgCopiar = bindGroup(device, copiar, [{ buffer: argsDispatch, offset: 0, size: 12 }, copia]);

  const enc = device.createCommandEncoder();
  if (setCount === undefined) {
    const pass = enc.beginComputePass();
    pass.setPipeline(contar);
    pass.setBindGroup(0, bgContar);
    pass.dispatchWorkgroups(Math.ceil(capacity / 64));
    pass.end();
  }
  await runJs('000_indirecto_pase.js', { enc, preparar, procesar, bgPreparar, bgProcesar, argsDispatch });
  const pass = enc.beginComputePass();
  pass.setPipeline(copiar);
  pass.setBindGroup(0, bgCopiar);
  pass.dispatchWorkgroups(1);
  pass.end();
  device.queue.submit([enc.finish()]);
  return {
    contador: new Uint32Array((await readBack(device, contadorBuf, 4)).buffer),
    args: new Uint32Array((await readBack(device, copia, 12)).buffer),
    datos: await readBack(device, datos),
  };
}

// Divergence, from "Dónde se nota el lockstep en la práctica": a branch all
// lanes of a subgroup take alike (per workgroup), one they split on (odd and
// even lanes), a nested split at a period none of the widths divides (5 and
// 3), and an early return taken by some lanes only. On SIMT hardware both
// sides of a split run under a mask; the result of each invocation is what
// it would be alone.
export const DIVERGENCIA = `
@group(0) @binding(0) var<storage, read_write> salida: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u) {
  let i = gid.x;
  var v: u32;
  if ((i & 1u) == 0u) { v = i * 3u; } else { v = i + 1000u; }
  if ((wid.x & 1u) == 0u) { v = v + 7u; } else { v = v ^ 0xffu; }
  if (i % 5u == 0u) {
    if (i % 3u == 0u) { v = v * 2u; } else { v = v - 1u; }
  }
  if (i % 7u == 3u) { salida[i] = 0xdeadu; return; }
  salida[i] = v;
}`;
export function divergencia(i) {
  let v = (i & 1) === 0 ? i * 3 : i + 1000;
  v = (Math.floor(i / 64) & 1) === 0 ? v + 7 : (v ^ 0xff);
  if (i % 5 === 0) v = i % 3 === 0 ? v * 2 : v - 1;
  return i % 7 === 3 ? 0xdead : v >>> 0;
}

// Loops, from the same section: "si n vale 3 para 31 invocaciones y 500
// para una, el subgrupo entero itera 500 veces". Every 32nd invocation loops
// 500 times, the others 3; a continue skips every fourth iteration.
export const BUCLE = `
@group(0) @binding(0) var<storage, read> limite: array<u32>;
@group(0) @binding(1) var<storage, read_write> salida: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let n = limite[gid.x];
  var i = 0u;
  var suma = 0u;
  while (i < n) {
    if (i % 4u == 3u) { i += 1u; continue; }
    suma += i ^ gid.x;
    i += 1u;
  }
  salida[gid.x] = suma;
}`;
export const limite = (g) => (g % 32 === 31 ? 500 : 3);
export function bucle(g) {
  let suma = 0;
  for (let i = 0; i < limite(g); i++) if (i % 4 !== 3) suma = (suma + (i ^ g)) >>> 0;
  return suma;
}

// Coalescing, from "Una instrucción, muchos datos" (32 lanes reading
// contiguous words are one transaction, scattered ones up to 32) and lesson
// 000's grid-stride paragraph (invocation 0 taking elements 0..99, 1 taking
// 100..199 serialises memory): the same map f(x) = 2x + 1 done contiguously
// by a grid-stride loop, in blocks of 100 per invocation, and as a gather
// through the permutation i -> (i * 7,919) mod 64,000 (7,919 is prime and
// does not divide 64,000, so that map is a bijection). Access pattern is a
// matter of speed only: all three produce what arithmetic says.
export const ACCESO = `
@group(0) @binding(0) var<storage, read> entrada: array<u32>;
@group(0) @binding(1) var<storage, read_write> salida: array<u32>;
@compute @workgroup_size(64)
fn contiguo(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let zancada = nwg.x * 64u;
  for (var i = gid.x; i < arrayLength(&entrada); i += zancada) { salida[i] = entrada[i] * 2u + 1u; }
}
@compute @workgroup_size(64)
fn bloques(@builtin(global_invocation_id) gid: vec3u) {
  for (var k = 0u; k < 100u; k++) {
    let i = gid.x * 100u + k;
    if (i >= arrayLength(&entrada)) { break; }
    salida[i] = entrada[i] * 2u + 1u;
  }
}
@compute @workgroup_size(64)
fn disperso(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&entrada)) { return; }
  let j = (i * 7919u) % arrayLength(&entrada);
  salida[j] = entrada[j] * 2u + 1u;
}`;


// ---- The Dawn comparison's own programs ----------------------------------
// Each stays within Dawn's compatibility-level defaults (at most 128
// invocations per workgroup, 4 storage buffers per stage) and is race-free,
// so its bytes are defined by WGSL alone. Each comes with a JavaScript model
// doing the same f32 operations in the same order (Math.fround after each),
// which is what a conforming implementation must produce bit for bit when
// nothing is fused: WGSL's `+` and `*` on f32 are correctly rounded.

const f32 = Math.fround;

// C (M x N) = A (M x K) . B (K x N), 8 x 8 tiles through workgroup memory;
// sizes that are not multiples of 8 exercise the edge tiles. The k loop runs
// in order 0..K-1 (padded tiles add +0, which leaves acc unchanged).
export const MATMUL = `
struct Dims { m: u32, n: u32, k: u32 };
@group(0) @binding(0) var<uniform> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;
var<workgroup> ta: array<array<f32, 8>, 8>;
var<workgroup> tb: array<array<f32, 8>, 8>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let row = gid.y;
  let col = gid.x;
  var acc = 0.0;
  let tiles = (dims.k + 7u) / 8u;
  for (var t = 0u; t < tiles; t++) {
    let ka = t * 8u + lid.x;
    let kb = t * 8u + lid.y;
    ta[lid.y][lid.x] = 0.0;
    tb[lid.y][lid.x] = 0.0;
    if (row < dims.m && ka < dims.k) { ta[lid.y][lid.x] = a[row * dims.k + ka]; }
    if (kb < dims.k && col < dims.n) { tb[lid.y][lid.x] = b[kb * dims.n + col]; }
    workgroupBarrier();
    for (var q = 0u; q < 8u; q++) { acc += ta[lid.y][q] * tb[q][lid.x]; }
    workgroupBarrier();
  }
  if (row < dims.m && col < dims.n) { c[row * dims.n + col] = acc; }
}`;
const MM = { m: 100, n: 72, k: 90 };
const mmA = () => Float32Array.from({ length: MM.m * MM.k }, (_, i) => ((i * 37) % 101) / 64 - 0.7);
const mmB = () => Float32Array.from({ length: MM.k * MM.n }, (_, i) => ((i * 53) % 97) / 48 - 1.1);

export async function matmul(device) {
  const dims = bufferFrom(device, new Uint32Array([MM.m, MM.n, MM.k, 0]), U() | CD(), 'dims');
  const a = bufferFrom(device, mmA(), S(), 'a');
  const b = bufferFrom(device, mmB(), S(), 'b');
  const c = bufferOf(device, MM.m * MM.n * 4, S(), 'c');
  const p = pipeline(device, MATMUL, 'main', 'matmul');
  submitPass(device, p, bindGroup(device, p, [dims, a, b, c]),
    (pass) => pass.dispatchWorkgroups(Math.ceil(MM.n / 8), Math.ceil(MM.m / 8)));
  return { c: await readBack(device, c) };
}
export function matmulModel() {
  const A = mmA(), B = mmB(), C = new Float32Array(MM.m * MM.n);
  for (let r = 0; r < MM.m; r++)
    for (let col = 0; col < MM.n; col++) {
      let acc = 0;
      for (let q = 0; q < MM.k; q++) acc = f32(acc + f32(A[r * MM.k + q] * B[q * MM.n + col]));
      C[r * MM.n + col] = acc;
    }
  return { c: new Uint8Array(C.buffer) };
}

// Sum of 2^20 floats: each workgroup of 128 adds two elements per invocation
// into workgroup memory, then halves the active range with a barrier per
// step (64, 32, ..., 1), and writes its partial sum: 4,096 partial sums, each
// the same tree of f32 additions on every implementation.
export const REDUCCION = `
@group(0) @binding(0) var<storage, read> entrada: array<f32>;
@group(0) @binding(1) var<storage, read_write> parcial: array<f32>;
var<workgroup> sh: array<f32, 128>;
@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3u) {
  let base = wid.x * 256u;
  sh[li] = entrada[base + li] + entrada[base + li + 128u];
  workgroupBarrier();
  for (var s = 64u; s > 0u; s >>= 1u) {
    if (li < s) { sh[li] = sh[li] + sh[li + s]; }
    workgroupBarrier();
  }
  if (li == 0u) { parcial[wid.x] = sh[0]; }
}`;
const RED_N = 1 << 20;
const redIn = () => Float32Array.from({ length: RED_N }, (_, i) => Math.sin(i * 0.001) * 3 + ((i * 7) % 13) / 16);

export async function reduccion(device) {
  const entrada = bufferFrom(device, redIn(), S(), 'entrada');
  const parcial = bufferOf(device, (RED_N / 256) * 4, S(), 'parcial');
  const p = pipeline(device, REDUCCION, 'main', 'reduccion');
  submitPass(device, p, bindGroup(device, p, [entrada, parcial]), (pass) => pass.dispatchWorkgroups(RED_N / 256));
  return { parcial: await readBack(device, parcial) };
}
export function reduccionModel() {
  const x = redIn(), out = new Float32Array(RED_N / 256), sh = new Float32Array(128);
  for (let w = 0; w < RED_N / 256; w++) {
    for (let li = 0; li < 128; li++) sh[li] = f32(x[w * 256 + li] + x[w * 256 + li + 128]);
    for (let s = 64; s > 0; s >>= 1) for (let li = 0; li < s; li++) sh[li] = f32(sh[li] + sh[li + s]);
    out[w] = sh[0];
  }
  return { parcial: new Uint8Array(out.buffer) };
}

// A 256-bin histogram of the top byte of 2^20 words (a Weyl sequence),
// through a per-workgroup histogram of atomics in workgroup memory, merged
// into the global one with one atomicAdd per bin and workgroup; and the
// same counted straight into global atomics. Atomic order does not change a
// sum, so both must be the model's counts.
export const HISTOGRAMA = `
@group(0) @binding(0) var<storage, read> entrada: array<u32>;
@group(0) @binding(1) var<storage, read_write> global: array<atomic<u32>, 256>;
@group(0) @binding(2) var<storage, read_write> directo: array<atomic<u32>, 256>;
var<workgroup> local: array<atomic<u32>, 256>;
@compute @workgroup_size(128)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) li: u32) {
  let n = arrayLength(&entrada);
  for (var i = gid.x; i < n; i += 128u * 64u) {
    atomicAdd(&local[entrada[i] >> 24u], 1u);
    atomicAdd(&directo[entrada[i] >> 24u], 1u);
  }
  workgroupBarrier();
  for (var bin = li; bin < 256u; bin += 128u) {
    atomicAdd(&global[bin], atomicLoad(&local[bin]));
  }
}`;
const HIST_N = 1 << 20;
const histIn = () => Uint32Array.from({ length: HIST_N }, (_, i) => Number((BigInt(i) * 2654435761n + 12345n) & 0xffffffffn));

export async function histograma(device) {
  const entrada = bufferFrom(device, histIn(), S(), 'entrada');
  const global = bufferOf(device, 1024, S(), 'global');
  const directo = bufferOf(device, 1024, S(), 'directo');
  const p = pipeline(device, HISTOGRAMA, 'main', 'histograma');
  submitPass(device, p, bindGroup(device, p, [entrada, global, directo]), (pass) => pass.dispatchWorkgroups(64));
  return { global: await readBack(device, global), directo: await readBack(device, directo) };
}
export function histogramaModel() {
  const h = new Uint32Array(256);
  for (const x of histIn()) h[x >>> 24]++;
  return { global: new Uint8Array(h.buffer.slice(0)), directo: new Uint8Array(h.buffer.slice(0)) };
}
