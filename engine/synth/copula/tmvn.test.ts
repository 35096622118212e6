import { Rng } from '../../automl';
import { Gaussian, LatentSampler, truncatedStandardNormal } from './tmvn';

function moments(xs: number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, sd: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length) };
}

describe('normal draws', () => {
  it('truncated standard normals stay in their interval and have its mean, tails included', () => {
    const rng = new Rng(1);
    for (const [a, b, mean] of [
      [-Infinity, 0, -Math.sqrt(2 / Math.PI)],
      [1, 2, 1.3831],
      [-2, -1, -1.3831],
      [8, Infinity, 8.1211],
    ]) {
      const xs = Array.from({ length: 4000 }, () => truncatedStandardNormal(a, b, rng));
      expect(xs.every((x) => x >= a && x <= b)).toBe(true);
      expect(Math.abs(moments(xs).mean - mean)).toBeLessThan(0.03);
    }
  });

  it('conditions a correlated normal on an equality exactly (Schur complement)', () => {
    // corr(z0, z1) = 0.8: z1 | z0 = 1.5 is N(1.2, 0.36).
    const s = new LatentSampler(Float64Array.from([1, 0.8, 0.8, 1]), 2, { equal: [{ dim: 0, value: 1.5 }], box: [] });
    const g = new Gaussian(new Rng(2));
    const row = new Float64Array(2);
    const z1: number[] = [];
    for (let i = 0; i < 5000; i++) {
      s.draw(g, row);
      expect(row[0]).toBe(1.5);
      z1.push(row[1]);
    }
    const m = moments(z1);
    expect(Math.abs(m.mean - 1.2)).toBeLessThan(0.03);
    expect(Math.abs(m.sd - 0.6)).toBeLessThan(0.03);
  });

  it('keeps every draw inside several boxes, even an unlikely region where rejection gives way to Gibbs sampling', () => {
    const corr = Float64Array.from([1, 0.8, 0.5, 0.8, 1, 0.4, 0.5, 0.4, 1]);
    // z0 high and z1 low against a correlation of 0.8: probability ~1e-4, far below the rejection threshold.
    const s = new LatentSampler(corr, 3, {
      equal: [],
      box: [
        { dim: 0, lo: 1.5, hi: 2.5 },
        { dim: 1, lo: -2.5, hi: -1 },
      ],
    });
    const g = new Gaussian(new Rng(3));
    const row = new Float64Array(3);
    const z0: number[] = [];
    const resid: number[] = [];
    for (let i = 0; i < 1000; i++) {
      s.draw(g, row);
      expect(row[0] >= 1.5 && row[0] <= 2.5 && row[1] >= -2.5 && row[1] <= -1).toBe(true);
      z0.push(row[0]);
      // With these correlations E[z2 | z0, z1] = 0.5 z0 + 0 z1 and the residual variance is 1 − 0.25.
      resid.push(row[2] - 0.5 * row[0]);
    }
    const r = moments(resid);
    expect(Math.abs(r.mean)).toBeLessThan(0.08);
    expect(Math.abs(r.sd - Math.sqrt(0.75))).toBeLessThan(0.06);
    expect(moments(z0).mean).toBeGreaterThan(1.5);
  });
});
