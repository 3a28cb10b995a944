// onnx.mjs — writes small ONNX models (the protobuf wire format of onnx.proto,
// the few messages and fields a graph of standard operators needs), so the
// onnxruntime-web captures need no model files and no Python.
//   model({ opset, nodes: [{ op, inputs, outputs, attrs }], inputs: [[name, dims]],
//           outputs: [[name, dims, elem?]], initializers: [[name, dims, Float32Array | BigInt64Array]] })

function varint(n) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const key = (field, wire) => varint((field << 3) | wire);
const bytes = (field, b) => [...key(field, 2), ...varint(b.length), ...b];
const text = (field, s) => bytes(field, [...Buffer.from(s)]);
const int = (field, n) => [...key(field, 0), ...varint(n)];
const f32 = (field, x) => { const b = Buffer.alloc(4); b.writeFloatLE(x); return [...key(field, 5), ...b]; };

const ELEM = { float32: 1, int32: 6, int64: 7 };
const ATTR = { FLOAT: 1, INT: 2, INTS: 7 };

function valueInfo(name, dims, elem = 'float32') {
  const shape = dims.flatMap((d) => bytes(1, int(1, d)));               // TensorShapeProto.dim.dim_value
  const tensorType = [...int(1, ELEM[elem]), ...bytes(2, shape)];      // TypeProto.Tensor
  return [...text(1, name), ...bytes(2, bytes(1, tensorType))];         // ValueInfoProto
}

function tensor(name, dims, data) {
  const elem = data instanceof BigInt64Array ? 'int64' : data instanceof Int32Array ? 'int32' : 'float32';
  return [...dims.flatMap((d) => int(1, d)), ...int(2, ELEM[elem]), ...text(8, name),
    ...bytes(9, [...new Uint8Array(data.buffer, data.byteOffset, data.byteLength)])];
}

function attribute(name, v) {
  if (Array.isArray(v)) return [...text(1, name), ...v.flatMap((x) => int(8, x)), ...int(20, ATTR.INTS)];
  if (Number.isInteger(v)) return [...text(1, name), ...int(3, v), ...int(20, ATTR.INT)];
  return [...text(1, name), ...f32(2, v), ...int(20, ATTR.FLOAT)];
}

export function model({ opset = 17, nodes, inputs, outputs, initializers = [] }) {
  const graph = [
    ...nodes.flatMap((n, i) => bytes(1, [...n.inputs.flatMap((x) => text(1, x)), ...n.outputs.flatMap((x) => text(2, x)),
      ...text(3, `n${i}`), ...text(4, n.op), ...Object.entries(n.attrs ?? {}).flatMap(([k, v]) => bytes(5, attribute(k, v)))])),
    ...text(2, 'graph'),
    ...initializers.flatMap(([name, dims, data]) => bytes(5, tensor(name, dims, data))),
    ...inputs.flatMap(([name, dims, elem]) => bytes(11, valueInfo(name, dims, elem))),
    ...outputs.flatMap(([name, dims, elem]) => bytes(12, valueInfo(name, dims, elem))),
  ];
  return new Uint8Array([...int(1, 8), ...bytes(8, int(2, opset)), ...bytes(7, graph)]);
}
