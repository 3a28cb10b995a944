// expect: 6:7 'inputAttachmentLoad' is only allowed in fragment shaders
// chromium_internal_input_attachments: only available in fragment shaders.
enable chromium_internal_input_attachments;
@group(0) @binding(0) @input_attachment_index(0) var ia: input_attachment<f32>;
@compute @workgroup_size(1) fn main() {
  _ = inputAttachmentLoad(ia);
}
