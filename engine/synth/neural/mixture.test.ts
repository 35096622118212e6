import { fitVariationalMixture, kmeans1d, mixturePosterior } from './mixture';
import { NeuralRng } from './rng';
import { digamma, lgamma } from './special';

function bimodal(n: number, seed: number): Float64Array {
  const rng = new NeuralRng(seed);
  return Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 10 + 2 * rng.normal() : -5 + rng.normal()));
}

describe('variational Gaussian mixture', () => {
  it('finds the two modes of a bimodal column, with their weights and spreads', () => {
    const m = fitVariationalMixture(bimodal(3000, 4), { seed: 1 });
    // As scikit-learn's BayesianGaussianMixture on this data (checked with the Python package), a mode may be
    // shared by two components; every component of real weight sits on one of the two true modes.
    const kept = m.weights.map((w, k) => k).filter((k) => m.weights[k] > 0.005);
    let low = 0;
    let high = 0;
    let lowMean = 0;
    let highMean = 0;
    for (const k of kept) {
      const nearLow = Math.abs(m.means[k] + 5) < 0.5;
      const nearHigh = Math.abs(m.means[k] - 10) < 0.5;
      expect(nearLow || nearHigh).toBe(true);
      if (nearLow) {
        low += m.weights[k];
        lowMean += m.weights[k] * m.means[k];
      } else {
        high += m.weights[k];
        highMean += m.weights[k] * m.means[k];
      }
    }
    expect(low + high).toBeGreaterThan(0.99);
    expect(Math.abs(low - 2 / 3)).toBeLessThan(0.03);
    expect(Math.abs(lowMean / low + 5)).toBeLessThan(0.1);
    expect(Math.abs(highMean / high - 10)).toBeLessThan(0.2);
    const lo = kept.reduce((a, b) => (Math.abs(m.means[b] + 5) < 0.5 && m.weights[b] > m.weights[a] ? b : a), kept[0]);
    const hi = kept.reduce((a, b) => (Math.abs(m.means[b] - 10) < 0.5 && m.weights[b] > m.weights[a] ? b : a), kept[0]);
    expect(m.stds[lo]).toBeGreaterThan(0.8);
    expect(m.stds[lo]).toBeLessThan(1.2);
    expect(m.stds[hi]).toBeGreaterThan(1.5);
    expect(m.stds[hi]).toBeLessThan(2.5);
    const post = mixturePosterior(m, 10, new Float64Array(m.means.length));
    expect(post.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 10);
    expect(kept.filter((k) => Math.abs(m.means[k] - 10) < 0.5).reduce((sum, k) => sum + post[k], 0)).toBeGreaterThan(0.99);
  });

  it('is deterministic for a seed and handles a constant column', () => {
    const x = bimodal(500, 2);
    expect(fitVariationalMixture(x, { seed: 3 })).toEqual(fitVariationalMixture(x, { seed: 3 }));
    const c = fitVariationalMixture(new Float64Array(50).fill(7), { seed: 0 });
    const top = c.weights.indexOf(Math.max(...c.weights));
    expect(c.means[top]).toBeCloseTo(7, 6);
    expect(Number.isFinite(c.stds[top])).toBe(true);
  });

  it('k-means on a line separates well-apart clusters', () => {
    const x = Float64Array.from([1, 1.1, 0.9, 50, 50.2, 49.8]);
    const labels = kmeans1d(x, 2, new NeuralRng(1));
    expect(labels[0]).toBe(labels[1]);
    expect(labels[3]).toBe(labels[5]);
    expect(labels[0]).not.toBe(labels[3]);
  });

  it('special functions match known values', () => {
    expect(lgamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(lgamma(10)).toBeCloseTo(Math.log(362880), 10);
    expect(digamma(1)).toBeCloseTo(-0.5772156649015329, 12);
    expect(digamma(0.5)).toBeCloseTo(-1.9635100260214235, 12);
  });
});
