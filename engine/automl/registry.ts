/**
 * The one place that turns a serialized model (any algorithm) into a ScoringModel: a
 * discriminated union of model JSONs keyed by `algo`, each carrying its own `format_version`.
 *
 *   const m = modelFromJSON(json);           // trees, GLM, DeepLearning, StackedEnsemble
 *   m.predict(frame); m.toONNX(); m.onnxFeeds(frame); m.contributions(frame, k);
 */
import type { Frame } from './frame';
import { ModelJSON, RowObject, TreeEnsembleModel } from './model';
import { exportOnnx } from './onnx/export';
import { shapRecords } from './treeshap';
import { GLMJSON, GLMModel } from './glm/model';
import { exportGLMOnnx } from './glm/onnx';
import { designFeeds } from './encoding/feeds';
import { StackedEnsembleJSON, StackedEnsembleModel } from './ensemble/model';
import { exportEnsembleOnnx } from './ensemble/onnx';
import { DeepLearningJSON, DeepLearningModel } from './deeplearning/model';
import { exportDeepLearningOnnx } from './deeplearning/onnx';
import type { ScoringModel } from './scoring-model';

export type { ScoringModel } from './scoring-model';

/** Every serialized model this engine produces. */
export type AnyModelJSON = ModelJSON | GLMJSON | DeepLearningJSON | StackedEnsembleJSON;

type Input = Frame | RowObject[];

function treeScoring(m: TreeEnsembleModel): ScoringModel {
  return {
    algo: m.algo,
    kind: m.kind,
    classes: m.classes,
    features: m.features,
    predict: (x: Input) => m.predict(x),
    contributions: (x: Input, output = 0) => shapRecords(m, x, output),
    toONNX: () => exportOnnx(m),
    onnxFeeds: (x: Input) => designFeeds(m.features, x),
    varimp: () => m.varimp(),
    toJSON: () => m.toJSON(),
  };
}

function glmScoring(m: GLMModel): ScoringModel {
  return {
    algo: 'GLM',
    kind: m.kind,
    classes: m.classes,
    features: m.features,
    predict: (x: Input) => m.predict(x),
    contributions: (x: Input, output = 0) => m.contributions(x, output),
    toONNX: () => exportGLMOnnx(m),
    onnxFeeds: (x: Input) => designFeeds(m.features, x),
    varimp: () => m.varimp(),
    toJSON: () => m.toJSON(),
  };
}

function dlScoring(m: DeepLearningModel): ScoringModel {
  return {
    algo: 'DeepLearning',
    kind: m.kind,
    classes: m.classes,
    features: m.features,
    predict: (x: Input) => m.predict(x),
    contributions: (x: Input, output = 0) => m.contributions(x, output),
    toONNX: () => exportDeepLearningOnnx(m),
    onnxFeeds: (x: Input) => designFeeds(m.features, x),
    varimp: () => m.varimp(),
    toJSON: () => m.toJSON(),
  };
}

function seScoring(m: StackedEnsembleModel): ScoringModel {
  return {
    algo: 'StackedEnsemble',
    kind: m.kind,
    classes: m.classes,
    features: m.features,
    predict: (x: Input) => m.predict(x),
    contributions: () => null,
    toONNX: () => exportEnsembleOnnx(m),
    onnxFeeds: (x: Input) => designFeeds(m.features, x),
    varimp: () => m.varimp(),
    toJSON: () => m.toJSON(),
  };
}

/** Builds the scoring object of a serialized model; throws on an unknown algo or format_version. */
export function modelFromJSON(json: AnyModelJSON | unknown): ScoringModel {
  const j = json as AnyModelJSON;
  switch (j?.algo) {
    case 'GBM':
    case 'XGBoost':
    case 'DRF':
      return treeScoring(TreeEnsembleModel.fromJSON(j));
    case 'GLM':
      return glmScoring(GLMModel.fromJSON(j));
    case 'DeepLearning':
      return dlScoring(DeepLearningModel.fromJSON(j));
    case 'StackedEnsemble':
      if (j.format_version !== 1) throw new Error(`unsupported StackedEnsemble format_version ${String(j.format_version)}`);
      return seScoring(
        new StackedEnsembleModel(
          j,
          j.base_models.map((b) => modelFromJSON(b.model)),
        ),
      );
    default:
      throw new Error(`unknown model algo ${String((j as { algo?: unknown } | null)?.algo)}`);
  }
}
