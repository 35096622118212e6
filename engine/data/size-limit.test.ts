import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import { aggregateInBatches, EXACT_QUANTILE_VALUES, quantileSql, sqlString, withConnection } from './duck';
import { TooManyCellsError, TooManyRowsError } from './errors';
import { ingestFile } from './ingest';
import { analyze } from './profile';
import { checkSize, mayHaveMoreRows, rowLimit } from './size-limit';
import { tempDir } from './test-helpers';

const tmp = tempDir('size-limit-test');
afterAll(() => tmp.cleanup());

let n = 0;
const path = (ext: string) => join(tmp.dir, `f${++n}.${ext}`);

/** A ZSTD Parquet file of `rows` rows of `select`: constants make a bomb of a few KB. */
async function parquet(rows: number, select = `1 AS a, 'x' AS b`): Promise<string> {
  const out = path('parquet');
  await withConnection((conn) => conn.run(`COPY (SELECT ${select} FROM range(${rows})) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`));
  return out;
}

describe('the limits', () => {
  test('rows allowed under both limits, and the refusals naming them', () => {
    expect(rowLimit(3, { maxRows: 1000, maxCells: 1500 })).toBe(500);
    expect(rowLimit(1, { maxRows: 1000, maxCells: 1500 })).toBe(1000);
    expect(() => checkSize(1001, 1, { maxRows: 1000, maxCells: 10_000 })).toThrow(new TooManyRowsError(1001, 1000));
    expect(() => checkSize(600, 3, { maxRows: 1000, maxCells: 1500 })).toThrow('Too many cells: the file has 600 rows × 3 columns = 1800 cells; the limit is 1500 cells');
    expect(() => checkSize(500, 3, { maxRows: 1000, maxCells: 1500 })).not.toThrow();
  });

  test('a CSV may exceed a row count only with at least that many line feeds', async () => {
    const p = path('csv');
    writeFileSync(p, 'a\n1\n2\n3');
    expect(await mayHaveMoreRows(p, 4)).toBe(false); // 3 line feeds: at most 4 records
    expect(await mayHaveMoreRows(p, 3)).toBe(true);
    expect(await mayHaveMoreRows(p, 100)).toBe(false); // fewer bytes than rows: not read
  });
});

describe('ingest', () => {
  test('a Parquet bomb is refused from its footer, before its rows are read, and leaves nothing', async () => {
    // 60M rows in a few hundred KB: converting them takes many seconds, the footer a few milliseconds.
    const bomb = await parquet(60_000_000);
    const dest = join(tmp.dir, 'bomb');
    const t0 = Date.now();
    await expect(ingestFile(bomb, dest)).rejects.toThrow(new TooManyRowsError(60_000_000, 50_000_000));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(readdirSync(dest)).toEqual([]);
    await expect(ingestFile(bomb, dest, { maxRows: 100_000_000, maxCells: 100_000_000 })).rejects.toThrow(TooManyCellsError);
  });

  test('a CSV past the limits stops converting one row past them and leaves nothing', async () => {
    const csv = path('csv');
    writeFileSync(csv, 'a,b\n' + '1,x\n'.repeat(5001));
    const dest = join(tmp.dir, 'tall-csv');
    await expect(ingestFile(csv, dest, { maxRows: 5000 })).rejects.toThrow('Too many rows: the file has more than 5000 rows; the limit is 5000');
    await expect(ingestFile(csv, dest, { maxCells: 9000 })).rejects.toThrow('Too many cells: the file has more than 4500 rows × 2 columns; the limit is 9000 cells');
    expect(readdirSync(dest)).toEqual([]);
    const ok = await ingestFile(csv, join(tmp.dir, 'csv-ok'), { maxRows: 5001, maxCells: 10_002 });
    expect(ok.row_count).toBe(5001);
    expect(existsSync(ok.parquet_path)).toBe(true);
  });
});

describe('bounded quantiles', () => {
  test('exact up to EXACT_QUANTILE_VALUES rows, estimated past them', () => {
    expect(quantileSql('x', '0.5', EXACT_QUANTILE_VALUES)).toBe('quantile_cont(x, 0.5)');
    expect(quantileSql('x', '0.5', EXACT_QUANTILE_VALUES + 1)).toBe('approx_quantile(CAST(x AS DOUBLE), 0.5)');
  });

  test("aggregateInBatches keeps a query's exact quantile states within the budget", async () => {
    const queries: string[] = [];
    const row = await withConnection(async (conn) => {
      const counting = new Proxy(conn, {
        get: (target, key) =>
          key === 'runAndReadAll'
            ? (sql: string) => {
                queries.push(sql);
                return target.runAndReadAll(sql);
              }
            : Reflect.get(target, key),
      }) as DuckDBConnection;
      const items = [0, 1, 2, 3, 4].map((i) => ({ sql: `quantile_cont(range + ${i}, 0.5) AS q${i}`, columns: [] }));
      // Two states of rows/2 values each fit one query: five need three queries.
      return aggregateInBatches(counting, [...items, { sql: 'count(*) AS n', columns: [] }], 'range(10)', { rows: EXACT_QUANTILE_VALUES / 2 });
    });
    expect(queries).toHaveLength(3);
    expect(Number(row.q4)).toBe(8.5);
    expect(Number(row.n)).toBe(10);
  });

  test('a table taller than EXACT_QUANTILE_VALUES is profiled with estimated percentiles', async () => {
    const tall = await parquet(EXACT_QUANTILE_VALUES + 1, 'range % 100 AS a');
    const p = await analyze(tall);
    expect(p.percentiles_approximate).toBe(true);
    const a = p.columns.a;
    if (a.type !== 'numeric') throw new Error('a is numeric');
    expect(a.percentiles.p50).toBeGreaterThan(48);
    expect(a.percentiles.p50).toBeLessThan(51);
    expect(a.mean).toBeCloseTo(49.5, 3);
    const small = await analyze(await parquet(1000, 'range % 100 AS a'));
    expect(small.percentiles_approximate).toBe(false);
  });

  test('a corrupt file is a DataValidationError without its path', async () => {
    const bad = path('parquet');
    writeFileSync(bad, 'PAR1 not really PAR1');
    await expect(analyze(bad)).rejects.toThrow("The stored dataset cannot be read: Invalid Input Error: Footer length error in file '<file>'");
  });
});
