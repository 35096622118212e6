import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { categoricalFromStrings } from '../frame';
import { readParquetFrame, readParquetFrameWithin } from './read';

const dir = mkdtempSync(join(tmpdir(), 'read-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function parquet(name: string, rows: number, select: string): Promise<string> {
  const out = join(dir, name);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await conn.run(`COPY (SELECT ${select} FROM range(${rows})) TO '${out}' (FORMAT parquet, ROW_GROUP_SIZE 3000)`);
  conn.closeSync();
  db.closeSync();
  return out;
}

describe('readParquetFrame', () => {
  test('reads numbers, datetimes and categories chunk by chunk as categoricalFromStrings would', async () => {
    // Several chunks (2,048 rows each) and row groups; NULL and '' missing; levels first seen out of order.
    const file = await parquet(
      'types.parquet',
      10_000,
      `CASE WHEN range % 7 = 0 THEN NULL ELSE range * 0.5 END AS x,
       TIMESTAMP '2024-01-01' + INTERVAL (range) MINUTE AS t,
       CASE WHEN range % 5 = 0 THEN NULL WHEN range % 5 = 1 THEN '' ELSE chr(CAST(122 - range % 23 AS INTEGER)) END AS s,
       range % 3 = 0 AS b`,
    );
    const f = await readParquetFrame(file);
    expect(f.nrows).toBe(10_000);
    expect(f.names).toEqual(['x', 't', 's', 'b']);
    const [x, t, s, b] = f.columns;
    if (x.kind !== 'numeric' || t.kind !== 'datetime' || s.kind !== 'categorical' || b.kind !== 'categorical') throw new Error('kinds');
    expect(Number.isNaN(x.values[0])).toBe(true);
    expect(x.values[9999]).toBe(4999.5);
    expect(t.epochMs[1] - t.epochMs[0]).toBe(60_000);
    const strings = Array.from({ length: 10_000 }, (_, i) => (i % 5 === 0 ? null : i % 5 === 1 ? '' : String.fromCharCode(122 - (i % 23))));
    const expected = categoricalFromStrings(strings);
    expect(s.levels).toEqual(expected.levels);
    expect(Array.from(s.codes)).toEqual(Array.from(expected.codes));
    expect(b.levels).toEqual(['false', 'true']);
  });

  test('within a cell budget: a seeded sample of rows, the same each time, in file order', async () => {
    const file = await parquet('tall.parquet', 100_000, 'range AS i, range % 2 AS y');
    const all = await readParquetFrameWithin(file, 1_000_000);
    expect(all).toMatchObject({ fileRows: 100_000, frame: { nrows: 100_000 } });
    const a = await readParquetFrameWithin(file, 20_000);
    const b = await readParquetFrameWithin(file, 20_000);
    expect(a.fileRows).toBe(100_000);
    expect(a.frame.nrows).toBeLessThanOrEqual(10_000);
    expect(a.frame.nrows).toBeGreaterThan(9_500);
    const ids = a.frame.columns[0].kind === 'numeric' ? Array.from(a.frame.columns[0].values) : [];
    expect(ids).toEqual(b.frame.columns[0].kind === 'numeric' ? Array.from(b.frame.columns[0].values) : null);
    expect(ids).toEqual([...ids].sort((p, q) => p - q));
    // Spread over the whole file, not its start.
    expect(ids[ids.length - 1]).toBeGreaterThan(99_000);
  });

  test('a file DuckDB cannot read is a DataError, without its path', async () => {
    const bad = join(dir, 'bad.parquet');
    writeFileSync(bad, 'not parquet at all');
    await expect(readParquetFrame(bad)).rejects.toMatchObject({ name: 'DataError', message: expect.stringContaining("'<file>'") });
  });
});
