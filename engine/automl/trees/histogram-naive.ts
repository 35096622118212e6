/**
 * The reference histogram: the plain loop every histogram path (histogram-paths.ts, the WebAssembly kernels, the
 * helper threads) is checked against, kept for the tests as scikit-learn keeps `_build_histogram_naive`. Not used
 * by the learners.
 *
 * For the listed features it zeroes their slots and adds, for each row index[start..end) in order, the row's gradient
 * and hessian (and 1 with `counts`) to the slot of its bin. Each slot's sum is taken in row order, as every path takes
 * it within a chunk: a one-thread build equals it bit for bit, a multi-thread one (chunk partials added) to rounding.
 */
import type { BinnedData } from '../binning';

export function buildHistogramNaive(
  hist: Float64Array,
  data: BinnedData,
  features: ArrayLike<number>,
  index: ArrayLike<number>,
  start: number,
  end: number,
  grad: ArrayLike<number>,
  hess: ArrayLike<number>,
  counts = true,
): void {
  for (let k = 0; k < features.length; k++) {
    const f = features[k];
    const base = data.offsets[f] * 3;
    hist.fill(0, base, base + (data.features[f].nbins + 1) * 3);
    const bins = data.features[f].bins;
    for (let i = start; i < end; i++) {
      const r = index[i];
      const s = base + bins[r] * 3;
      hist[s] += grad[r];
      hist[s + 1] += hess[r];
      if (counts) hist[s + 2] += 1;
    }
  }
}
