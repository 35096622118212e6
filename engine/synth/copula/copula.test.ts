import { categoricalFromStrings, Column, Frame, makeFrame, readCsvFrame, Rng } from '../../automl';
import { SynthConfigError } from '../errors';
import { evaluateQuality } from '../quality';
import { SynthConditionError } from './conditions';
import { fitGaussianCopula } from './fit';
import { sampleGaussianCopula, sampleGaussianCopulaBatches } from './sample';
import { corr, gammas, ks2, normals, sharedDataset } from './testutil';

const N = 2000;
const DAY = 86_400_000;
const BASE = Date.UTC(2021, 0, 1);

/** x, y bivariate normal with correlation 0.7. */
function bivariate(n: number, seed: number): Frame {
  const z1 = normals(n, seed);
  const z2 = normals(n, seed + 100);
  const y = z1.map((a, i) => 10 + 3 * (0.7 * a + Math.sqrt(1 - 0.49) * z2[i]));
  return makeFrame(
    ['x', 'y'],
    [
      { kind: 'numeric', values: z1.map((a) => 5 + 2 * a) },
      { kind: 'numeric', values: y },
    ],
  );
}

/**
 * A mixed table: a numeric column with 10 % missing, a whole-number skewed column tied to it, a category set by
 * thresholds of a latent correlated with it, and a datetime that follows it.
 */
function mixed(n: number, seed: number): Frame {
  const rng = new Rng(seed);
  const z = normals(n, seed);
  const e = normals(n, seed + 1);
  const g = gammas(n, seed + 2, 2, 2);
  const x = z.map((a) => 50 + 10 * a);
  const latent = z.map((a, i) => 0.8 * a + 0.6 * e[i]);
  const grade = Array.from(latent, (l) => (l < -0.5 ? 'low' : l < 0.7 ? 'mid' : 'high'));
  const count = Float64Array.from(g, (v, i) => Math.round(v + Math.max(0, 2 * z[i] + 2)));
  const when = Float64Array.from(z, (a) => BASE + Math.round((30 + 10 * a) * DAY));
  for (let i = 0; i < n; i++) if (rng.next() < 0.1) x[i] = NaN;
  const columns: Column[] = [{ kind: 'numeric', values: x }, { kind: 'numeric', values: count }, categoricalFromStrings(grade), { kind: 'datetime', epochMs: when }];
  return makeFrame(['x', 'count', 'grade', 'when'], columns);
}

function values(f: Frame, name: string): Float64Array {
  const c = f.columns[f.names.indexOf(name)];
  if (c.kind === 'categorical') throw new Error('categorical');
  return c.kind === 'numeric' ? c.values : c.epochMs;
}

function labels(f: Frame, name: string): string[] {
  const c = f.columns[f.names.indexOf(name)];
  if (c.kind !== 'categorical') throw new Error('not categorical');
  return Array.from(c.codes, (k) => (k < 0 ? '' : c.levels[k]));
}

function completePairs(a: Float64Array, b: Float64Array): [number[], number[]] {
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]) || Number.isNaN(b[i])) continue;
    x.push(a[i]);
    y.push(b[i]);
  }
  return [x, y];
}

describe('Gaussian copula', () => {
  const real = mixed(N, 1);
  const model = fitGaussianCopula(real, { seed: 3 });
  const synth = sampleGaussianCopula(model, N, { seed: 4 });

  it('refuses a table with more latent dimensions than it models as a configuration error (retrying cannot help)', () => {
    const width = 1_001;
    const wide = makeFrame(
      Array.from({ length: width }, (_, j) => `c${j}`),
      Array.from({ length: width }, (_, j): Column => ({ kind: 'numeric', values: normals(20, j) })),
    );
    expect(() => fitGaussianCopula(wide, { seed: 1 })).toThrow(SynthConfigError);
    expect(() => fitGaussianCopula(wide, { seed: 1 })).toThrow(/at most 1000 latent dimensions; this table needs 1001/);
  });

  it('reproduces the marginals and the correlation of a bivariate normal', () => {
    const data = bivariate(N, 7);
    const m = fitGaussianCopula(data, { seed: 1 });
    const s = sampleGaussianCopula(m, N, { seed: 2 });
    expect(ks2(values(data, 'x'), values(s, 'x'))).toBeLessThan(0.05);
    expect(ks2(values(data, 'y'), values(s, 'y'))).toBeLessThan(0.05);
    expect(Math.abs(corr(values(s, 'x'), values(s, 'y')) - 0.7)).toBeLessThan(0.05);
  });

  it('reproduces a mixed table: marginals, numeric correlations, category shares and their association', () => {
    expect(ks2(values(real, 'x'), values(synth, 'x'))).toBeLessThan(0.06);
    expect(ks2(values(real, 'count'), values(synth, 'count'))).toBeLessThan(0.06);
    expect(ks2(values(real, 'when'), values(synth, 'when'))).toBeLessThan(0.06);
    const rc = corr(...completePairs(values(real, 'x'), values(real, 'count')));
    const sc = corr(...completePairs(values(synth, 'x'), values(synth, 'count')));
    expect(Math.abs(rc - sc)).toBeLessThan(0.06);
    // The category's mean x reproduces the real ordering low < mid < high, within a few units.
    for (const grade of ['low', 'mid', 'high']) {
      const mean = (f: Frame): number => {
        const [xs] = completePairs(
          values(f, 'x'),
          Float64Array.from(labels(f, 'grade'), (l) => (l === grade ? 1 : NaN)),
        );
        return xs.reduce((a, b) => a + b, 0) / xs.length;
      };
      expect(Math.abs(mean(real) - mean(synth))).toBeLessThan(2.5);
      const share = (f: Frame): number => labels(f, 'grade').filter((l) => l === grade).length / f.nrows;
      expect(Math.abs(share(real) - share(synth))).toBeLessThan(0.04);
    }
  });

  it('gives columns back as they went in: whole numbers stay whole, ranges kept, missing rates reproduced, datetimes as datetimes', () => {
    expect(synth.columns.map((c) => c.kind)).toEqual(['numeric', 'numeric', 'categorical', 'datetime']);
    expect(values(synth, 'count').every((v) => Number.isInteger(v))).toBe(true);
    for (const name of ['x', 'count', 'when']) {
      const meta = model.columns.find((c) => c.name === name);
      const present = values(synth, name).filter((v) => !Number.isNaN(v));
      expect(Math.min(...present)).toBeGreaterThanOrEqual(meta?.min as number);
      expect(Math.max(...present)).toBeLessThanOrEqual(meta?.max as number);
    }
    const missing = values(synth, 'x').filter((v) => Number.isNaN(v)).length / N;
    expect(Math.abs(missing - (model.columns[0].missingRate as number))).toBeLessThan(0.03);
    expect(values(synth, 'when').every((v) => v % 1 === 0)).toBe(true);
  });

  it('scores well on the quality report against its training data', () => {
    const report = evaluateQuality(real, synth);
    expect(report.column_shapes.score as number).toBeGreaterThan(0.9);
    expect(report.overall_score).toBeGreaterThan(0.85);
  });

  it('reproduces its output exactly for a seed, across serialization, and differs for another seed', () => {
    const again = sampleGaussianCopula(JSON.parse(JSON.stringify(model)), N, { seed: 4 });
    expect(again).toEqual(synth);
    const other = sampleGaussianCopula(model, N, { seed: 5 });
    expect(values(other, 'count')).not.toEqual(values(synth, 'count'));
  });

  it('generates in bounded batches', () => {
    const batches = [...sampleGaussianCopulaBatches(model, 2500, { seed: 1, batchRows: 1000 })];
    expect(batches.map((b) => b.nrows)).toEqual([1000, 1000, 500]);
    expect(batches[0].names).toEqual(real.names);
  });

  it('honours conditions exactly in every row: a category, a number, a whole number, a datetime, together', () => {
    const byGrade = sampleGaussianCopula(model, 500, { seed: 1, conditions: { grade: 'high' } });
    expect(labels(byGrade, 'grade').every((l) => l === 'high')).toBe(true);
    // The other columns follow the condition: high grades come with large x.
    const meanX = (f: Frame): number => {
      const xs = values(f, 'x').filter((v) => !Number.isNaN(v));
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(meanX(byGrade)).toBeGreaterThan(meanX(synth) + 5);

    const exact = sampleGaussianCopula(model, 300, { seed: 2, conditions: { x: 61.5, count: 6, grade: 'mid', when: '2021-02-10T00:00:00Z' } });
    expect(values(exact, 'x').every((v) => v === 61.5)).toBe(true);
    expect(values(exact, 'count').every((v) => v === 6)).toBe(true);
    expect(labels(exact, 'grade').every((l) => l === 'mid')).toBe(true);
    expect(values(exact, 'when').every((v) => v === Date.parse('2021-02-10T00:00:00Z'))).toBe(true);

    const two = sampleGaussianCopula(model, 400, { seed: 3, conditions: { grade: 'low', count: 1 } });
    expect(labels(two, 'grade').every((l) => l === 'low') && values(two, 'count').every((v) => v === 1)).toBe(true);
    expect(values(two, 'x').some((v) => Number.isNaN(v))).toBe(true); // unconditioned columns keep their missing cells
  });

  it('throws SynthConditionError for conditions no row can meet', () => {
    const attempt = (conditions: Record<string, string | number | boolean>) => () => sampleGaussianCopula(model, 10, { seed: 1, conditions });
    expect(attempt({ nope: 1 })).toThrow(SynthConditionError);
    expect(attempt({ nope: 1 })).toThrow('Condition on unknown column "nope"');
    expect(attempt({ grade: 'top' })).toThrow('Column "grade" never held the value "top"');
    expect(attempt({ x: 1000 })).toThrow(/Column "x": 1000 is outside the training range/);
    expect(attempt({ count: 2.5 })).toThrow('Column "count" held whole numbers only');
    expect(attempt({ when: '1999-01-01' })).toThrow(/outside the training range/);
    expect(attempt({ x: 'abc' })).toThrow('Column "x" expects a number; got "abc"');
  });

  it('fits a real dataset (titanic) with a sane quality score', async () => {
    const titanic = await readCsvFrame(sharedDataset('titanic.csv'));
    const m = fitGaussianCopula(titanic, { seed: 1 });
    const s = sampleGaussianCopula(m, titanic.nrows, { seed: 1 });
    const report = evaluateQuality(titanic, s);
    expect(report.overall_score).toBeGreaterThan(0.85);
  });
});

describe('Gaussian copula conditions on discrete values', () => {
  // A non-integer column with few values: its marginal is exact steps, so each value is an atom.
  const levels = [0.5, 1.5, 2.5];
  const z = normals(600, 21);
  const x = Float64Array.from(z, (a) => levels[a < -0.5 ? 0 : a < 0.6 ? 1 : 2]);
  const y = Float64Array.from(z, (a, i) => 3 * a + normals(600, 22)[i]);
  const data = makeFrame(
    ['x', 'y'],
    [
      { kind: 'numeric', values: x },
      { kind: 'numeric', values: y },
    ],
  );
  const model = fitGaussianCopula(data, { seed: 1 });

  it('conditions on an atom as on an interval: the row holds the value and the others follow it', () => {
    const hi = sampleGaussianCopula(model, 300, { seed: 1, conditions: { x: 2.5 } });
    const lo = sampleGaussianCopula(model, 300, { seed: 1, conditions: { x: 0.5 } });
    expect(values(hi, 'x').every((v) => v === 2.5)).toBe(true);
    const mean = (f: Frame): number => values(f, 'y').reduce((a, b) => a + b, 0) / f.nrows;
    expect(mean(hi) - mean(lo)).toBeGreaterThan(4);
  });

  it('refuses a value between the ones the column held', () => {
    expect(() => sampleGaussianCopula(model, 10, { seed: 1, conditions: { x: 1 } })).toThrow('Column "x" never held the value 1 (it lies between the values it held)');
  });
});
