'use strict';
// texture.js - GPUTexture (with its attributes and createView),
// GPUTextureView, GPUSampler and GPUExternalTexture. In Node.js there are no
// video frames: importExternalTexture takes a GPUTextureView (or a
// GPUTexture, for its default view) as `source`, as lockstep's C API does.

const { native } = require('./native.js');
const { convert } = require('./idl.js');
const { kToken, kHandle, kDevice, InvalidUse, illegal, init, name, defineLabel, register, use } = require('./base.js');
const { attempt, live, kRaise } = require('./device.js');
const { extent, checkSequences } = require('./queue.js');

class GPUTexture {
  #d;
  #size;
  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    this.#d = d;
    this.#size = extent(d.size);
    if (!live(device, 'createTexture')) return;
    attempt(device, 'GPUDevice.createTexture', () => {
      checkSequences(device, 'GPUDevice.createTexture: size', d.size);
      // the addon takes 0 as "the default", which WebIDL has already filled
      // in: a 0 here is the program's, and the spec refuses it
      if (d.mipLevelCount === 0)
        throw new InvalidUse(`${name(this)}: mipLevelCount is 0; a texture has at least one mip level`);
      if (d.sampleCount !== 1 && d.sampleCount !== 4)
        throw new InvalidUse(`${name(this)}: sampleCount is ${d.sampleCount}; it must be 1 or 4`);
      this[kHandle] = native.textureCreate(this, device, { ...d, size: this.#size });
    });
  }
  get width() { return this.#size[0]; }
  get height() { return this.#size[1]; }
  get depthOrArrayLayers() { return this.#size[2]; }
  get mipLevelCount() { return this.#d.mipLevelCount; }
  get sampleCount() { return this.#d.sampleCount; }
  get dimension() { return this.#d.dimension; }
  get format() { return this.#d.format; }
  get usage() { return this.#d.usage; }
  get textureBindingViewDimension() { return this.#d.textureBindingViewDimension; }

  createView(descriptor = {}) {
    const d = convert('GPUTextureViewDescriptor', descriptor, `${name(this)}.createView: descriptor`);
    return new GPUTextureView(kToken, this, d);
  }

  destroy() {
    if (this[kHandle]) native.textureDestroy(this);
  }
}
defineLabel(GPUTexture);

class GPUTextureView {
  constructor(token, texture, d) {
    illegal(token);
    const device = texture[kDevice];
    init(this, device, d.label);
    if (!live(device, 'createView')) return;
    attempt(device, `${name(texture)}.createView`, () => {
      use(texture, 'texture');
      for (const k of ['mipLevelCount', 'arrayLayerCount'])
        if (d[k] === 0) throw new InvalidUse(`${name(this)}: ${k} is 0; a view has at least one`);
      if (d.swizzle !== 'rgba')
        throw new InvalidUse(`swizzle "${d.swizzle}" needs the "texture-component-swizzle" feature, which lockstep lacks`);
      this[kHandle] = native.textureCreateView(this, texture, d);
    });
  }
}
defineLabel(GPUTextureView);

class GPUSampler {
  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    if (live(device, 'createSampler')) this[kHandle] = native.samplerCreate(this, device, d);
  }
}
defineLabel(GPUSampler);

class GPUExternalTexture {
  constructor(token, device, d) {
    illegal(token);
    init(this, device, d.label);
    if (!live(device, 'importExternalTexture')) return;
    attempt(device, 'GPUDevice.importExternalTexture', () => {
      let view = d.source;
      if (view instanceof GPUTexture) view = view.createView();
      if (!(view instanceof GPUTextureView))
        throw new TypeError('GPUDevice.importExternalTexture: source: Node.js has no video frames; lockstep imports a GPUTextureView or GPUTexture');
      use(view, 'source');
      this[kHandle] = native.importExternalTexture(this, device, view, d.label);
    });
  }
}
defineLabel(GPUExternalTexture);

register(GPUTexture, GPUTextureView, GPUSampler, GPUExternalTexture);

module.exports = { GPUTexture, GPUTextureView, GPUSampler, GPUExternalTexture };
