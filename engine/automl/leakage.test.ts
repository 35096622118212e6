import { categoricalFromStrings, makeFrame, readCsvFrame, type Column } from './frame';
import { detectLeakage } from './leakage';
import { Rng } from './random';
import { datasetPath } from './testutil';

const num = (values: ArrayLike<number>): Column => ({ kind: 'numeric', values: Float64Array.from(values) });

describe('detectLeakage', () => {
  it("names titanic's alive (the target under another name) for survived, and nothing else", async () => {
    const frame = await readCsvFrame(datasetPath('titanic.csv'));
    const found = detectLeakage(frame, 'survived', 'binary');
    expect(found.map((f) => f.column)).toEqual(['alive']);
    expect(found[0]).toMatchObject({ measure: 'auc' });
    expect(found[0].score).toBeGreaterThan(0.99);
    expect(found[0].message).toContain('alive alone predicts survived almost perfectly');
  });

  it('finds nothing once the leaking column is gone', async () => {
    const frame = await readCsvFrame(datasetPath('titanic.csv'));
    const keep = frame.names.map((n, j) => [n, j] as const).filter(([n]) => n !== 'alive');
    const without = makeFrame(
      keep.map(([n]) => n),
      keep.map(([, j]) => frame.columns[j]),
    );
    expect(detectLeakage(without, 'survived', 'binary')).toEqual([]);
  });

  it('scores each class one-vs-rest for multiclass: a recoded species leaks, the island does not', async () => {
    const frame = await readCsvFrame(datasetPath('penguins.csv'));
    const species = frame.columns[frame.names.indexOf('species')];
    if (species.kind !== 'categorical') throw new Error('species is categorical');
    const code = categoricalFromStrings(Array.from(species.codes, (c) => (c < 0 ? null : `S${c}`)));
    const withCopy = makeFrame([...frame.names, 'species_code'], [...frame.columns, code]);
    const found = detectLeakage(withCopy, 'species', 'multiclass');
    expect(found.map((f) => f.column)).toContain('species_code');
    expect(found.map((f) => f.column)).not.toContain('island');
  });

  it('catches a monotone copy of a regression target (R²) but not an honest noisy feature', () => {
    const rng = new Rng(7);
    const n = 2000;
    const y = Array.from({ length: n }, () => rng.next() * 100);
    const frame = makeFrame(['y', 'y_scaled', 'noisy'], [num(y), num(y.map((v) => Math.exp(v / 20))), num(y.map((v) => v + (rng.next() - 0.5) * 60))]);
    const found = detectLeakage(frame, 'y', 'regression');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ column: 'y_scaled', measure: 'r2' });
    expect(found[0].score).toBeGreaterThan(0.98);
  });

  it('catches an exact functional dependence that single-feature scores miss, and ignores identifiers', () => {
    const rng = new Rng(3);
    // 300 codes seen twice each, the target a random value per code: out of fold each row sees its twin only
    // sometimes, so R² stays low, but every repeated code goes with one target value.
    const codes = Array.from({ length: 600 }, (_, i) => `c${i % 300}`);
    const perCode = Array.from({ length: 300 }, () => rng.next());
    const y = codes.map((_, i) => perCode[i % 300]);
    const frame = makeFrame(['y', 'code', 'row_name'], [num(y), categoricalFromStrings(codes), categoricalFromStrings(codes.map((_, i) => `row ${i}`))]);
    const found = detectLeakage(frame, 'y', 'regression');
    expect(found.map((f) => [f.column, f.measure])).toEqual([['code', 'functional_dependence']]);
    expect(found[0].score).toBe(1);
  });

  it('does not call values that repeat only among the majority class a dependence', () => {
    const rng = new Rng(5);
    const n = 3000;
    // A rare positive class on unique amounts, negatives on 50 repeated amounts: "pure" groups, no prediction.
    const y = Array.from({ length: n }, (_, i) => (i % 100 === 0 ? 1 : 0));
    const amount = y.map((v, i) => (v === 1 ? 10_000 + i + rng.next() : Math.floor(rng.next() * 50)));
    const other = y.map(() => rng.next());
    const frame = makeFrame(['y', 'amount', 'other'], [num(y), num(amount), num(other)]);
    const found = detectLeakage(frame, 'y', 'binary').filter((f) => f.measure === 'functional_dependence');
    expect(found).toEqual([]);
  });

  it('scores at most the sample size and is deterministic', async () => {
    const frame = await readCsvFrame(datasetPath('diamonds.csv'));
    const a = detectLeakage(frame, 'price', 'regression', { sampleRows: 1000 });
    const b = detectLeakage(frame, 'price', 'regression', { sampleRows: 1000 });
    expect(a).toEqual(b);
    for (const f of a) expect(f.message).toContain('1000 sampled rows');
  });
});
