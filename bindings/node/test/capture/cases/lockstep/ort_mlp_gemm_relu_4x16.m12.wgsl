

      struct Uniforms { packedCols:i32 };
      @group(0) @binding(2) var<uniform> uniforms: Uniforms;


      var<workgroup> rowMaxShared : vec4<f32>;
      var<workgroup> rowSumShared : vec4<f32>;
      var<workgroup> threadShared : array<vec4<f32>, 64>;

      fn getValue(row: i32, col: i32, row_stride: i32) -> vec4<f32> {
        let index = row * row_stride + col;
        return x[index];
      }

      fn setValue(row: i32, col: i32, row_stride: i32, value: vec4<f32>) {
        let index = row * row_stride + col;
        result[index] = value;
      }
      @group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> result: array<vec4<f32>>;
      @compute @workgroup_size(64, 1, 1)
  fn main(@builtin(global_invocation_id) global_id : vec3<u32>,
    @builtin(workgroup_id) workgroup_id : vec3<u32>,
    @builtin(local_invocation_index) local_idx : u32,
    @builtin(local_invocation_id) local_id : vec3<u32>) {
    let global_idx = global_id.x;
         let workgroup_index = workgroup_id.x;
  
        let gindex = i32(global_idx);
        let lindex = i32(local_idx);
        const wg = 64;
        let row = gindex / wg;
        let cols = uniforms.packedCols;
        let row_stride : i32 = uniforms.packedCols;

        // find the rows max
        var threadMax = vec4<f32>(-3.402823e+38f);
        for (var col = lindex; col < cols; col += wg) {
          let value = getValue(row, col, row_stride);
          threadMax = max(threadMax, value);
        }
        if (lindex < cols) {
          threadShared[lindex] = threadMax;
        }
        workgroupBarrier();

        var reduceSize = min(cols, wg);
        for (var currSize = reduceSize >> 1;  currSize > 0; currSize = reduceSize >> 1) {
          reduceSize = currSize + (reduceSize & 1);
          if (lindex < currSize) {
            threadShared[lindex] = max(threadShared[lindex], threadShared[lindex + reduceSize]);
          }
          workgroupBarrier();
        }
        if (lindex == 0) {
          rowMaxShared = vec4<f32>(max(max(threadShared[0].x, threadShared[0].y), max(threadShared[0].z, threadShared[0].w)));
        }
        workgroupBarrier();

        // find the rows sum
        var threadSum = vec4<f32>(0.0);
        for (var col = lindex; col < cols; col += wg) {
          let subExp = exp(getValue(row, col, row_stride) - rowMaxShared);
          threadSum += subExp;
        }
        threadShared[lindex] = threadSum;
        workgroupBarrier();

        for (var currSize = wg >> 1;  currSize > 0; currSize = currSize >> 1) {
          if (lindex < currSize) {
            threadShared[lindex] = threadShared[lindex] + threadShared[lindex + currSize];
          }
          workgroupBarrier();
        }
        if (lindex == 0) {
          rowSumShared = vec4<f32>((threadShared[0].x + threadShared[0].y + threadShared[0].z + threadShared[0].w));
        }
        workgroupBarrier();

        // calculate final value for each element in the row
        for (var col = lindex; col < cols; col += wg) {
          let value = exp(getValue(row, col, row_stride) - rowMaxShared) / rowSumShared;
          setValue(row, col, row_stride, value);
        }
      }