/**
 * Builds onnxruntime feeds for an exported model from a frame, using the same conversion as the
 * TypeScript scorer (datetimes expanded, categories by level name, missing as NaN / '').
 */
import { Frame } from '../frame';
import { RowObject, TreeEnsembleModel, toFeatureMatrix } from '../model';
import { onnxInputName } from './export';

/** Raw feed data per input: Float32Array for numeric features, string[] for categorical ones; shape [n, 1]. */
export function onnxFeedData(model: TreeEnsembleModel, input: Frame | RowObject[]): Record<string, Float32Array | string[]> {
  const x = toFeatureMatrix(model.features, input);
  const feeds: Record<string, Float32Array | string[]> = {};
  model.features.forEach((f, j) => {
    const col = x[j];
    if (f.kind === 'numeric') feeds[onnxInputName(f.name)] = Float32Array.from(col);
    else feeds[onnxInputName(f.name)] = Array.from(col, (c) => (c >= 0 ? f.levels[c] : ''));
  });
  return feeds;
}
