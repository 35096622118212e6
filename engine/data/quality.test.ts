import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFile } from './ingest';
import { DEFAULT_QUALITY_POLICY, likelyTarget, qualityReport, QualityReport } from './quality';
import { dataset, tempDir } from './test-helpers';

const tmp = tempDir('quality-test');
afterAll(() => tmp.cleanup());

async function reportFor(csvPathOrContent: string, isContent = false): Promise<QualityReport> {
  let src = csvPathOrContent;
  if (isContent) {
    src = join(tmp.dir, `${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(src, csvPathOrContent);
  }
  const res = await ingestFile(src, join(tmp.dir, Math.random().toString(36).slice(2)));
  return qualityReport(res.parquet_path);
}

const check = (r: QualityReport, name: string) => {
  const c = r.checks.find((x) => x.name === name);
  if (!c) throw new Error(`no check ${name}`);
  return c;
};

test('titanic: deck is mostly missing, duplicates exceed 5%, the column named class is the target', async () => {
  const r = await reportFor(dataset('titanic'));
  expect(check(r, 'missing_values')).toMatchObject({ passed: false });
  expect(check(r, 'missing_values').details).toContain('deck (77.2%)');
  expect(check(r, 'missing_values').details).not.toContain('embarked');
  expect(check(r, 'duplicate_rows')).toMatchObject({ passed: false, details: expect.stringContaining('107 of 891 rows (12%)') });
  expect(r.target).toBe('class');
  expect(r.checks).toHaveLength(7);
  expect(r.overall_score).toBe(Math.round((r.checks.filter((c) => c.passed).length / 7) * 1000) / 10);
});

test('mpg: the free-text name column is flagged as an identifier', async () => {
  const r = await reportFor(dataset('mpg'));
  expect(check(r, 'high_cardinality_identifiers')).toMatchObject({ passed: false, details: expect.stringContaining('name (') });
  expect(check(r, 'missing_values').passed).toBe(true);
});

test('winequality: rare classes in the int64 last column fail class balance', async () => {
  const r = await reportFor(dataset('winequality-red'));
  expect(r.target).toBe('column_12');
  expect(check(r, 'class_imbalance')).toMatchObject({ passed: false, details: expect.stringContaining('Target column_12 has 6 classes; the rarest has 10 rows') });
});

test('constant, mixed-type and named target columns', async () => {
  const rows = ['id,const,amount,label,f'];
  for (let i = 0; i < 40; i++) rows.push(`${i},same,${i === 7 ? 'n/a' : i * 1.5},${i < 36 ? 'yes' : 'no'},${i % 4}`);
  const r = await reportFor(rows.join('\n') + '\n', true);
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
