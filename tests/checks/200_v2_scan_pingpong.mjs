// Closed forms for cases/200_v2_scan_pingpong.json (wgsl-compute-case/2).
// a starts as 1, 2, ..., 256. Each Hillis-Steele step with offset d adds
// the element d places back, so after the steps d = 1, 2, 4, 8 element i is
// the sum of the 16 values ending at it, and after all eight steps
// (d up to 128, 256 elements) the inclusive prefix sum
// P(i) = 1 + ... + (i + 1) = (i + 1)(i + 2) / 2.
// mix reads a twice: c[i] = P(i) + 2 P(255 - i).
// Then, in one command buffer, copy a[0..16) to c[128..144) and clear
// c[0..16), with queue.writeBuffer(a, 0, [7, 7, 7, 7]) issued after those
// two are encoded but before they are submitted: WebGPU runs the write
// first, so the copy carries the 7s.
export default function () {
  const n = 256;
  const P = (i) => ((i + 1) * (i + 2)) / 2;
  const after4 = [], scan = [], mixed = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = Math.max(0, i - 15); j <= i; j++) s += j + 1;
    after4.push(s);
    scan.push(P(i));
    mixed.push(P(i) + 2 * P(n - 1 - i));
  }
  const aNow = scan.slice();
  for (let i = 0; i < 4; i++) aNow[i] = 7;
  const copied = mixed.slice();
  for (let i = 0; i < 16; i++) copied[128 + i] = aNow[i];
  for (let i = 0; i < 16; i++) copied[i] = 0;
  return { after4, scan, mixed, copied, a_written: aNow.slice(0, 8) };
}
