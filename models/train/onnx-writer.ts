/**
 * Just enough of the ONNX protobuf (onnx.proto, IR 8) to write the sparse linear graphs this
 * project trains: a hand-rolled wire-format encoder keeps the training stack dependency-free.
 * Field numbers are onnx.proto's; onnxruntime rejects anything malformed, and the training
 * run loads every graph it writes before it writes a card.
 */

type Bytes = Buffer;

class Proto {
  private readonly parts: Bytes[] = [];
  private static varint(n: number | bigint): Bytes {
    let v = BigInt(n);
    if (v < 0n) v = (1n << 64n) + v; // int64 two's complement, as protobuf encodes negatives
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    return Buffer.from(out);
  }
  private key(field: number, wire: number): void {
    this.parts.push(Proto.varint((field << 3) | wire));
  }
  int(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.parts.push(Proto.varint(value));
    return this;
  }
  bytes(field: number, value: Bytes): this {
    this.key(field, 2);
    this.parts.push(Proto.varint(value.length), value);
    return this;
  }
  str(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }
  msg(field: number, value: Proto): this {
    return this.bytes(field, value.done());
  }
  float(field: number, value: number): this {
    this.key(field, 5);
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.parts.push(b);
    return this;
  }
  done(): Bytes {
    return Buffer.concat(this.parts);
  }
}

export const DataType = { FLOAT: 1, INT64: 7 } as const;

export interface TensorInit {
  name: string;
  dims: number[];
  dataType: (typeof DataType)[keyof typeof DataType];
  data: Float32Array | BigInt64Array;
}

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attrs?: Record<string, number | number[]>;
}

export interface ValueSpec {
  name: string;
  elemType: (typeof DataType)[keyof typeof DataType];
  /** Numbers are fixed sizes, strings are symbolic (batch, tokens). */
  shape: Array<number | string>;
}

export interface GraphSpec {
  name: string;
  nodes: NodeSpec[];
  initializers: TensorInit[];
  inputs: ValueSpec[];
  outputs: ValueSpec[];
  opset: number;
  producer: string;
  docString?: string;
  metadata?: Record<string, string>;
}

function tensor(t: TensorInit): Proto {
  const p = new Proto();
  for (const d of t.dims) p.int(1, d);
  p.int(2, t.dataType);
  p.str(8, t.name);
  const raw = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  // raw_data is little-endian by spec; every platform Node ships on is little-endian too.
  p.bytes(9, raw);
  return p;
}

function attribute(name: string, value: number | number[]): Proto {
  const p = new Proto().str(1, name);
  if (Array.isArray(value)) {
    for (const v of value) p.int(8, v);
    p.int(20, 7); // INTS
  } else if (Number.isInteger(value)) {
    p.int(3, value);
    p.int(20, 2); // INT
  } else {
    p.float(2, value);
    p.int(20, 1); // FLOAT
  }
  return p;
}

function node(n: NodeSpec): Proto {
  const p = new Proto();
  for (const i of n.inputs) p.str(1, i);
  for (const o of n.outputs) p.str(2, o);
  if (n.name) p.str(3, n.name);
  p.str(4, n.op);
  for (const [k, v] of Object.entries(n.attrs ?? {})) p.msg(5, attribute(k, v));
  return p;
}

function valueInfo(v: ValueSpec): Proto {
  const shape = new Proto();
  for (const d of v.shape) shape.msg(1, typeof d === 'number' ? new Proto().int(1, d) : new Proto().str(2, d));
  const tensorType = new Proto().int(1, v.elemType).msg(2, shape);
  return new Proto().str(1, v.name).msg(2, new Proto().msg(1, tensorType));
}

/** Serialises a ModelProto. */
export function encodeModel(g: GraphSpec): Buffer {
  const graph = new Proto();
  for (const n of g.nodes) graph.msg(1, node(n));
  graph.str(2, g.name);
  for (const t of g.initializers) graph.msg(5, tensor(t));
  for (const i of g.inputs) graph.msg(11, valueInfo(i));
  for (const o of g.outputs) graph.msg(12, valueInfo(o));
  const model = new Proto().int(1, 8).str(2, g.producer).str(3, '1').int(5, 1);
  if (g.docString) model.str(6, g.docString);
  model.msg(7, graph);
  model.msg(8, new Proto().str(1, '').int(2, g.opset));
  for (const [k, v] of Object.entries(g.metadata ?? {})) model.msg(14, new Proto().str(1, k).str(2, v));
  return model.done();
}

/** Sparse linear layer graph: features [N,K] int64 → Gather rows of W [H,C] → sum → + b. */
export function sparseLinearNodes(weights: string, bias: string, input: string, out: string): { nodes: NodeSpec[]; inits: TensorInit[] } {
  return {
    nodes: [
      { op: 'Gather', inputs: [weights, input], outputs: ['gathered'], attrs: { axis: 0 } },
      { op: 'ReduceSum', inputs: ['gathered', 'sum_axes'], outputs: ['summed'], attrs: { keepdims: 0 } },
      { op: 'Add', inputs: ['summed', bias], outputs: [out] },
    ],
    inits: [{ name: 'sum_axes', dims: [1], dataType: DataType.INT64, data: BigInt64Array.from([1n]) }],
  };
}
