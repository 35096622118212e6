/**
 * The subset of onnx.proto needed to write models, declared with protobufjs reflection. Field
 * numbers follow onnx/onnx.proto exactly (proto2; repeated scalars are written packed, which
 * every protobuf parser accepts).
 */
import * as protobuf from 'protobufjs';

export const TensorDataType = { FLOAT: 1, INT32: 6, INT64: 7, STRING: 8, DOUBLE: 11 } as const;

export const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8 } as const;

const ONNX_JSON = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            refAttrName: { type: 'string', id: 21 },
            docString: { type: 'string', id: 13 },
            type: { type: 'int32', id: 20 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            g: { type: 'GraphProto', id: 6 },
            floats: { rule: 'repeated', type: 'float', id: 7 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            strings: { rule: 'repeated', type: 'bytes', id: 9 },
            tensors: { rule: 'repeated', type: 'TensorProto', id: 10 },
            graphs: { rule: 'repeated', type: 'GraphProto', id: 11 },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
            docString: { type: 'string', id: 3 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            domain: { type: 'string', id: 7 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            docString: { type: 'string', id: 6 },
          },
        },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            modelVersion: { type: 'int64', id: 5 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            docString: { type: 'string', id: 10 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
            valueInfo: { rule: 'repeated', type: 'ValueInfoProto', id: 13 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            floatData: { rule: 'repeated', type: 'float', id: 4, options: { packed: true } },
            int32Data: { rule: 'repeated', type: 'int32', id: 5, options: { packed: true } },
            stringData: { rule: 'repeated', type: 'bytes', id: 6 },
            int64Data: { rule: 'repeated', type: 'int64', id: 7, options: { packed: true } },
            name: { type: 'string', id: 8 },
            docString: { type: 'string', id: 12 },
            rawData: { type: 'bytes', id: 9 },
            doubleData: { rule: 'repeated', type: 'double', id: 10, options: { packed: true } },
          },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
              fields: {
                dimValue: { type: 'int64', id: 1 },
                dimParam: { type: 'string', id: 2 },
                denotation: { type: 'string', id: 3 },
              },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensorType'] } },
          fields: {
            tensorType: { type: 'Tensor', id: 1 },
            denotation: { type: 'string', id: 6 },
          },
          nested: {
            Tensor: {
              fields: {
                elemType: { type: 'int32', id: 1 },
                shape: { type: 'TensorShapeProto', id: 2 },
              },
            },
          },
        },
        OperatorSetIdProto: {
          fields: {
            domain: { type: 'string', id: 1 },
            version: { type: 'int64', id: 2 },
          },
        },
      },
    },
  },
};

let root: protobuf.Root | null = null;

/** The protobufjs type for an ONNX message name (e.g. 'ModelProto'). */
export function onnxType(name: string): protobuf.Type {
  root ??= protobuf.Root.fromJSON(ONNX_JSON);
  return root.lookupType(`onnx.${name}`);
}

export interface TensorMsg {
  name?: string;
  dims: number[];
  dataType: number;
  floatData?: number[];
  int64Data?: number[];
  stringData?: Uint8Array[];
}

export interface AttributeMsg {
  name: string;
  type: number;
  f?: number;
  i?: number;
  s?: Uint8Array;
  t?: TensorMsg;
  floats?: number[];
  ints?: number[];
  strings?: Uint8Array[];
}

export interface NodeMsg {
  input: string[];
  output: string[];
  name: string;
  opType: string;
  domain?: string;
  attribute: AttributeMsg[];
}

export interface ValueInfoMsg {
  name: string;
  type: { tensorType: { elemType: number; shape: { dim: ({ dimValue: number } | { dimParam: string })[] } } };
}

export interface ModelMsg {
  irVersion: number;
  opsetImport: { domain: string; version: number }[];
  producerName: string;
  producerVersion: string;
  docString?: string;
  graph: {
    name: string;
    node: NodeMsg[];
    initializer: TensorMsg[];
    input: ValueInfoMsg[];
    output: ValueInfoMsg[];
  };
}

/** A ModelProto around a graph, as every exporter writes it (ai.onnx 17, ai.onnx.ml 3 unless told otherwise). */
export function modelMessage(graph: ModelMsg['graph'], docString: string, opsets: { onnx?: number; ml?: number } = {}): ModelMsg {
  return {
    irVersion: 8,
    opsetImport: [
      { domain: '', version: opsets.onnx ?? 17 },
      { domain: 'ai.onnx.ml', version: opsets.ml ?? 3 },
    ],
    producerName: 'engine/automl',
    producerVersion: '1',
    docString,
    graph,
  };
}

/** Serializes a ModelProto. */
export function encodeModel(model: ModelMsg): Uint8Array {
  const T = onnxType('ModelProto');
  const msg = T.fromObject(model as unknown as Record<string, unknown>);
  return T.encode(msg).finish();
}

/** Parses a ModelProto (used by tests to inspect what was written). */
export function decodeModel(bytes: Uint8Array): ModelMsg {
  const T = onnxType('ModelProto');
  return T.toObject(T.decode(bytes), { longs: Number, bytes: Array, defaults: false }) as unknown as ModelMsg;
}
