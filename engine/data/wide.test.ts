import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGGREGATES_PER_QUERY, aggregateInBatches, DISTINCT_AGGREGATES_PER_QUERY, withConnection, xorAll } from './duck';
import { ingestFile, rowGroupRows } from './ingest';
import { statsLayout } from './numeric-stats';
import { analyze, DatasetProfile, MAX_CORRELATION_COLUMNS } from './profile';
import { qualityReport } from './quality';
import { dataset, tempDir } from './test-helpers';

const tmp = tempDir('wide-test');
afterAll(() => tmp.cleanup());

/** A CSV of `cols` columns and `rows` rows; `cell(i, j)` gives row i, column j. */
function csv(name: string, cols: number, rows: number, cell: (i: number, j: number) => string, header = (j: number) => `c${j}`): string {
  const p = join(tmp.dir, name);
  const lines = [Array.from({ length: cols }, (_, j) => header(j)).join(',')];
  for (let i = 0; i < rows; i++) lines.push(Array.from({ length: cols }, (_, j) => cell(i, j)).join(','));
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

/** Every number of `a` equals `b`'s within `rel`, every other value exactly. */
function expectSameProfile(a: DatasetProfile, b: DatasetProfile, rel = 1e-9): void {
  const walk = (x: unknown, y: unknown, at: string): void => {
    if (typeof x === 'number' && typeof y === 'number') {
      if (Math.abs(x - y) > rel * Math.max(Math.abs(x), Math.abs(y)) + 1e-12) throw new Error(`${at}: ${x} vs ${y}`);
    } else if (x !== null && typeof x === 'object' && y !== null && typeof y === 'object') {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of keys) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${at}.${k}`);
    } else if (x !== y) {
      throw new Error(`${at}: ${String(x)} vs ${String(y)}`);
    }
  };
  walk(a, b, 'profile');
}

describe('statistics layouts agree', () => {
  // taxis: datetimes and text; titanic: booleans, categories, missing values; diamonds: 54k rows, precision.
  for (const name of ['taxis', 'titanic', 'diamonds']) {
    test(`${name}: by column and by cell give the same profile, histograms exactly`, async () => {
      const res = await ingestFile(dataset(name), join(tmp.dir, `layout-${name}`));
      const byColumn = await analyze(res.parquet_path, { layout: 'columns' });
      const byCell = await analyze(res.parquet_path, { layout: 'cells' });
      expectSameProfile(byColumn, byCell);
      for (const [col, p] of Object.entries(byColumn.columns)) {
        if (p.type === 'numeric') expect({ col, h: (byCell.columns[col] as typeof p).histogram }).toEqual({ col, h: p.histogram });
      }
    });
  }

  test('the shape picks the layout', () => {
    expect(statsLayout(10, 10_000_000)).toBe('columns');
    expect(statsLayout(63, 20)).toBe('columns');
    expect(statsLayout(64, 20)).toBe('cells');
    expect(statsLayout(2000, 1000)).toBe('cells');
    expect(statsLayout(2000, 100_000)).toBe('columns');
  });
});

describe('wide tables', () => {
  test('2,000 numeric columns × 20 rows: quality and analyze in bounded time, correlations capped', async () => {
    const src = csv('wide.csv', 2000, 20, (i, j) => String(((i * 31 + j * 17) % 97) / 4));
    const t0 = Date.now();
    const res = await ingestFile(src, join(tmp.dir, 'wide'));
    expect(res).toMatchObject({ row_count: 20, column_count: 2000 });
    const q = await qualityReport(res.parquet_path);
    expect(q.checks).toHaveLength(7);
    const a = await analyze(res.parquet_path);
    // ~4 s together on the 2-core test machine; before: quality past 20 GB of memory, analyze out of DuckDB memory.
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(Object.keys(a.columns)).toHaveLength(2000);
    expect(Object.keys(a.correlations)).toHaveLength(MAX_CORRELATION_COLUMNS);
    expect(a.correlations_omitted).toEqual(Array.from({ length: 1900 }, (_, j) => `c${j + 100}`));
    expect(Object.keys(a.correlations.c0)).toHaveLength(MAX_CORRELATION_COLUMNS);
    // Spot-check one column against its values.
    const values = Array.from({ length: 20 }, (_, i) => ((i * 31 + 1999 * 17) % 97) / 4);
    const mean = values.reduce((s, v) => s + v, 0) / 20;
    expect(a.columns.c1999).toMatchObject({ type: 'numeric', missing: 0, min: Math.min(...values), max: Math.max(...values) });
    expect((a.columns.c1999 as { mean: number }).mean).toBeCloseTo(mean, 10);
    expect(a.duplicate_rows).toBe(0);
  });

  test('wide text, dates and booleans: past 1,000 columns the CSV is converted from Parquet', async () => {
    const kinds = ['date', 'text', 'bool', 'int'];
    const src = csv(
      'wide-mixed.csv',
      1200,
      30,
      (i, j) => {
        const k = kinds[j % 4];
        if (k === 'date') return `2024-0${1 + (i % 9)}-1${i % 10}`;
        if (k === 'text') return `v${(i * j) % 5}`;
        if (k === 'bool') return i % 3 === 0 ? 'true' : 'false';
        return String(i * j);
      },
      (j) => `${kinds[j % 4]}${j}`,
    );
    const res = await ingestFile(src, join(tmp.dir, 'wide-mixed'));
    expect(res.column_count).toBe(1200);
    expect(res.columns.slice(0, 4).map((c) => c.dtype)).toEqual(['datetime64', 'category', 'bool', 'int64']);
    const q = await qualityReport(res.parquet_path);
    expect(q.checks).toHaveLength(7);
    const a = await analyze(res.parquet_path);
    expect(a.columns.date0).toMatchObject({ type: 'categorical', min: '2024-01-10T00:00:00.000Z', missing: 0 });
    expect(a.columns.bool2).toMatchObject({ unique: 2, top_values: { false: 20, true: 10 } });
    expect(a.columns.int1199).toMatchObject({ type: 'numeric', dtype: 'int64', min: 0, max: 29 * 1199 });
  });

  test('a row hash over more than 1,000 columns stays within DuckDB\'s expression depth', async () => {
    expect(xorAll(['a', 'b', 'c', 'd'])).toBe('xor(xor(a, b), xor(c, d))');
    const hashes = Array.from({ length: 1500 }, (_, j) => `hash(${j})`);
    const chained = hashes.reduce((acc, h) => `xor(${acc}, ${h})`);
    await withConnection(async (conn) => {
      await expect(conn.run(`SELECT ${chained} AS h`)).rejects.toThrow(/depth/i);
      const [row] = (await conn.runAndReadAll(`SELECT ${xorAll(hashes)} AS h`)).getRowObjects();
      expect(typeof row.h).toBe('bigint');
    });
  });

  test('only tables of many values get smaller row groups', () => {
    expect(rowGroupRows(10, 10_000_000)).toBe(122_880);
    expect(rowGroupRows(2000, 1000)).toBe(122_880);
    expect(rowGroupRows(100, 1_000_000)).toBe(40_000);
    expect(rowGroupRows(2000, 25_000)).toBe(2048);
  });
});

test('aggregates run in bounded batches and merge into one row', async () => {
  const items = Array.from({ length: AGGREGATES_PER_QUERY + 10 }, (_, k) => ({ sql: `sum(i + ${k}) AS s${k}`, columns: [] }));
  const distinct = Array.from({ length: DISTINCT_AGGREGATES_PER_QUERY + 3 }, (_, k) => ({ sql: `count(DISTINCT i % ${k + 1}) AS d${k}`, columns: [] }));
  const seen: string[][] = [];
  const row = await withConnection((conn) =>
    aggregateInBatches(conn, [...items, ...distinct], (columns) => {
      seen.push(columns);
      return 'range(10) t(i)';
    }),
  );
  expect(seen.length).toBe(3);
  expect(Number(row.s0)).toBe(45);
  expect(Number(row[`s${AGGREGATES_PER_QUERY + 9}`])).toBe(45 + 10 * (AGGREGATES_PER_QUERY + 9));
  expect(Number(row.d0)).toBe(1);
  expect(Number(row[`d${DISTINCT_AGGREGATES_PER_QUERY + 2}`])).toBe(10);
});
