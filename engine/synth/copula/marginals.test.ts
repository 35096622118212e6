import { EMPIRICAL_KNOTS, fitMarginal, ksStatistic, Marginal, marginalFromJSON, marginalToJSON } from './marginals';
import { betas, gammas, normals, truncatedNormals, uniforms } from './testutil';

// Families overlap (a beta can mimic a truncated normal or a gamma), so the samples are large enough for the KS
// statistic to tell them apart.
const N = 5000;
const CASES: Array<[string, (seed: number) => Float64Array]> = [
  ['normal', (s) => normals(N, s, 5, 2)],
  ['uniform', (s) => uniforms(N, s, -3, 7)],
  ['gamma', (s) => gammas(N, s, 2, 3, 10)],
  ['beta', (s) => betas(N, s, 2, 5, 0, 10)],
  ['truncnorm', (s) => truncatedNormals(N, s, 0, 1, -0.5, 2)],
];

describe('fitMarginal', () => {
  const fitted = new Map<string, { x: Float64Array; m: Marginal }>();
  beforeAll(() => {
    for (const [family, draw] of CASES) {
      const x = draw(1);
      fitted.set(family, { x, m: fitMarginal(x) });
    }
  });

  it.each(CASES)('picks the %s family for samples drawn from it', (family, draw) => {
    expect((fitted.get(family) as { m: Marginal }).m.family).toBe(family);
    expect(fitMarginal(draw(2)).family).toBe(family);
  });

  it('falls back to the empirical distribution for a bimodal sample, with a bounded quantile table', () => {
    const x = Float64Array.from([...normals(N / 2, 4, 0, 1), ...normals(N / 2, 5, 6, 1)]);
    const m = fitMarginal(x);
    expect(m.family).toBe('empirical');
    const json = m.toJSON();
    expect(json.family === 'empirical' && json.p.length).toBe(EMPIRICAL_KNOTS);
    expect(ksStatistic(x.slice().sort(), m.cdf)).toBeLessThan(0.002);
  });

  it('keeps a few-valued column as exact steps: frequencies reproduced, the CDF at a value is its mid-rank', () => {
    const x = Float64Array.from([...Array(50).fill(1), ...Array(30).fill(2), ...Array(20).fill(5)]);
    const m = fitMarginal(x);
    expect(m.family).toBe('empirical');
    expect(m.cdf(1)).toBeCloseTo(0.25, 12);
    expect(m.cdf(2)).toBeCloseTo(0.65, 12);
    expect(m.cdf(3.5)).toBeCloseTo(0.8, 12);
    expect(m.ppf(0.1)).toBe(1);
    expect(m.ppf(0.6)).toBe(2);
    expect(m.ppf(0.95)).toBe(5);
  });

  it('gives quantile functions that invert the CDF for every family', () => {
    for (const { m } of fitted.values()) {
      for (const u of [0.001, 0.1, 0.5, 0.9, 0.999]) expect(Math.abs(m.cdf(m.ppf(u)) - u)).toBeLessThan(1e-9);
    }
  });

  it('round-trips through JSON: the rebuilt marginal has the same CDF and quantiles', () => {
    const bimodal = Float64Array.from([...normals(500, 1, 0, 1), ...normals(500, 2, 9, 1)]);
    for (const { x, m } of [...fitted.values(), { x: bimodal, m: fitMarginal(bimodal) }]) {
      const back = marginalFromJSON(JSON.parse(JSON.stringify(marginalToJSON(m))));
      expect(back.family).toBe(m.family);
      for (const u of [0.01, 0.3, 0.77]) expect(back.ppf(u)).toBe(m.ppf(u));
      for (const v of [x[0], x[10], x[100]]) expect(back.cdf(v)).toBe(m.cdf(v));
    }
  });

  it('refuses an empty column and treats a constant one as a point mass', () => {
    expect(() => fitMarginal(new Float64Array(0))).toThrow('no present value');
    const m = fitMarginal(Float64Array.from([4, 4, 4]));
    expect(m.ppf(0.3)).toBe(4);
    expect(m.cdf(4)).toBe(0.5);
  });
});
