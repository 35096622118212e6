/** Column sampling: the features of a tree, a depth level or a node (colsample_*, mtries). */
import { Rng } from '../random';

/**
 * Draws round(fraction * n) features (at least one), or `count` when count > 0; keeps order. With
 * `scratch` (at least n long) the draw is made in it and returned as a view of it, valid until the
 * next draw into the same scratch.
 */
export function sampleFeatures(features: Int32Array, fraction: number, count: number, rng: Rng, scratch?: Int32Array): Int32Array {
  const n = features.length;
  const k = count > 0 ? Math.min(n, count) : fraction >= 1 ? n : Math.max(1, Math.round(fraction * n));
  if (k >= n) return features;
  const picked = scratch ? scratch.subarray(0, n) : new Int32Array(n);
  picked.set(features);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(n - i);
    const t = picked[i];
    picked[i] = picked[j];
    picked[j] = t;
  }
  const drawn = picked.subarray(0, k).sort();
  return scratch ? drawn : drawn.slice();
}
