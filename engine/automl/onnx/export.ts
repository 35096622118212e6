/**
 * ONNX export of tree models: one graph input per feature ([N, 1] float for numeric features,
 * [N, 1] string for categorical ones), categorical strings mapped to the model's codes by
 * ai.onnx.ml LabelEncoder (unknown or empty strings become -1, the missing code), all features
 * concatenated and scored by one ai.onnx.ml TreeEnsembleRegressor that produces the margins
 * (one target per output, base scores as base_values). Probabilities, labels and the inverse link
 * are computed with standard ai.onnx operators so they match the TypeScript scorer exactly in
 * definition (the ONNX classifier op's binary-case conventions differ across runtimes).
 *
 * Splits: numeric splits are BRANCH_LEQ with the float32 threshold, missing values (NaN) follow
 * nodes_missing_value_tracks_true = default_left. A category-set split becomes a chain of
 * BRANCH_EQ nodes, one per category of the set (plus the missing code -1 when missing values go
 * left): each node's true branch is the left child, its false branch the next node of the chain,
 * and the last node's false branch the right child.
 */
import { TreeEnsembleModel } from '../model';
import { AttributeMsg, AttributeType, NodeMsg, TensorDataType, TensorMsg, ValueInfoMsg, encodeModel, modelMessage } from './proto';

const enc = new TextEncoder();

function attrInts(name: string, v: number[]): AttributeMsg {
  return { name, type: AttributeType.INTS, ints: v };
}
function attrFloats(name: string, v: number[]): AttributeMsg {
  return { name, type: AttributeType.FLOATS, floats: v };
}
function attrStrings(name: string, v: string[]): AttributeMsg {
  return { name, type: AttributeType.STRINGS, strings: v.map((s) => enc.encode(s)) };
}
function attrString(name: string, v: string): AttributeMsg {
  return { name, type: AttributeType.STRING, s: enc.encode(v) };
}
function attrInt(name: string, v: number): AttributeMsg {
  return { name, type: AttributeType.INT, i: v };
}
function attrFloat(name: string, v: number): AttributeMsg {
  return { name, type: AttributeType.FLOAT, f: v };
}

function valueInfo(name: string, elemType: number, dims: (number | string)[]): ValueInfoMsg {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  };
}

export interface OnnxExportOptions {
  /** ai.onnx opset (default 17). */
  opset?: number;
  /** ai.onnx.ml opset (default 3). */
  mlOpset?: number;
}

/** Graph output names; a feature with one of these names gets a suffixed input name. */
const OUTPUT_NAMES = new Set(['margin', 'label', 'probabilities', 'variable']);

/** Name of the graph input for a feature: the feature name, unless it collides with a graph name. */
export function onnxInputName(feature: string): string {
  return OUTPUT_NAMES.has(feature) || feature.startsWith('__') ? `${feature}__input` : feature;
}

/**
 * Exports a model to an ONNX ModelProto. Outputs: classifiers 'label' (string [N]) and
 * 'probabilities' (float [N, K]); regressors 'variable' (float [N, 1]). Every model also outputs
 * 'margin' (float [N, outputs]), the raw scores.
 */
export function exportOnnx(model: TreeEnsembleModel, opts: OnnxExportOptions = {}): Uint8Array {
  const nodes: NodeMsg[] = [];
  const inits: TensorMsg[] = [];
  const inputs: ValueInfoMsg[] = [];
  const featureOutputs: string[] = [];
  let counter = 0;
  const fresh = (base: string): string => `${base}_${counter++}`;
  model.features.forEach((f) => {
    const input = onnxInputName(f.name);
    if (f.kind === 'numeric') {
      inputs.push(valueInfo(input, TensorDataType.FLOAT, ['N', 1]));
      featureOutputs.push(input);
      return;
    }
    inputs.push(valueInfo(input, TensorDataType.STRING, ['N', 1]));
    const out = fresh('__code');
    nodes.push({
      input: [input],
      output: [out],
      name: fresh('LabelEncoder'),
      opType: 'LabelEncoder',
      domain: 'ai.onnx.ml',
      attribute: [
        attrStrings('keys_strings', f.levels),
        attrFloats(
          'values_floats',
          f.levels.map((_, k) => k),
        ),
        attrFloat('default_float', -1),
      ],
    });
    featureOutputs.push(out);
  });
  nodes.push({ input: featureOutputs, output: ['__X'], name: 'concat_features', opType: 'Concat', attribute: [attrInt('axis', 1)] });
  nodes.push(treeEnsembleNode(model, '__X', 'margin'));

  const outputs: ValueInfoMsg[] = [valueInfo('margin', TensorDataType.FLOAT, ['N', model.nOutputs])];
  const K = model.classes.length;
  if (model.kind === 'regression') {
    if (model.link === 'log') nodes.push({ input: ['margin'], output: ['variable'], name: 'inverse_link', opType: 'Exp', attribute: [] });
    else nodes.push({ input: ['margin'], output: ['variable'], name: 'identity', opType: 'Identity', attribute: [] });
    outputs.push(valueInfo('variable', TensorDataType.FLOAT, ['N', 1]));
  } else {
    if (model.kind === 'binary') {
      inits.push({ name: '__one', dims: [], dataType: TensorDataType.FLOAT, floatData: [1] });
      if (model.link === 'logistic') {
        nodes.push({ input: ['margin'], output: ['__p1'], name: 'sigmoid', opType: 'Sigmoid', attribute: [] });
      } else {
        inits.push({ name: '__zero', dims: [], dataType: TensorDataType.FLOAT, floatData: [0] });
        nodes.push({ input: ['margin', '__zero', '__one'], output: ['__p1'], name: 'clip', opType: 'Clip', attribute: [] });
      }
      nodes.push({ input: ['__one', '__p1'], output: ['__p0'], name: 'complement', opType: 'Sub', attribute: [] });
      nodes.push({ input: ['__p0', '__p1'], output: ['probabilities'], name: 'concat_probs', opType: 'Concat', attribute: [attrInt('axis', 1)] });
    } else if (model.link === 'softmax') {
      nodes.push({ input: ['margin'], output: ['probabilities'], name: 'softmax', opType: 'Softmax', attribute: [attrInt('axis', 1)] });
    } else {
      inits.push({ name: '__sum_axes', dims: [1], dataType: TensorDataType.INT64, int64Data: [1] });
      nodes.push({ input: ['margin'], output: ['__pos'], name: 'relu', opType: 'Relu', attribute: [] });
      nodes.push({ input: ['__pos', '__sum_axes'], output: ['__total'], name: 'sum', opType: 'ReduceSum', attribute: [attrInt('keepdims', 1)] });
      nodes.push({ input: ['__pos', '__total'], output: ['probabilities'], name: 'normalize', opType: 'Div', attribute: [] });
    }
    inits.push({ name: '__class_labels', dims: [K], dataType: TensorDataType.STRING, stringData: model.classes.map((c) => enc.encode(c)) });
    nodes.push({ input: ['probabilities'], output: ['__class_index'], name: 'argmax', opType: 'ArgMax', attribute: [attrInt('axis', 1), attrInt('keepdims', 0)] });
    nodes.push({ input: ['__class_labels', '__class_index'], output: ['label'], name: 'gather_label', opType: 'Gather', attribute: [attrInt('axis', 0)] });
    outputs.push(valueInfo('label', TensorDataType.STRING, ['N']), valueInfo('probabilities', TensorDataType.FLOAT, ['N', K]));
  }
  return encodeModel(
    modelMessage({ name: `${model.algo}_${model.kind}`, node: nodes, initializer: inits, input: inputs, output: outputs }, `${model.algo} ${model.kind} model`, { onnx: opts.opset, ml: opts.mlOpset }),
  );
}

function treeEnsembleNode(model: TreeEnsembleModel, input: string, output: string): NodeMsg {
  const treeIds: number[] = [];
  const nodeIds: number[] = [];
  const featureIds: number[] = [];
  const modes: string[] = [];
  const values: number[] = [];
  const trueIds: number[] = [];
  const falseIds: number[] = [];
  const missingTrue: number[] = [];
  const tTree: number[] = [];
  const tNode: number[] = [];
  const tId: number[] = [];
  const tWeight: number[] = [];
  let treeId = 0;
  model.trees.forEach((ts, k) => {
    const scale = model.aggregation === 'average' && ts.length ? 1 / ts.length : 1;
    for (const t of ts) {
      let nextId = t.feature.length;
      const push = (id: number, feat: number, mode: string, value: number, tr: number, fa: number, miss: number): void => {
        treeIds.push(treeId);
        nodeIds.push(id);
        featureIds.push(feat);
        modes.push(mode);
        values.push(value);
        trueIds.push(tr);
        falseIds.push(fa);
        missingTrue.push(miss);
      };
      for (let i = 0; i < t.feature.length; i++) {
        const f = t.feature[i];
        if (f < 0) {
          push(i, 0, 'LEAF', 0, 0, 0, 0);
          tTree.push(treeId);
          tNode.push(i);
          tId.push(k);
          tWeight.push(t.value[i] * scale);
          continue;
        }
        if (!t.categorical[i]) {
          push(i, f, 'BRANCH_LEQ', t.threshold[i], t.left[i], t.right[i], t.defaultLeft[i]);
          continue;
        }
        const codes = Array.from(t.catCodes.subarray(t.catStart[i], t.catStart[i] + t.catLength[i]));
        if (t.defaultLeft[i]) codes.push(-1);
        let id = i;
        codes.forEach((c, q) => {
          const last = q === codes.length - 1;
          const next = last ? t.right[i] : nextId++;
          push(id, f, 'BRANCH_EQ', c, t.left[i], next, 0);
          id = next;
        });
      }
      treeId++;
    }
  });
  return {
    input: [input],
    output: [output],
    name: 'trees',
    opType: 'TreeEnsembleRegressor',
    domain: 'ai.onnx.ml',
    attribute: [
      attrInt('n_targets', model.nOutputs),
      attrString('aggregate_function', 'SUM'),
      attrString('post_transform', 'NONE'),
      attrFloats('base_values', model.baseScore),
      attrInts('nodes_treeids', treeIds),
      attrInts('nodes_nodeids', nodeIds),
      attrInts('nodes_featureids', featureIds),
      attrStrings('nodes_modes', modes),
      attrFloats('nodes_values', values),
      attrInts('nodes_truenodeids', trueIds),
      attrInts('nodes_falsenodeids', falseIds),
      attrInts('nodes_missing_value_tracks_true', missingTrue),
      attrInts('target_treeids', tTree),
      attrInts('target_nodeids', tNode),
      attrInts('target_ids', tId),
      attrFloats('target_weights', tWeight),
    ],
  };
}
