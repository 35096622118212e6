import { categoricalFromStrings, detectProblemKind, expandDatetimes, getColumn, makeFrame, prepareFeatures, readCsvFrame } from './frame';
import { datasetPath } from './testutil';

describe('readCsvFrame', () => {
  it('reads a file with a header: numeric, boolean-as-categorical and missing values', async () => {
    const f = await readCsvFrame(datasetPath('titanic.csv'));
    expect(f.nrows).toBe(891);
    expect(f.names.slice(0, 3)).toEqual(['survived', 'pclass', 'sex']);
    const age = getColumn(f, 'age');
    expect(age.kind).toBe('numeric');
    if (age.kind === 'numeric') expect(Array.from(age.values).filter(Number.isNaN).length).toBe(177);
    const adult = getColumn(f, 'adult_male');
    expect(adult.kind).toBe('categorical');
    if (adult.kind === 'categorical') expect(adult.levels).toEqual(['false', 'true']);
    const deck = getColumn(f, 'deck');
    if (deck.kind !== 'categorical') throw new Error('deck should be categorical');
    expect(Array.from(deck.codes).filter((c) => c < 0).length).toBe(688);
  });

  it('names the columns of a header-less file C1..Cn', async () => {
    const f = await readCsvFrame(datasetPath('pima-indians-diabetes.csv'));
    expect(f.nrows).toBe(768);
    expect(f.names).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9']);
    const g = await readCsvFrame(datasetPath('german.csv'));
    expect(g.nrows).toBe(1000);
    expect(g.columns[0].kind).toBe('categorical');
    expect(g.columns[1].kind).toBe('numeric');
  });

  it('reads timestamps as datetime columns and expands them', async () => {
    const f = await readCsvFrame(datasetPath('taxis.csv'), { limit: 50 });
    expect(f.nrows).toBe(50);
    const pickup = getColumn(f, 'pickup');
    expect(pickup.kind).toBe('datetime');
    const e = expandDatetimes(f);
    const names = ['year', 'month', 'day', 'dayofweek', 'hour', 'epoch'].map((p) => `pickup_${p}`);
    for (const n of names) expect(e.names).toContain(n);
    // First row: 2019-03-23 20:21:09, a Saturday (5 with Monday = 0).
    const at = (n: string): number => {
      const c = getColumn(e, n);
      if (c.kind !== 'numeric') throw new Error('expected numeric');
      return c.values[0];
    };
    expect([at('pickup_year'), at('pickup_month'), at('pickup_day'), at('pickup_dayofweek'), at('pickup_hour')]).toEqual([2019, 3, 23, 5, 20]);
    expect(at('pickup_epoch')).toBe(Date.UTC(2019, 2, 23, 20, 21, 9) / 1000);
  });
});

describe('detectProblemKind', () => {
  const num = (v: number[]) => ({ kind: 'numeric' as const, values: Float64Array.from(v) });
  it('detects regression, binary and multiclass', () => {
    expect(detectProblemKind(num([1.5, 2, 3.25, 4]))).toBe('regression');
    expect(detectProblemKind(num([0, 1, 1, 0]))).toBe('binary');
    expect(detectProblemKind(num([1, 2, 3, 4, 5]))).toBe('regression');
    expect(detectProblemKind(num([1, 2, 3, 4, 5]), 'classification')).toBe('multiclass');
    expect(detectProblemKind(num([1, 2, 2, 1]), 'classification')).toBe('binary');
    expect(detectProblemKind(categoricalFromStrings(['a', 'b', 'c']))).toBe('multiclass');
    expect(detectProblemKind(categoricalFromStrings(['a', 'b', null]), 'binary')).toBe('binary');
    expect(detectProblemKind(num([3, 4, 5]), 'multiclass')).toBe('multiclass');
  });
  it('rejects impossible requests', () => {
    expect(() => detectProblemKind(num([1.5, 2.5, 3]), 'classification')).toThrow();
    expect(() => detectProblemKind(num([1, 2, 3]), 'binary')).toThrow();
    expect(() => detectProblemKind(categoricalFromStrings(['a', 'b']), 'regression')).toThrow();
    expect(() => detectProblemKind(num(Array.from({ length: 20 }, (_, i) => i)), 'classification')).toThrow();
  });
});

describe('prepareFeatures', () => {
  it('drops constant and identifier-like columns with a log line each', () => {
    const n = 50;
    const f = makeFrame(
      ['id', 'const', 'code', 'x', 'y'],
      [
        { kind: 'numeric', values: Float64Array.from({ length: n }, (_, i) => i + 1) },
        { kind: 'numeric', values: new Float64Array(n).fill(7) },
        categoricalFromStrings(Array.from({ length: n }, (_, i) => `u${i}`)),
        { kind: 'numeric', values: Float64Array.from({ length: n }, (_, i) => (i * 37) % 11) },
        { kind: 'numeric', values: Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? NaN : i % 2)) },
      ],
    );
    const p = prepareFeatures(f, { target: 'y' });
    expect(p.kind).toBe('binary');
    expect(p.features.names).toEqual(['x']);
    expect(p.dropped).toEqual(['id', 'const', 'code']);
    expect(p.log.some((l) => l.includes('missing target'))).toBe(true);
    expect(p.log.filter((l) => l.startsWith('dropped column'))).toHaveLength(3);
    expect(p.target.y.length).toBe(p.features.nrows);
    expect(p.target.classes).toEqual(['0', '1']);
  });

  it('drops the free-text name of mpg and detects its kind', async () => {
    const f = await readCsvFrame(datasetPath('mpg.csv'));
    const p = prepareFeatures(f, { target: 'mpg' });
    expect(p.kind).toBe('regression');
    expect(p.dropped).toEqual(['name']);
    expect(p.features.names).toEqual(['cylinders', 'displacement', 'horsepower', 'weight', 'acceleration', 'model_year', 'origin']);
  });

  it('encodes categorical targets with dense class indices', async () => {
    const f = await readCsvFrame(datasetPath('penguins.csv'));
    const p = prepareFeatures(f, { target: 'species', kind: 'classification' });
    expect(p.kind).toBe('multiclass');
    expect(p.target.classes).toEqual(['Adelie', 'Chinstrap', 'Gentoo']);
    expect(new Set(p.target.y)).toEqual(new Set([0, 1, 2]));
  });
});
