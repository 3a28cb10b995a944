

      struct Uniforms { output_size:u32, a_shape:vec2<u32>, a_strides:vec2<u32>, output_shape:vec2<u32>, output_strides:vec2<u32> };
      @group(0) @binding(2) var<uniform> uniforms: Uniforms;
  fn i2o_a(indices: vec2<u32>) -> u32 {
    return uniforms.a_strides[1] * (indices[1])+uniforms.a_strides[0] * (indices[0]);
  }

  fn get_aByIndices(indices: vec2<u32>) -> f32 {
    return a[i2o_a(indices)];
  }

  fn i2o_output(indices: vec2<u32>) -> u32 {
    return uniforms.output_strides[1] * (indices[1])+uniforms.output_strides[0] * (indices[0]);
  }

  fn set_outputByIndices(indices: vec2<u32>, value: f32) {
    output[i2o_output(indices)]=value;
  }

  @group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
  var<workgroup> tile : array<array<f32, 17>, 16>;
  @compute @workgroup_size(16, 16, 1)
  fn main(@builtin(global_invocation_id) global_id : vec3<u32>,
                                             @builtin(local_invocation_id) local_id : vec3<u32>,
    @builtin(local_invocation_index) local_idx : u32,
    @builtin(workgroup_id) workgroup_id : vec3<u32>,
    @builtin(num_workgroups) num_workgroups : vec3<u32>) {
    let workgroup_index = workgroup_id.z * num_workgroups[0] * num_workgroups[1] +
             workgroup_id.y * num_workgroups[0] + workgroup_id.x;
         let global_idx = workgroup_index * 256u + local_idx;
  
    let stride = (uniforms.output_shape[1] - 1) / 16 + 1;
    let workgroup_id_x = workgroup_index % stride;
    let workgroup_id_y = workgroup_index / stride;
    let input_col = workgroup_id_y * 16u + local_id.x;
    let input_row = workgroup_id_x * 16u + local_id.y;
    if (input_row < uniforms.a_shape[0] && input_col < uniforms.a_shape[1]) {
      tile[local_id.y][local_id.x] = get_aByIndices(vec2<u32>(input_row, input_col));
    }
    workgroupBarrier();

    let output_col = workgroup_id_x * 16u + local_id.x;
    let output_row = workgroup_id_y * 16u + local_id.y;
    if (output_row < uniforms.output_shape[0] && output_col < uniforms.output_shape[1]) {
      set_outputByIndices(vec2<u32>(output_row, output_col), tile[local_id.x][local_id.y]);
    }
  }