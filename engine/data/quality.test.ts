import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFile } from './ingest';
import { withConnection } from './duck';
import { DEFAULT_QUALITY_POLICY, likelyTarget, QUALITY_SAMPLE_ROWS, qualityReport, QualityReport } from './quality';
import { dataset, tempDir } from './test-helpers';

const tmp = tempDir('quality-test');
afterAll(() => tmp.cleanup());

async function reportFor(csvPathOrContent: string, isContent = false, target: string | null = null): Promise<QualityReport> {
  let src = csvPathOrContent;
  if (isContent) {
    src = join(tmp.dir, `${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(src, csvPathOrContent);
  }
  const res = await ingestFile(src, join(tmp.dir, Math.random().toString(36).slice(2)));
  return qualityReport(res.parquet_path, {}, { target });
}

const check = (r: QualityReport, name: string) => {
  const c = r.checks.find((x) => x.name === name);
  if (!c) throw new Error(`no check ${name}`);
  return c;
};

test('titanic: deck is mostly missing, duplicates exceed 5%, class balance needs a target and is not guessed', async () => {
  const r = await reportFor(dataset('titanic'));
  expect(check(r, 'missing_values')).toMatchObject({ passed: false });
  expect(check(r, 'missing_values').details).toContain('deck (77.2%)');
  expect(check(r, 'missing_values').details).not.toContain('embarked');
  expect(check(r, 'duplicate_rows')).toMatchObject({ passed: false, details: expect.stringContaining('107 of 891 rows (12%)') });
  expect(r.target).toBeNull();
  expect(r.checks).toHaveLength(7);
  expect(check(r, 'class_imbalance')).toMatchObject({ needs_target: true, details: expect.stringContaining('Needs a target') });
  // The check not computed is not in the score.
  expect(r.overall_score).toBe(Math.round((r.checks.filter((c) => c.passed && !c.needs_target).length / 6) * 1000) / 10);
  const named = await reportFor(dataset('titanic'), false, 'survived');
  expect(named.target).toBe('survived');
  expect(check(named, 'class_imbalance')).toMatchObject({ details: expect.stringContaining('Target survived has 2 classes') });
  expect(check(named, 'class_imbalance').needs_target).toBeUndefined();
  await expect(reportFor(dataset('titanic'), false, 'nope')).rejects.toThrow('Unknown target column: nope');
});

test('mpg: the free-text name column is flagged as an identifier', async () => {
  const r = await reportFor(dataset('mpg'));
  expect(check(r, 'high_cardinality_identifiers')).toMatchObject({ passed: false, details: expect.stringContaining('name (') });
  expect(check(r, 'missing_values').passed).toBe(true);
});

test('winequality: rare classes in the int64 last column fail class balance', async () => {
  const r = await reportFor(dataset('winequality-red'), false, 'column_12');
  expect(r.target).toBe('column_12');
  expect(check(r, 'class_imbalance')).toMatchObject({ passed: false, details: expect.stringContaining('Target column_12 has 6 classes; the rarest has 10 rows') });
});

test('constant, mixed-type and named target columns', async () => {
  const rows = ['id,const,amount,label,f'];
  for (let i = 0; i < 40; i++) rows.push(`${i},same,${i === 7 ? 'n/a' : i * 1.5},${i < 36 ? 'yes' : 'no'},${i % 4}`);
  const r = await reportFor(rows.join('\n') + '\n', true, 'label');
  expect(check(r, 'constant_columns')).toMatchObject({ passed: false, details: 'Columns with a single value (or none): const.' });
  expect(check(r, 'mixed_types')).toMatchObject({ passed: false, details: expect.stringContaining('amount (97.5% numeric)') });
  expect(check(r, 'high_cardinality_identifiers').details).toContain('id (100% distinct)');
  expect(r.target).toBe('label');
  expect(check(r, 'class_imbalance')).toMatchObject({ passed: false, details: expect.stringContaining('rarest has 4 rows') });
});

test('policy overrides thresholds; defaults are documented values', async () => {
  expect(DEFAULT_QUALITY_POLICY.max_missing_percent).toBe(20);
  const res = await ingestFile(dataset('titanic'), join(tmp.dir, 'titanic-policy'));
  const r = await qualityReport(res.parquet_path, { max_missing_percent: 80, max_duplicate_percent: 15 });
  expect(check(r, 'missing_values').passed).toBe(true);
  expect(check(r, 'duplicate_rows').passed).toBe(true);
  expect(likelyTarget(['a', 'Target', 'b'])).toBe('Target');
});

test('a table past the sample size: exact missing counts, duplicates and distinct shares estimated and labelled', async () => {
  // 300k distinct rows plus copies of the first 30k (9.1% duplicates). txt repeats every 100k rows: 30% distinct,
  // although a row sample would show it nearly all distinct; code is distinct per source row (91%).
  const src = join(tmp.dir, 'big.csv');
  await withConnection((conn) =>
    conn.run(
      `COPY (SELECT i AS id, 'v' || (i % 100000) AS txt, 'c' || i AS code, CASE WHEN i % 10 < 3 THEN NULL ELSE i * 0.5 END AS amount
             FROM (SELECT * FROM range(300000) t(i) UNION ALL SELECT * FROM range(30000) t(i)) ORDER BY i)
       TO '${src}' (FORMAT csv, HEADER true)`,
    ),
  );
  const res = await ingestFile(src, join(tmp.dir, 'big'));
  const r = await qualityReport(res.parquet_path);
  expect(r.sample_rows).toBeGreaterThan(QUALITY_SAMPLE_ROWS * 0.8);
  expect(r.sample_rows).toBeLessThan(QUALITY_SAMPLE_ROWS * 1.2);
  expect(check(r, 'missing_values').details).toBe('Columns with more than 20% missing values: amount (30%).');
  const dup = check(r, 'duplicate_rows');
  expect(dup.passed).toBe(false);
  const pct = Number(/\(([\d.]+)%\) duplicate/.exec(dup.details)?.[1]);
  expect(pct).toBeGreaterThan(8);
  expect(pct).toBeLessThan(10.2);
  expect(dup.details).toMatch(/^About \d+ of 330000 rows .* Estimated from a sample of \d+ of 330000 rows\.$/);
  const ids = check(r, 'high_cardinality_identifiers').details;
  expect(ids).toMatch(/code \((8\d|9\d)(\.\d)?% distinct\)/);
  expect(ids).not.toContain('txt');
  expect(ids).not.toContain('id (');
  expect(ids).toContain('Estimated from a sample');
  expect(check(r, 'constant_columns').passed).toBe(true);
  expect((await reportFor('a,b\n1,x\n2,y\n', true)).sample_rows).toBeNull();
});
