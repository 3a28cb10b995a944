'use strict';
// textures.js — what the recorder and the replayer need to know of
// textures: the texel size of each color format (the case format stores
// texels tightly packed, rows without padding, as version 1 does), a
// texture descriptor's size as [w, h, d], the extent of a mip level, and
// repacking between WebGPU's row-pitched layouts (bytesPerRow a multiple of
// 256 in buffer copies) and tight rows. Depth and stencil formats are not
// recorded (their copies are restricted by aspect); compressed formats are
// not in the table either.

const TEXEL_BYTES = {};
for (const [bytes, names] of [
  [1, 'r8unorm r8snorm r8uint r8sint'],
  [2, 'rg8unorm rg8snorm rg8uint rg8sint r16unorm r16snorm r16uint r16sint r16float'],
  [4, 'rgba8unorm rgba8unorm-srgb rgba8snorm rgba8uint rgba8sint bgra8unorm bgra8unorm-srgb rg16unorm rg16snorm ' +
      'rg16uint rg16sint rg16float r32float r32uint r32sint rgb10a2uint rgb10a2unorm rg11b10ufloat rgb9e5ufloat'],
  [8, 'rgba16unorm rgba16snorm rgba16uint rgba16sint rgba16float rg32float rg32uint rg32sint'],
  [16, 'rgba32float rgba32uint rgba32sint'],
]) for (const n of names.split(' ')) TEXEL_BYTES[n] = bytes;

// GPUTextureUsage bits by the case format's names.
const TEXTURE_USAGE = [['copy-src', 0x1], ['copy-dst', 0x2], ['texture-binding', 0x4], ['storage-binding', 0x8], ['render-attachment', 0x10]];

function textureUsageNames(bits) {
  return TEXTURE_USAGE.filter(([, b]) => bits & b).map(([n]) => n);
}

// A GPUExtent3D (a list or a dictionary) as [w, h, d].
function extent(v) {
  if (typeof v?.[Symbol.iterator] === 'function') {
    const a = [...v].map(Number);
    return [a[0], a[1] ?? 1, a[2] ?? 1];
  }
  return [Number(v.width), Number(v.height ?? 1), Number(v.depthOrArrayLayers ?? 1)];
}

// A GPUOrigin3D (absent, a list or a dictionary) as [x, y, z].
function origin(v) {
  if (v === undefined || v === null) return [0, 0, 0];
  if (typeof v[Symbol.iterator] === 'function') {
    const a = [...v].map(Number);
    return [a[0] ?? 0, a[1] ?? 0, a[2] ?? 0];
  }
  return [Number(v.x ?? 0), Number(v.y ?? 0), Number(v.z ?? 0)];
}

// The size of mip level `level` of a texture of `size` ([w, h, d]); only a
// 3D texture's depth halves.
function levelSize(size, dimension, level) {
  const [w, h, d] = size;
  const half = (x) => Math.max(1, x >> level);
  return [half(w), dimension === '1d' ? 1 : half(h), dimension === '3d' ? half(d) : d];
}

// Rows of `rows` rows of rowBytes each, `images` images, from a layout with
// bytesPerRow / rowsPerImage pitches to tight rows.
function tighten(src, offset, rowBytes, rows, images, bytesPerRow, rowsPerImage) {
  const out = new Uint8Array(rowBytes * rows * images);
  for (let z = 0; z < images; z++) {
    for (let y = 0; y < rows; y++) {
      const at = offset + (z * rowsPerImage + y) * bytesPerRow;
      out.set(src.subarray(at, at + rowBytes), (z * rows + y) * rowBytes);
    }
  }
  return out;
}

const align = (x, a) => Math.ceil(x / a) * a;

module.exports = { TEXEL_BYTES, TEXTURE_USAGE, textureUsageNames, extent, origin, levelSize, tighten, align };
