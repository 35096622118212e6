/**
 * ONNX export of a DeepLearning model: the GLM's design preprocessing, then MatMul/Add per layer
 * with Relu or Tanh between hidden layers, and the shared output head.
 */
import { GraphBuilder, addDesignInputs, addHead } from '../encoding/onnx-design';
import { DeepLearningModel, isTanh } from './model';

export function exportDeepLearningOnnx(model: DeepLearningModel): Uint8Array {
  const j = model.json;
  const g = new GraphBuilder();
  let h = addDesignInputs(g, j.design);
  j.layers.forEach((l, li) => {
    const W = g.constant('W', [l.inputs, l.outputs], l.weights);
    const b = g.constant('b', [l.outputs], l.bias);
    const z = g.node('Add', [g.node('MatMul', [h, W], g.fresh('xw')), b], g.fresh('z'));
    h = li === j.layers.length - 1 ? z : g.node(isTanh(j.activation) ? 'Tanh' : 'Relu', [z], g.fresh('h'));
  });
  addHead(g, h, j.kind, j.classes, j.link, model.nOutputs);
  return g.encode(`DeepLearning_${j.kind}`, `DeepLearning ${j.kind} model`);
}
