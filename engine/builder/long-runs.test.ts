/**
 * What the 1 GB benchmark (bench/builder/README.md) found, on small tables: progress reported from inside a long
 * statement, a row-changing operation computed once however many later queries read its result, and the rows after
 * each operation in the summary.
 */
import { join } from 'node:path';
import { DuckDBConnection } from '@duckdb/node-api';
import { executeOperations } from './execute';
import { OperationInput, operationSchema } from './operations';
import { column, parquetOf, tempDir } from './test-helpers';

const tmp = tempDir('builder-long');
afterAll(() => tmp.cleanup());
afterEach(() => jest.restoreAllMocks());

let n = 0;
const run = (input: string, list: OperationInput[], extra: { onProgress?: (done: number, total: number, message: string) => void; progressEveryMs?: number } = {}) =>
  executeOperations({ input, output: join(tmp.dir, `out-${++n}.parquet`), operations: list.map((o) => operationSchema.parse(o)), ...extra });

/** Eight rows, one a full duplicate of another, with text dates, a missing amount and three colours. */
const SMALL = `SELECT * FROM (VALUES
  (1, 10.0, 'red', '05/01/2024'), (2, 12.0, 'blue', '13/01/2024'), (3, NULL, 'red', '07/01/2024'),
  (4, 11.0, 'green', '08/01/2024'), (5, 13.0, 'red', '09/01/2024'), (6, 1000.0, NULL, '10/01/2024'),
  (7, 12.0, 'blue', '11/01/2024'), (7, 12.0, 'blue', '11/01/2024')
) t(id, amount, color, day)`;

/** The recipe of the benchmark: a deduplication, then three operations that compute statistics on its result. */
const DEDUP_THEN_STATISTICS: OperationInput[] = [
  { op: 'deduplicate' },
  { op: 'parse_dates', column: 'day' },
  { op: 'impute', column: 'amount', strategy: 'median', indicator: true },
  { op: 'one_hot_encode', column: 'color', max_categories: 5 },
];

test('a long statement reports its progress while it runs (DuckDB percentage, "deduplicate: 43 %")', async () => {
  // 3M rows of 32-character text with ~1/3 repeated: the deduplication's GROUP BY runs for a while.
  const big = await parquetOf(tmp.dir, 'big', `SELECT i % 2000000 AS k, md5(CAST(i % 2000000 AS VARCHAR)) AS h, (i % 2000000) % 7 AS g FROM range(3000000) t(i)`);
  const reports: { done: number; total: number; message: string }[] = [];
  const summary = await run(big, [{ op: 'deduplicate' }], { progressEveryMs: 10, onProgress: (done, total, message) => reports.push({ done, total, message }) });
  expect(summary.rows_after).toBe(2_000_000);
  const during = reports.filter((r) => /^deduplicate: \d+ %$/.test(r.message));
  expect(during.length).toBeGreaterThan(0);
  for (const r of during) {
    expect(r.done).toBe(0);
    expect(r.total).toBe(2);
    const pct = Number(/(\d+) %/.exec(r.message)![1]);
    expect(pct).toBeGreaterThanOrEqual(0);
    expect(pct).toBeLessThanOrEqual(100);
  }
  // Reported between the operation's start and the writing of the result, in order.
  const at = (m: string | RegExp) => reports.findIndex((r) => (typeof m === 'string' ? r.message === m : m.test(r.message)));
  expect(at('Operation 1 of 1: deduplicate')).toBeLessThan(at(/^deduplicate: \d+ %$/));
  expect(at(/^deduplicate: \d+ %$/)).toBeLessThan(at('Writing the result'));
  expect(reports[reports.length - 1]).toEqual({ done: 2, total: 2, message: 'Done' });
}, 120_000);

test('a run shorter than the default interval reports only between operations', async () => {
  const small = await parquetOf(tmp.dir, 'small-quiet', SMALL);
  const reports: string[] = [];
  await run(small, [{ op: 'deduplicate' }], { onProgress: (_d, _t, m) => reports.push(m) });
  // The default interval (2 s) is longer than this run: no statement report.
  expect(reports).toEqual(['Operation 1 of 1: deduplicate', 'Writing the result', 'Done']);
});

test('a deduplication is computed once: into a table the later statistics queries and the COPY read', async () => {
  const small = await parquetOf(tmp.dir, 'small-once', SMALL);
  const statements: string[] = [];
  const record = <A extends unknown[], R>(fn: (this: DuckDBConnection, sql: string, ...rest: A) => R) =>
    function (this: DuckDBConnection, sql: string, ...rest: A): R {
      statements.push(sql);
      return fn.call(this, sql, ...rest);
    };
  // Every statement of the engine goes through run or runAndReadAll (duck.ts queryRows); neither calls the other.
  const { run: runOriginal, runAndReadAll: readAllOriginal } = DuckDBConnection.prototype;
  jest.spyOn(DuckDBConnection.prototype, 'run').mockImplementation(record(runOriginal));
  jest.spyOn(DuckDBConnection.prototype, 'runAndReadAll').mockImplementation(record(readAllOriginal));
  const summary = await run(small, DEDUP_THEN_STATISTICS);
  expect(summary.rows_after).toBe(7);

  // The deduplication's aggregate (the first row of each group) appears in one statement, which creates a table: a
  // table is computed when created, a view each time it is read.
  const dedup = statements.filter((s) => /GROUP BY/.test(s) && /min\(/.test(s));
  expect(dedup).toHaveLength(1);
  expect(dedup[0]).toMatch(/^CREATE OR REPLACE TEMP TABLE "v1" AS /);
  expect(statements.filter((s) => /VIEW/.test(s) && /GROUP BY/.test(s))).toEqual([]);
  // The three statistics queries read that table (the date format, the median, the categories), and so does the chain
  // the COPY writes from.
  expect(statements.filter((s) => !/^CREATE/.test(s) && /FROM "v1"/.test(s)).length).toBeGreaterThanOrEqual(3);
  expect(statements.filter((s) => /^CREATE OR REPLACE TEMP VIEW "v2" AS .*FROM "v1"/s.test(s))).toHaveLength(1);
  expect(statements.filter((s) => /^COPY/.test(s))).toHaveLength(1);

  // And the result is the deduplicated table: the duplicate of row 7 gone, the rest in file order.
  const out = join(tmp.dir, `out-${n}.parquet`);
  expect(await column(out, 'id')).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(await column(out, 'amount_missing')).toEqual([0, 0, 1, 0, 0, 0, 0]);
});

test('rows after each operation: the deduplicated count for every operation after a deduplication', async () => {
  const small = await parquetOf(tmp.dir, 'small-rows', SMALL);
  const summary = await run(small, DEDUP_THEN_STATISTICS);
  expect(summary.rows_before).toBe(8);
  expect(summary.operations).toEqual([
    { op: 'deduplicate', rows_after: 7 },
    { op: 'parse_dates', rows_after: 7 },
    { op: 'impute', rows_after: 7 },
    { op: 'one_hot_encode', rows_after: 7 },
  ]);
  // Two row changes with operations between and after them: each count is the one of the latest change.
  const mixed = await run(small, [
    { op: 'filter_rows', condition: 'id > 1' },
    { op: 'derive', name: 'twice', expression: 'amount * 2' },
    { op: 'deduplicate' },
    { op: 'impute', column: 'amount', strategy: 'mean' },
    { op: 'handle_outliers', column: 'amount', method: 'iqr', action: 'drop_rows' },
    { op: 'derive', name: 'half', expression: 'amount / 2' },
  ]);
  expect(mixed.operations.map((o) => o.rows_after)).toEqual([7, 7, 6, 6, 5, 5]);
  expect(mixed.rows_after).toBe(5);
});
