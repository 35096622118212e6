/**
 * ONNX building blocks for models over a design matrix (GLM, DeepLearning): the graph inputs
 * (same names and types as the tree exporter, so serving feeds every model alike), the
 * preprocessing that reproduces `encodeMatrix` and the output head that mirrors the tree
 * exporter's outputs ('margin'; 'label' + 'probabilities' for classifiers, 'variable' for
 * regressors).
 */
import { onnxInputName } from '../onnx/export';
import { AttributeMsg, AttributeType, NodeMsg, TensorDataType, TensorMsg, ValueInfoMsg, encodeModel, modelMessage } from '../onnx/proto';
import type { ProblemKind } from '../frame';
import type { DesignJSON } from './design';

const enc = new TextEncoder();

export const attr = {
  int: (name: string, i: number): AttributeMsg => ({ name, type: AttributeType.INT, i }),
  ints: (name: string, ints: number[]): AttributeMsg => ({ name, type: AttributeType.INTS, ints }),
  float: (name: string, f: number): AttributeMsg => ({ name, type: AttributeType.FLOAT, f }),
  strings: (name: string, v: string[]): AttributeMsg => ({ name, type: AttributeType.STRINGS, strings: v.map((s) => enc.encode(s)) }),
};

export function valueInfo(name: string, elemType: number, dims: (number | string)[]): ValueInfoMsg {
  return { name, type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } } };
}

export function floatTensor(name: string, dims: number[], data: ArrayLike<number>): TensorMsg {
  return { name, dims, dataType: TensorDataType.FLOAT, floatData: Array.from(data, (v) => Math.fround(v)) };
}

/** Accumulates nodes, initializers and inputs of one graph. */
export class GraphBuilder {
  readonly nodes: NodeMsg[] = [];
  readonly inits: TensorMsg[] = [];
  readonly inputs: ValueInfoMsg[] = [];
  readonly outputs: ValueInfoMsg[] = [];
  private counter = 0;

  fresh(base: string): string {
    return `__${base}_${this.counter++}`;
  }

  node(opType: string, input: string[], output: string[] | string, attribute: AttributeMsg[] = [], domain?: string): string {
    const outs = Array.isArray(output) ? output : [output];
    this.nodes.push({ input, output: outs, name: this.fresh(opType), opType, attribute, ...(domain ? { domain } : {}) });
    return outs[0];
  }

  constant(base: string, dims: number[], data: ArrayLike<number>): string {
    const name = this.fresh(base);
    this.inits.push(floatTensor(name, dims, data));
    return name;
  }

  /** A whole model around the graph (ai.onnx 17, ai.onnx.ml 3, as the tree exporter). */
  encode(graphName: string, doc: string): Uint8Array {
    return encodeModel(modelMessage({ name: graphName, node: this.nodes, initializer: this.inits, input: this.inputs, output: this.outputs }, doc));
  }
}

/**
 * Adds one input per feature and the nodes computing the [N, width] float design matrix: numeric
 * inputs get NaN replaced by the mean (Where/IsNaN), then (x - mean) / scale; categorical strings
 * become codes (LabelEncoder, unknown -1) compared against the kept codes (Equal, Cast) for the
 * one-hot block. Returns the design tensor name.
 */
export function addDesignInputs(g: GraphBuilder, design: DesignJSON): string {
  const parts: string[] = [];
  design.encodings.forEach((e, j) => {
    const f = design.features[j];
    const input = onnxInputName(f.name);
    if (e.kind === 'numeric') {
      g.inputs.push(valueInfo(input, TensorDataType.FLOAT, ['N', 1]));
      const mean = g.constant('mean', [], [e.mean]);
      const scale = g.constant('scale', [], [e.scale]);
      const nan = g.node('IsNaN', [input], g.fresh('isnan'));
      const filled = g.node('Where', [nan, mean, input], g.fresh('filled'));
      const centred = g.node('Sub', [filled, mean], g.fresh('centred'));
      parts.push(g.node('Div', [centred, scale], g.fresh('scaled')));
      return;
    }
    g.inputs.push(valueInfo(input, TensorDataType.STRING, ['N', 1]));
    if (!e.codes.length) return;
    const code = g.node(
      'LabelEncoder',
      [input],
      g.fresh('code'),
      [attr.strings('keys_strings', f.levels), { name: 'values_floats', type: AttributeType.FLOATS, floats: f.levels.map((_, k) => k) }, attr.float('default_float', -1)],
      'ai.onnx.ml',
    );
    const kept = g.constant('levels', [e.codes.length], e.codes);
    const eq = g.node('Equal', [code, kept], g.fresh('eq'));
    parts.push(g.node('Cast', [eq], g.fresh('onehot'), [attr.int('to', TensorDataType.FLOAT)]));
  });
  if (!parts.length) throw new Error('model has no design columns');
  return g.node('Concat', parts, '__design', [attr.int('axis', 1)]);
}

export type HeadLink = 'identity' | 'log' | 'logistic' | 'softmax';

/** Adds the 'margin' output and the link head, with the tree exporter's output names and shapes. */
export function addHead(g: GraphBuilder, margin: string, kind: ProblemKind, classes: string[], link: HeadLink, nOutputs: number): void {
  g.node('Identity', [margin], 'margin');
  g.outputs.push(valueInfo('margin', TensorDataType.FLOAT, ['N', nOutputs]));
  if (kind === 'regression') {
    g.node(link === 'log' ? 'Exp' : 'Identity', ['margin'], 'variable');
    g.outputs.push(valueInfo('variable', TensorDataType.FLOAT, ['N', 1]));
    return;
  }
  if (kind === 'binary') {
    const one = g.constant('one', [], [1]);
    const p1 = g.node('Sigmoid', ['margin'], g.fresh('p1'));
    const p0 = g.node('Sub', [one, p1], g.fresh('p0'));
    g.node('Concat', [p0, p1], 'probabilities', [attr.int('axis', 1)]);
  } else {
    g.node('Softmax', ['margin'], 'probabilities', [attr.int('axis', 1)]);
  }
  const labels = g.fresh('class_labels');
  g.inits.push({ name: labels, dims: [classes.length], dataType: TensorDataType.STRING, stringData: classes.map((c) => enc.encode(c)) });
  const index = g.node('ArgMax', ['probabilities'], g.fresh('class_index'), [attr.int('axis', 1), attr.int('keepdims', 0)]);
  g.node('Gather', [labels, index], 'label', [attr.int('axis', 0)]);
  g.outputs.push(valueInfo('label', TensorDataType.STRING, ['N']), valueInfo('probabilities', TensorDataType.FLOAT, ['N', classes.length]));
}
