/**
 * The one interface every trained model of this engine is served through (trees, GLM,
 * DeepLearning, stacked ensembles); engine/automl/registry.ts builds it from a model's JSON.
 */
import type { Frame, ProblemKind } from './frame';
import type { FeatureSpec, Prediction, RowObject, VariableImportance } from './model';
import type { Contribution } from './treeshap';

export interface ScoringModel {
  /** 'GBM' | 'XGBoost' | 'DRF' | 'GLM' | 'DeepLearning' | 'StackedEnsemble'. */
  readonly algo: string;
  readonly kind: ProblemKind;
  readonly classes: string[];
  /** Input features in model order (the ONNX graph has one input per feature, same order). */
  readonly features: FeatureSpec[];
  /** Labels + row-major n x K probabilities for classifiers, values for regressors. */
  predict(input: Frame | RowObject[]): Prediction;
  /**
   * Per-row records [{feature, value}..., {feature: 'BiasTerm', value}] of output `output` (class
   * index for multiclass, else 0) that sum to the margin; null where the model has none
   * (stacked ensembles).
   */
  contributions(input: Frame | RowObject[], output?: number): Contribution[][] | null;
  /** Serialized ONNX model with the shared input/output conventions (see onnx/export.ts). */
  toONNX(): Uint8Array;
  /** onnxruntime feed data for toONNX()'s graph: [N, 1] Float32Array / string[] per feature. */
  onnxFeeds(input: Frame | RowObject[]): Record<string, Float32Array | string[]>;
  varimp(): VariableImportance[];
  toJSON(): unknown;
}
