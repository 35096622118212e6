/**
 * ONNX export of a stacked ensemble as one composed graph: every base model's graph with its
 * node, initializer and intermediate tensor names prefixed `b<i>__` (feature inputs stay shared),
 * Slice nodes cutting the level-one columns out of each base's 'probabilities' / 'variable', and
 * the metalearner GLM graph (prefixed `meta__`) reading them. The final outputs keep the shared
 * names ('margin'; 'label' + 'probabilities' or 'variable').
 */
import { ModelMsg, NodeMsg, TensorDataType, ValueInfoMsg, decodeModel, encodeModel, modelMessage } from '../onnx/proto';
import { exportGLMOnnx } from '../glm/onnx';
import { onnxInputName } from '../onnx/export';
import type { StackedEnsembleModel } from './model';

const FINAL_OUTPUTS = new Set(['margin', 'label', 'probabilities', 'variable']);

function renamer(prefix: string, keep: Set<string>, mapped: Map<string, string>): (s: string) => string {
  return (s) => (s === '' || keep.has(s) ? s : (mapped.get(s) ?? `${prefix}${s}`));
}

function renameGraph(m: ModelMsg, rename: (s: string) => string, prefix: string): { nodes: NodeMsg[]; inits: ModelMsg['graph']['initializer'] } {
  const nodes = m.graph.node.map((n) => ({ ...n, name: `${prefix}${n.name}`, input: (n.input ?? []).map(rename), output: (n.output ?? []).map(rename), attribute: n.attribute ?? [] }));
  const inits = (m.graph.initializer ?? []).map((t) => ({ ...t, name: rename(t.name ?? '') }));
  return { nodes, inits };
}

/** Serialized ONNX ModelProto of the whole ensemble. */
export function exportEnsembleOnnx(se: StackedEnsembleModel): Uint8Array {
  const nodes: NodeMsg[] = [];
  const inits: ModelMsg['graph']['initializer'] = [];
  const inputs = new Map<string, ValueInfoMsg>();
  const levelOne: string[] = [];
  const K = se.classes.length;
  const int64 = (name: string, v: number): void => void inits.push({ name, dims: [1], dataType: TensorDataType.INT64, int64Data: [v] });
  if (se.kind !== 'regression') int64('__se_axis1', 1);
  se.bases.forEach((b, i) => {
    const m = decodeModel(b.toONNX());
    const keep = new Set((m.graph.input ?? []).map((v) => v.name));
    for (const v of m.graph.input ?? []) if (!inputs.has(v.name)) inputs.set(v.name, v);
    const prefix = `b${i}__`;
    const r = renamer(prefix, keep, new Map());
    const g = renameGraph(m, r, prefix);
    nodes.push(...g.nodes);
    inits.push(...g.inits);
    if (se.kind === 'regression') {
      levelOne.push(`${prefix}variable`);
      return;
    }
    const cols = se.kind === 'binary' ? [1] : Array.from({ length: K }, (_, k) => k);
    for (const k of cols) {
      int64(`${prefix}start${k}`, k);
      int64(`${prefix}end${k}`, k + 1);
      const out = `${prefix}level_one_${k}`;
      nodes.push({ name: `${prefix}slice${k}`, opType: 'Slice', input: [`${prefix}probabilities`, `${prefix}start${k}`, `${prefix}end${k}`, '__se_axis1'], output: [out], attribute: [] });
      levelOne.push(out);
    }
  });
  const meta = decodeModel(exportGLMOnnx(se.metalearner));
  const metaInputs = new Map<string, string>();
  se.metalearner.features.forEach((f, q) => metaInputs.set(onnxInputName(f.name), levelOne[q]));
  const keep = new Set(FINAL_OUTPUTS);
  const g = renameGraph(meta, renamer('meta__', keep, metaInputs), 'meta__');
  nodes.push(...g.nodes);
  inits.push(...g.inits);
  return encodeModel(
    modelMessage(
      { name: `StackedEnsemble_${se.kind}`, node: nodes, initializer: inits, input: [...inputs.values()], output: meta.graph.output },
      `StackedEnsemble ${se.json.ensemble} ${se.kind} model`,
    ),
  );
}
