// expect: 4:27 needs @input_attachment_index
// chromium_internal_input_attachments: input_attachment<T> requires @input_attachment_index.
enable chromium_internal_input_attachments;
@group(0) @binding(0) var ia: input_attachment<f32>;
@fragment fn f() -> @location(0) vec4f { return inputAttachmentLoad(ia); }
