
  struct vec5 {x: i32, y: i32, z: i32, w: i32, u: i32};
  struct vec6 {x: i32, y: i32, z: i32, w: i32, u: i32, v: i32};

  // Checks whether coordinates lie within the bounds of the shape.
  fn coordsInBounds2D(coord : vec2<i32>, shape : vec2<i32>) -> bool {
    return all(coord >= vec2<i32>(0)) && all(coord < shape);
  }
  fn coordsInBounds3D(coord : vec3<i32>, shape : vec3<i32>) -> bool {
    return all(coord >= vec3<i32>(0)) && all(coord < shape);
  }
  fn coordsInBounds4D(coord : vec4<i32>, shape : vec4<i32>) -> bool {
    return all(coord >= vec4<i32>(0)) && all(coord < shape);
  }

  fn getIndexFromCoords1D(coord : i32, shape : i32) -> i32 {
    return coord;
  }
  fn getIndexFromCoords2D(coords : vec2<i32>, shape : vec2<i32>) -> i32 {
    return dot(coords, vec2<i32>(shape.y, 1));
  }
  fn getIndexFromCoords3D(coords : vec3<i32>, shape : vec3<i32>) -> i32 {
    return dot(coords, vec3<i32>(shape.y * shape.z, shape.z, 1));
  }
  fn getIndexFromCoords4D(coords : vec4<i32>, shape : vec4<i32>) -> i32 {
    return dot(coords, vec4<i32>(
        shape.y * shape.z * shape.w, shape.z * shape.w, shape.w, 1));
  }
  fn getIndexFromCoords5D(coords : vec5, shape : vec5) -> i32 {
    let shapeStrides: vec5 = vec5(shape.y * shape.z * shape.w * shape.u, shape.z * shape.w * shape.u, shape.w * shape.u, shape.u, 1);
    return coords.x*shapeStrides.x + coords.y*shapeStrides.y + coords.z*shapeStrides.z + coords.w*shapeStrides.w + coords.u*shapeStrides.u;
  }
  fn getIndexFromCoords6D(coords : vec6, shape : vec6) -> i32 {
    let shapeStrides: vec6 = vec6(shape.y * shape.z * shape.w * shape.u * shape.v, shape.z * shape.w * shape.u * shape.v, shape.w * shape.u * shape.v, shape.u * shape.v, shape.v, 1);
    return coords.x*shapeStrides.x + coords.y*shapeStrides.y + coords.z*shapeStrides.z + coords.w*shapeStrides.w + coords.u*shapeStrides.u + coords.v*shapeStrides.v;
  }

  // NaN defination in IEEE 754-1985 is :
  //   - sign = either 0 or 1.
  //   - biased exponent = all 1 bits.
  //   - fraction = anything except all 0 bits (since all 0 bits represents infinity).
  // https://en.wikipedia.org/wiki/IEEE_754-1985#Representation_of_non-numbers
  fn isnan(val: f32) -> bool {
    let floatToUint: u32 = bitcast<u32>(val);
    return (floatToUint & 0x7fffffffu) > 0x7f800000u;
  }
  fn isnanVec4(val : vec4<f32>) -> vec4<bool> {
    let floatToUint: vec4<u32> = bitcast<vec4<u32>>(val);
    return (floatToUint & vec4<u32>(0x7fffffffu)) > vec4<u32>(0x7f800000u);
  }



      var<private> localId: vec3<u32>;
      var<private> localIndex: u32;
      var<private> globalId: vec3<u32>;
      var<private> numWorkgroups: vec3<u32>;
      var<private> workgroupId: vec3<u32>;

      // Only used when the y/z dimension of workgroup size is 1.
      fn getGlobalIndex() -> i32 {
          return i32(globalId.x);
      }
    
struct Uniforms { NAN : f32, INFINITY : f32, xShape : vec2<i32>, xShapeStrides: i32, indicesShape : vec2<i32>, indicesShapeStrides: i32, outShape : vec2<i32>, 
         outShapeStrides: i32, size : i32, inputSize : i32, firstPass : i32, negativeInf : f32,
        dir : i32, inc : i32,};

      @group(0) @binding(0) var<storage, read_write> result: array<i32>;
    

      @group(0) @binding(1) var<storage, read> x: array<f32>;
        

      @group(0) @binding(2) var<storage, read> indices: array<i32>;
        

      @group(0) @binding(3) var<uniform> uniforms: Uniforms;
      
  fn isinf(val: f32) -> bool {
    return abs(val) == uniforms.INFINITY;
  }

    fn getCoordsFromIndex(index : i32) -> vec2<i32> {
      let d0 = index / uniforms.outShapeStrides; let d1 = index - d0 * uniforms.outShapeStrides;
      return vec2<i32>(d0, d1);
    }
fn getOutputCoords() -> vec2<i32>{
    let globalIndex = getGlobalIndex();
    return getCoordsFromIndex(globalIndex);
  }
  

        fn getOutputIndexFromCoords(coords : vec2<i32>) -> i32 {
          return dot(coords, vec2<i32>(uniforms.outShapeStrides, 1));
        }
        
fn setOutputAtIndex(flatIndex : i32, value : f32) {
      result[flatIndex] = i32(value);
    }

    fn setOutputAtIndexI32(flatIndex : i32, value : i32) {
      result[flatIndex] = i32(value);
    }
    
      fn setOutputAtCoords(d0 : i32, d1 : i32, value : f32) {
        let flatIndex = getOutputIndexFromCoords(vec2<i32>(d0, d1));
        setOutputAtIndex(flatIndex, value);
      }
      fn setOutputAtCoordsI32(d0 : i32, d1 : i32, value : i32) {
        let flatIndex = getOutputIndexFromCoords(vec2<i32>(d0, d1));
        setOutputAtIndexI32(flatIndex, value);
      }
    
    fn getXCoordsFromIndex(index : i32) -> vec2<i32> {
      let d0 = index / uniforms.xShapeStrides; let d1 = index - d0 * uniforms.xShapeStrides;
      return vec2<i32>(d0, d1);
    }
    fn getIndicesCoordsFromIndex(index : i32) -> vec2<i32> {
      let d0 = index / uniforms.indicesShapeStrides; let d1 = index - d0 * uniforms.indicesShapeStrides;
      return vec2<i32>(d0, d1);
    }

    fn getX(d0 : i32, d1 : i32) -> f32 {
      return f32(x[getIndexFromCoords2D(vec2<i32>(d0,d1),
        uniforms.xShape)]);
    }
   
  fn getXByOutputIndex(globalIndex : i32) -> f32 {
    var coords = getCoordsFromIndex(globalIndex);
    
    return f32(x[getIndexFromCoords2D(vec2<i32>(coords.x, coords.y), uniforms.xShape)]);
  }

  fn getXByOutputCoords(coordsIn : vec2<i32>) -> f32 {
    var coords = coordsIn;
    
    return f32(x[getIndexFromCoords2D(vec2<i32>(coords.x, coords.y), uniforms.xShape)]);
  }


    fn getIndices(d0 : i32, d1 : i32) -> f32 {
      return f32(indices[getIndexFromCoords2D(vec2<i32>(d0,d1),
        uniforms.indicesShape)]);
    }
   
    fn getIndicesByOutputIndex(globalIndex : i32) -> f32 {
      return f32(indices[globalIndex]);
    }

    fn getIndicesByOutputCoords(coords : vec2<i32>) -> f32 {
      return f32(indices[getOutputIndexFromCoords(coords)]);
    }
    

        
        fn main(index : i32)
       {
          if (index < uniforms.size) {
            let outC = getCoordsFromIndex(index);
            let batch = outC[0];
            let elemIdx = outC[1];
            // We compare elements pair-wise within a group of size 2 * inc.
            // The comparing rule for each group alternates between ascending
            // and descending. Within each group, we compare each pair at
            // positions i and i+inc. To decide whether an element at position i
            // is x0 or x1, we mod it by 2 * inc, if the result is smaller than
            // inc, it is in the first half of the group, we denote it as x0,
            // otherwise we denote it as x1.
            // For example, as shown in the Bitonic top K paper referenced
            // above, Figure5(a) shows that element[1] is in the second half of
            // the group when group size is 2, but it is in the first half of
            // the group when group size is 4.
            let isFirstInPair = elemIdx % (2 * uniforms.inc) < uniforms.inc;
            var i = 0;
            if (isFirstInPair) {
              i = elemIdx;
            } else {
              i = elemIdx - uniforms.inc;
            }

            var i0 = 0;
            if (uniforms.firstPass == 1) {
              i0 = i;
            } else {
              i0 = i32(getIndices(batch, i));
            }

            var i1 = 0;
            if (uniforms.firstPass == 1) {
              i1 = i + uniforms.inc;
            } else {
              i1 = i32(getIndices(batch, i + uniforms.inc));
            }

            var x0 = f32(0.0);
            var x1 = f32(0.0);
            if (i0 < uniforms.inputSize) {
              x0 = getX(batch, i0);
            } else {
              x0 = uniforms.negativeInf;
            }
            if (i1 < uniforms.inputSize) {
              x1 = getX(batch, i1);
            } else {
              x1 = uniforms.negativeInf;
            }

            let reverse = elemIdx % (2 * uniforms.dir) >= uniforms.dir;
            let isGreater = x0 > x1 || (x0 == x1 && i1 > i0);
            if (reverse == isGreater) {
              // Elements in opposite order of direction
              let iTemp = i0;
              i0 = i1;
              i1 = iTemp;
            }
            if (isFirstInPair) {
              setOutputAtIndex(index, f32(i0));
            } else {
              setOutputAtIndex(index, f32(i1));
            }
          }
        }
      

     
  @compute @workgroup_size(256, 1, 1)

      fn _start(@builtin(local_invocation_id) LocalId : vec3<u32>,
                @builtin(global_invocation_id) GlobalId : vec3<u32>,
                @builtin(local_invocation_index) LocalIndex: u32,
                @builtin(workgroup_id) WorkgroupId : vec3<u32>,
                @builtin(num_workgroups) NumWorkgroups : vec3<u32>) {
        localId = LocalId;
        localIndex = LocalIndex;
        globalId = GlobalId;
        numWorkgroups = NumWorkgroups;
        workgroupId = WorkgroupId;
        main(getGlobalIndex());;
      }
    