/**
 * onnxruntime feed data for any exported model of this engine: one [N, 1] input per feature,
 * Float32Array for numeric features (NaN missing), string[] for categorical ones ('' missing or
 * unknown). Same conversion as onnx/feeds.ts, but from feature specs so it serves every algorithm.
 */
import type { Frame } from '../frame';
import { FeatureSpec, RowObject, toFeatureMatrix } from '../model';
import { onnxInputName } from '../onnx/export';

export function designFeeds(features: FeatureSpec[], input: Frame | RowObject[]): Record<string, Float32Array | string[]> {
  const x = toFeatureMatrix(features, input);
  const feeds: Record<string, Float32Array | string[]> = {};
  features.forEach((f, j) => {
    feeds[onnxInputName(f.name)] = f.kind === 'numeric' ? Float32Array.from(x[j]) : Array.from(x[j], (c) => (c >= 0 ? f.levels[c] : ''));
  });
  return feeds;
}
