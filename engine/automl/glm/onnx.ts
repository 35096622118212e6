/**
 * ONNX export of a GLM: the design preprocessing of ../encoding/onnx-design.ts, one MatMul with
 * the [width, outputs] coefficient matrix, Add of the intercepts, then the tree exporter's head
 * (Sigmoid / Softmax / Exp and the same output names).
 */
import { GraphBuilder, addDesignInputs, addHead } from '../encoding/onnx-design';
import type { GLMModel } from './model';

/** Serialized ONNX ModelProto of a GLM. */
export function exportGLMOnnx(model: GLMModel): Uint8Array {
  const j = model.json;
  const g = new GraphBuilder();
  const x = addDesignInputs(g, j.design);
  const K = j.coefficients.length;
  const p = j.design.width;
  const w = new Float64Array(p * K);
  for (let k = 0; k < K; k++) for (let c = 0; c < p; c++) w[c * K + k] = j.coefficients[k][c + 1];
  const W = g.constant('coef', [p, K], w);
  const b = g.constant(
    'intercept',
    [K],
    j.coefficients.map((c) => c[0]),
  );
  const prod = g.node('MatMul', [x, W], g.fresh('xw'));
  const margin = g.node('Add', [prod, b], g.fresh('eta'));
  addHead(g, margin, j.kind, j.classes, j.link, K);
  return g.encode(`GLM_${j.kind}`, `GLM ${j.family} ${j.kind} model`);
}
