// chromium_internal_input_attachments (Dawn docs/tint/extensions/
// chromium_internal_input_attachments.md): input_attachment<T> handles with
// @input_attachment_index, read by inputAttachmentLoad in fragment shaders.
enable chromium_internal_input_attachments;
@group(0) @binding(0) @input_attachment_index(0) var ia: input_attachment<f32>;
@group(0) @binding(1) @input_attachment_index(1) var ib: input_attachment<u32>;
@fragment fn f() -> @location(0) vec4f {
  return inputAttachmentLoad(ia) + vec4f(inputAttachmentLoad(ib));
}
