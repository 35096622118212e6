import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstRecordFields, headerFieldsAtLeast, checkColumnCount, DEFAULT_MAX_COLUMNS } from './column-limit';
import { parquetSource, queryRows, sqlString, withConnection } from './duck';
import { DataValidationError, TooManyColumnsError } from './errors';
import { ingestFile, IngestResult } from './ingest';
import { preview } from './export';
import { analyze } from './profile';
import { qualityReport, QualityReport } from './quality';
import { SNIFF_SAMPLE_BYTES, writeSniffSample } from './sniff-sample';
import { CANONICAL_FORM_KEY, isCanonicalFile } from './table';
import { tempDir } from './test-helpers';

const tmp = tempDir('odd-files-test');
afterAll(() => tmp.cleanup());

let n = 0;
function file(content: string | Buffer, ext = 'csv'): string {
  const p = join(tmp.dir, `f${++n}.${ext}`);
  writeFileSync(p, content);
  return p;
}
const ingest = (content: string, maxColumns?: number): Promise<IngestResult> =>
  ingestFile(file(content), join(tmp.dir, `d${++n}`), maxColumns === undefined ? {} : { maxColumns });

const check = (r: QualityReport, name: string) => {
  const c = r.checks.find((x) => x.name === name);
  if (!c) throw new Error(`no check ${name}`);
  return c;
};

describe('small unusual files (each failed its quality report before)', () => {
  test('no numeric column', async () => {
    const res = await ingest('name,city\nann,paris\nbob,rome\ncid,oslo\n');
    const q = await qualityReport(res.parquet_path);
    expect(q.checks).toHaveLength(7);
    expect(check(q, 'outliers').passed).toBe(true);
    const a = await analyze(res.parquet_path);
    expect(a.columns.city).toMatchObject({ type: 'categorical', unique: 3 });
    expect(a.correlations).toEqual({});
  });

  test('only a date column', async () => {
    const res = await ingest('day\n2024-01-01\n2024-01-02\n2024-02-03\n');
    expect(res.columns).toEqual([{ name: 'day', dtype: 'datetime64' }]);
    const q = await qualityReport(res.parquet_path);
    expect(check(q, 'duplicate_rows').passed).toBe(true);
    const a = await analyze(res.parquet_path);
    expect(a.columns.day).toMatchObject({ unique: 3, min: '2024-01-01T00:00:00.000Z', max: '2024-02-03T00:00:00.000Z' });
  });

  test('an all-empty column, alone with text or beside numbers', async () => {
    const alone = await ingest('name,score\nann,\nbob,\n');
    const q = await qualityReport(alone.parquet_path);
    expect(check(q, 'missing_values').details).toContain('score (100%)');
    expect(check(q, 'constant_columns').details).toBe('Columns with a single value (or none): score.');
    const beside = await ingest('a,b\n1,\n2,\n3,\n');
    expect((await qualityReport(beside.parquet_path)).checks).toHaveLength(7);
    expect((await analyze(beside.parquet_path)).columns.b).toMatchObject({ missing: 3, missing_percent: 100 });
  });

  test('a header without rows is refused, CSV or Parquet', async () => {
    await expect(ingest('a,b,c\n')).rejects.toThrow(new DataValidationError('The file has no data rows'));
    const pq = join(tmp.dir, 'empty.parquet');
    await withConnection((conn) => conn.run(`COPY (SELECT 1 AS a WHERE false) TO ${sqlString(pq)} (FORMAT parquet)`));
    await expect(ingestFile(pq, join(tmp.dir, 'empty-pq'))).rejects.toThrow('The file has no data rows');
  });
});

describe('column limit', () => {
  test('a header past the limit is refused before parsing, with the count it proved', async () => {
    const header = Array.from({ length: 11 }, (_, i) => `c${i}`).join(',');
    const err = await ingest(`${header}\n${'1,'.repeat(10)}1\n`, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyColumnsError);
    expect(err).toBeInstanceOf(DataValidationError);
    expect((err as Error).message).toBe('Too many columns: the file has at least 11 columns; the limit is 10');
  });

  test('the limit itself is accepted, and the default is documented', async () => {
    const header = Array.from({ length: 10 }, (_, i) => `c${i}`).join(',');
    expect((await ingest(`${header}\n${'1,'.repeat(9)}1\n`, 10)).column_count).toBe(10);
    expect(DEFAULT_MAX_COLUMNS).toBe(2000);
    expect(() => checkColumnCount(2000, 2000)).not.toThrow();
  });

  test('when the header cannot prove it, the sniffed count decides; Parquet is counted from its schema', async () => {
    // ';' also splits the header (into 2), so the peek proves only 2 fields.
    const err = await ingest('a;b,c,d\n1,2,3\n', 2).catch((e: unknown) => e);
    expect((err as Error).message).toBe('Too many columns: the file has 3 columns; the limit is 2');
    const pq = join(tmp.dir, 'three.parquet');
    await withConnection((conn) => conn.run(`COPY (SELECT 1 AS a, 2 AS b, 3 AS c) TO ${sqlString(pq)} (FORMAT parquet)`));
    await expect(ingestFile(pq, join(tmp.dir, 'three-pq'), { maxColumns: 2 })).rejects.toThrow('the file has 3 columns; the limit is 2');
  });

  test('header field counts respect quotes and take the smallest split', async () => {
    expect(firstRecordFields('"a,b",c\n1,2\n', ',')).toBe(2);
    expect(firstRecordFields('"x ""y"", z",w', ',')).toBe(2);
    expect(firstRecordFields('a,"multi\nline",b\n', ',')).toBe(3);
    expect(await headerFieldsAtLeast(file('a,b,c,d\n1,2,3,4\n'))).toBe(4);
    expect(await headerFieldsAtLeast(file('a;b,c;d\n'))).toBe(2);
    expect(await headerFieldsAtLeast(file('single\n1\n'))).toBe(1);
  });
});

describe('stored form', () => {
  test('ingest marks its Parquet as canonical; a CSV "nan" is stored as NULL', async () => {
    const res = await ingest('x,y\n1.5,a\nnan,b\n2.5,c\n');
    expect(await withConnection((conn) => isCanonicalFile(conn, res.parquet_path))).toBe(true);
    const raw = await withConnection((conn) => queryRows(conn, `SELECT x FROM ${parquetSource(res.parquet_path)}`));
    expect(raw.map((r) => r.x)).toEqual([1.5, null, 2.5]);
    expect((await analyze(res.parquet_path)).columns.x).toMatchObject({ missing: 1, mean: 2 });
  });

  test('a Parquet file from elsewhere is still read canonically (NaN is missing) in both layouts', async () => {
    const pq = join(tmp.dir, 'foreign.parquet');
    await withConnection((conn) =>
      conn.run(`COPY (SELECT * FROM (VALUES (1.0::DOUBLE, DATE '2024-01-02'), ('nan'::DOUBLE, DATE '2024-01-03'), (3.0, NULL)) t(x, d))
                TO ${sqlString(pq)} (FORMAT parquet)`),
    );
    expect(await withConnection((conn) => isCanonicalFile(conn, pq))).toBe(false);
    for (const layout of ['columns', 'cells'] as const) {
      const a = await analyze(pq, { layout });
      expect(a.columns.x).toMatchObject({ missing: 1, mean: 2, min: 1, max: 3 });
      expect(a.columns.d).toMatchObject({ type: 'categorical', min: '2024-01-02T00:00:00.000Z', missing: 1 });
    }
    expect(await preview(pq, 3)).toEqual([
      { x: 1, d: '2024-01-02T00:00:00.000Z' },
      { x: null, d: '2024-01-03T00:00:00.000Z' },
      { x: 3, d: null },
    ]);
    expect(CANONICAL_FORM_KEY).toBe('mlsvc_form');
  });
});

describe('sniff sample', () => {
  test('cuts at a record boundary past the size, never inside quotes', async () => {
    const rows = ['id,text', ...Array.from({ length: 50 }, (_, i) => `${i},"line a\nline b ${i}"`)];
    const src = file(rows.join('\n') + '\n');
    const out = join(tmp.dir, 'sample.csv');
    expect(await writeSniffSample(src, out, 40)).toBe(true);
    const sample = readFileSync(out, 'utf8');
    expect(sample.length).toBeGreaterThanOrEqual(40);
    expect(sample.endsWith('"\n')).toBe(true);
    expect((sample.match(/"/g) ?? []).length % 2).toBe(0);
    expect(readFileSync(src, 'utf8').startsWith(sample)).toBe(true);
    expect(await writeSniffSample(src, join(tmp.dir, 'none.csv'), 1_000_000)).toBe(false);
  });

  test('a file larger than the sample ingests with the sample-sniffed dialect', async () => {
    const src = join(tmp.dir, 'big-sniff.csv');
    await withConnection((conn) =>
      conn.run(`COPY (SELECT i AS a, 'x' || (i % 7) AS b, i / 4 AS c FROM range(400000) t(i)) TO ${sqlString(src)} (FORMAT csv, DELIMITER ';', HEADER true)`),
    );
    expect(statSync(src).size).toBeGreaterThan(SNIFF_SAMPLE_BYTES);
    const res = await ingestFile(src, join(tmp.dir, 'big-sniff'));
    expect(res).toMatchObject({ delimiter: ';', has_header: true, row_count: 400000, column_count: 3 });
    expect(res.columns.map((c) => c.dtype)).toEqual(['int64', 'category', 'float64']);
  });
});
