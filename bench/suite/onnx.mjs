// A tiny protobuf writer for the few ONNX messages a one-node MatMul model needs, so the
// ONNX Runtime Web benchmark builds its model in memory (no model files, no downloads).
// Field numbers from onnx/onnx.proto3: ModelProto{ir_version=1, producer_name=2, graph=7,
// opset_import=8}, OperatorSetIdProto{domain=1, version=2}, GraphProto{node=1, name=2,
// initializer=5, input=11, output=12}, NodeProto{input=1, output=2, name=3, op_type=4},
// ValueInfoProto{name=1, type=2}, TypeProto{tensor_type=1}, TypeProto.Tensor{elem_type=1,
// shape=2}, TensorShapeProto{dim=1}, Dimension{dim_value=1}, TensorProto{dims=1,
// data_type=2, name=8, raw_data=9}.

const FLOAT = 1;  // TensorProto.DataType.FLOAT

function varint(value) {
  const out = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

/** A message: its encoded fields (byte arrays or Uint8Arrays) concatenated. */
function message(...fields) {
  const total = fields.reduce((n, f) => n + f.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const f of fields) {
    bytes.set(f, at);
    at += f.length;
  }
  return bytes;
}

const intField = (field, value) => [...varint((field << 3) | 0), ...varint(value)];
function bytesField(field, bytes) {
  const b = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return message(varint((field << 3) | 2), varint(b.length), b);  // no spread: b may be megabytes
}

function tensorType(dims) {
  const shape = message(...dims.map((d) => bytesField(1, message(intField(1, d)))));
  return message(bytesField(1, message(intField(1, FLOAT), bytesField(2, shape))));
}

const valueInfo = (name, dims) => message(bytesField(1, name), bytesField(2, tensorType(dims)));

function initializer(name, dims, data) {
  const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return message(...dims.map((d) => intField(1, d)), intField(2, FLOAT), bytesField(8, name), bytesField(9, raw));
}

/**
 * The bytes of an ONNX model computing Y (m×n) = A (m×k) · B (k×n) with one MatMul node.
 * With `weights` (a Float32Array of k·n) B is a constant initializer, as a layer's weights
 * are; else B is a second input.
 */
export function matmulModel(m, k, n, weights) {
  const node = message(bytesField(1, 'A'), bytesField(1, 'B'), bytesField(2, 'Y'), bytesField(3, 'matmul'),
    bytesField(4, 'MatMul'));
  const inputs = [bytesField(11, valueInfo('A', [m, k]))];
  const extra = [];
  if (weights) extra.push(bytesField(5, initializer('B', [k, n], weights)));
  else inputs.push(bytesField(11, valueInfo('B', [k, n])));
  const graph = message(bytesField(1, node), bytesField(2, 'gatelab_bench'), ...extra, ...inputs,
    bytesField(12, valueInfo('Y', [m, n])));
  return message(intField(1, 8), bytesField(2, 'gatelab-bench'), bytesField(7, graph),
    bytesField(8, message(bytesField(1, ''), intField(2, 13))));
}
