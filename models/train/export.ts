/** Writes the trained linear models as ONNX graphs (opset 13) for onnxruntime-node. */
import { DataType, encodeModel, sparseLinearNodes, type NodeSpec, type TensorInit } from './onnx-writer';
import type { Head, LinearModel } from './softmax';

const f32 = (a: Float64Array) => Float32Array.from(a);
const i64 = (n: number) => BigInt64Array.from([BigInt(n)]);

export interface HeadExport extends Head {
  output: string;
  temperature: number;
}

/** features [batch,k] → logits [batch,C] → one softmax per head (sliced, divided by its temperature). */
export function intentGraph(m: LinearModel, heads: HeadExport[], doc: string): Buffer {
  const { nodes, inits } = sparseLinearNodes('W', 'b', 'features', 'logits');
  const all: NodeSpec[] = [...nodes];
  const tensors: TensorInit[] = [
    ...inits,
    { name: 'W', dims: [m.buckets, m.classes], dataType: DataType.FLOAT, data: f32(m.W) },
    { name: 'b', dims: [m.classes], dataType: DataType.FLOAT, data: f32(m.b) },
    { name: 'axis1', dims: [1], dataType: DataType.INT64, data: i64(1) },
  ];
  for (const h of heads) {
    tensors.push(
      { name: `${h.name}_start`, dims: [1], dataType: DataType.INT64, data: i64(h.offset) },
      { name: `${h.name}_end`, dims: [1], dataType: DataType.INT64, data: i64(h.offset + h.size) },
      { name: `${h.name}_temperature`, dims: [], dataType: DataType.FLOAT, data: Float32Array.from([h.temperature]) },
    );
    all.push(
      { op: 'Slice', inputs: ['logits', `${h.name}_start`, `${h.name}_end`, 'axis1'], outputs: [`${h.name}_logits`] },
      { op: 'Div', inputs: [`${h.name}_logits`, `${h.name}_temperature`], outputs: [`${h.name}_scaled`] },
      { op: 'Softmax', inputs: [`${h.name}_scaled`], outputs: [h.output], attrs: { axis: -1 } },
    );
  }
  return encodeModel({
    name: 'mailroom_intent',
    opset: 13,
    producer: 'mailroom-train',
    docString: doc,
    nodes: all,
    initializers: tensors,
    inputs: [{ name: 'features', elemType: DataType.INT64, shape: ['batch', 'k'] }],
    outputs: [
      { name: 'logits', elemType: DataType.FLOAT, shape: ['batch', m.classes] },
      ...heads.map((h) => ({ name: h.output, elemType: DataType.FLOAT, shape: ['batch', h.size] })),
    ],
  });
}

/** features [tokens,k] → per-token log-probabilities over BIO labels. */
export function nerGraph(m: LinearModel, doc: string): Buffer {
  const { nodes, inits } = sparseLinearNodes('W', 'b', 'features', 'logits');
  return encodeModel({
    name: 'mailroom_ner',
    opset: 13,
    producer: 'mailroom-train',
    docString: doc,
    nodes: [...nodes, { op: 'LogSoftmax', inputs: ['logits'], outputs: ['log_probs'], attrs: { axis: -1 } }],
    initializers: [
      ...inits,
      { name: 'W', dims: [m.buckets, m.classes], dataType: DataType.FLOAT, data: f32(m.W) },
      { name: 'b', dims: [m.classes], dataType: DataType.FLOAT, data: f32(m.b) },
    ],
    inputs: [{ name: 'features', elemType: DataType.INT64, shape: ['tokens', 'k'] }],
    outputs: [{ name: 'log_probs', elemType: DataType.FLOAT, shape: ['tokens', m.classes] }],
  });
}
