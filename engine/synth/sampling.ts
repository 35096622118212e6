import { Rng } from '../automl';

/**
 * k distinct row indices of [0, n), ascending (all of them when k ≥ n): selection sampling (Knuth's algorithm S), one
 * pass and no extra memory. Every row bound in engine/synth (fit rows, quality and privacy samples) draws with this.
 */
export function sampleRowIndices(n: number, k: number, rng: Rng): Uint32Array {
  if (k >= n) {
    const all = new Uint32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  const out = new Uint32Array(k);
  let chosen = 0;
  for (let i = 0; i < n && chosen < k; i++) {
    if ((n - i) * rng.next() < k - chosen) out[chosen++] = i;
  }
  return out;
}
