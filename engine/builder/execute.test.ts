import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withConnection } from '../data/duck';
import { DataValidationError } from '../data/errors';
import { analyze } from '../data/profile';
import { qualityReport } from '../data/quality';
import { isCanonicalFile, openCanonical } from '../data/table';
import { OperationError } from './errors';
import { executeOperations } from './execute';
import { OperationInput, operationSchema } from './operations';
import { column, parquetOf, readRows, tempDir } from './test-helpers';

const tmp = tempDir('builder-exec');
afterAll(() => tmp.cleanup());

/** Eight rows: a missing amount, an outlier (1000), dates as text (one bad), a full duplicate (the last row). */
const BASE = `SELECT * FROM (VALUES
  (1, 10.0, 'red', '2024-01-05', '05/01/2024', 'a-b-c', TRUE, '  Hello   World ', '1'),
  (2, 12.0, 'blue', '2024-01-06', '13/01/2024', 'a-b', FALSE, 'x', '2'),
  (3, NULL, 'red', '2024-01-07', '07/01/2024', 'a', TRUE, '   ', '3'),
  (4, 11.0, 'green', 'not a date', '08/01/2024', NULL, NULL, NULL, 'x'),
  (5, 13.0, 'red', '2024-01-09', '09/01/2024', 'c-d', TRUE, 'UPPER case', '5'),
  (6, 1000.0, NULL, '2024-01-10', '10/01/2024', 'e-f', FALSE, 'tab\there', '6'),
  (7, 12.0, 'blue', '2024-01-11', '11/01/2024', 'g-h', TRUE, 'y', '7'),
  (7, 12.0, 'blue', '2024-01-11', '11/01/2024', 'g-h', TRUE, 'y', '7')
) t(id, amount, color, day, euro, code, flag, note, num_text)`;

let base: string;
let right: string;
let rightDup: string;
const RIGHT = '6f1c1f8e-6a43-4a38-9a57-2d1f2f7f1a11';
const RIGHT_DUP = '0a1c1f8e-6a43-4a38-9a57-2d1f2f7f1a22';
let n = 0;

beforeAll(async () => {
  base = await parquetOf(tmp.dir, 'base', BASE);
  right = await parquetOf(tmp.dir, 'right', `SELECT * FROM (VALUES (1, 0.5, 'R'), (2, 0.7, 'B'), (5, 0.9, 'R'), (99, 0.1, 'Z')) t(id, score, color)`);
  rightDup = await parquetOf(tmp.dir, 'right-dup', `SELECT * FROM (VALUES (1, 0.5), (2, 0.7), (2, 0.8), (2, 0.9)) t(id, score)`);
});

/** Runs `list` on the base table; the result's path and summary. */
async function runOps(list: OperationInput[], input = base) {
  const output = join(tmp.dir, `out-${++n}.parquet`);
  const summary = await executeOperations({
    input,
    output,
    operations: list.map((o) => operationSchema.parse(o)),
    joins: { [RIGHT]: right, [RIGHT_DUP]: rightDup },
  });
  return { output, summary };
}

async function failure(list: OperationInput[], input = base): Promise<OperationError> {
  const err = await runOps(list, input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OperationError);
  return err as OperationError;
}

const names = (s: { columns_after: { name: string }[] }): string[] => s.columns_after.map((c) => c.name);

describe('executeOperations: each operation', () => {
  test('drop_columns and rename_column keep the other columns in place', async () => {
    const { output, summary } = await runOps([
      { op: 'drop_columns', columns: ['day', 'euro', 'note'] },
      { op: 'rename_column', column: 'amount', to: 'amount (€)' },
    ]);
    expect(names(summary)).toEqual(['id', 'amount (€)', 'color', 'code', 'flag', 'num_text']);
    expect(await column(output, 'amount (€)')).toEqual([10, 12, null, 11, 13, 1000, 12, 12]);
  });

  test('cast converts what it can and nulls the rest, or fails naming a value', async () => {
    const { output, summary } = await runOps([
      { op: 'cast', column: 'num_text', to: 'int64' },
      { op: 'cast', column: 'amount', to: 'int64', on_error: 'fail' },
      { op: 'cast', column: 'flag', to: 'int64' },
      { op: 'cast', column: 'id', to: 'object' },
    ]);
    expect(await column(output, 'num_text')).toEqual([1, 2, 3, null, 5, 6, 7, 7]);
    expect(await column(output, 'amount')).toEqual([10, 12, null, 11, 13, 1000, 12, 12]);
    expect(await column(output, 'flag')).toEqual([1, 0, 1, null, 1, 0, 1, 1]);
    expect(await column(output, 'id')).toEqual(['1', '2', '3', '4', '5', '6', '7', '7']);
    expect(summary.type_changes).toEqual([
      { column: 'id', from: 'int64', to: 'object' },
      { column: 'amount', from: 'float64', to: 'int64' },
      { column: 'flag', from: 'bool', to: 'int64' },
      { column: 'num_text', from: 'object', to: 'int64' },
    ]);
    const err = await failure([
      { op: 'drop_columns', columns: ['day'] },
      { op: 'cast', column: 'num_text', to: 'float64', on_error: 'fail' },
    ]);
    expect(err.message).toBe('Operation 2 (cast): the value "x" of column "num_text" does not convert to float64');
    expect(err.index).toBe(1);
  });

  test('parse_dates reads ISO dates by itself and other forms with a format', async () => {
    const { output, summary } = await runOps([
      { op: 'parse_dates', column: 'day' },
      { op: 'parse_dates', column: 'euro', format: '%d/%m/%Y' },
    ]);
    expect(await column(output, 'day')).toEqual([
      '2024-01-05T00:00:00.000Z',
      '2024-01-06T00:00:00.000Z',
      '2024-01-07T00:00:00.000Z',
      null,
      '2024-01-09T00:00:00.000Z',
      '2024-01-10T00:00:00.000Z',
      '2024-01-11T00:00:00.000Z',
      '2024-01-11T00:00:00.000Z',
    ]);
    expect((await column(output, 'euro'))[1]).toBe('2024-01-13T00:00:00.000Z');
    expect(summary.columns_after.find((c) => c.name === 'euro')!.dtype).toBe('datetime64');
    expect(summary.null_changes).toEqual([{ column: 'day', before: 0, after: 1 }]);
  });

  test('parse_dates without a format picks the form that parses the most values', async () => {
    const { output } = await runOps([{ op: 'parse_dates', column: 'euro' }]);
    // 13/01/2024 only reads day first.
    expect(await column(output, 'euro')).toContain('2024-01-13T00:00:00.000Z');
  });

  test('a bad date format fails, naming the format or a value', async () => {
    expect((await failure([{ op: 'parse_dates', column: 'euro', format: '%Q-%m' }])).message).toMatch(/^Operation 1 \(parse_dates\): "%Q-%m" is not a valid date format/);
    expect((await failure([{ op: 'parse_dates', column: 'euro', format: '%Y.%m' }])).message).toBe(
      'Operation 1 (parse_dates): no value of column "euro" matches the format "%Y.%m" (for example "05/01/2024")',
    );
    expect((await failure([{ op: 'parse_dates', column: 'code' }])).message).toMatch(/no known date format matches the values of column "code" \(for example "a-b-c"\)/);
  });

  test('impute fills by mean, median, mode or a constant, with an indicator', async () => {
    const { output, summary } = await runOps([
      { op: 'impute', column: 'amount', strategy: 'median', indicator: true },
      { op: 'impute', column: 'color', strategy: 'mode' },
      { op: 'impute', column: 'note', strategy: 'constant', value: 'none' },
      { op: 'impute', column: 'flag', strategy: 'constant', value: false },
    ]);
    expect(await column(output, 'amount')).toEqual([10, 12, 12, 11, 13, 1000, 12, 12]);
    expect(await column(output, 'amount_missing')).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    // red and blue both appear three times: the tie goes to the smaller value.
    expect((await column(output, 'color'))[5]).toBe('blue');
    expect((await column(output, 'note'))[3]).toBe('none');
    expect((await column(output, 'flag'))[3]).toBe(false);
    expect(summary.added).toEqual(['amount_missing']);
    const mean = await runOps([
      { op: 'impute', column: 'id', strategy: 'mean' },
      { op: 'impute', column: 'amount', strategy: 'mean' },
    ]);
    expect((await column(mean.output, 'amount'))[2]).toBeCloseTo(1070 / 7, 9);
    expect(mean.summary.type_changes).toEqual([{ column: 'id', from: 'int64', to: 'float64' }]);
  });

  test('handle_outliers clips to, flags or drops past the fences', async () => {
    // Amounts 10 11 12 12 12 13 1000: quartiles 11.5 and 12.5, fences 10 and 14.
    const clip = await runOps([{ op: 'handle_outliers', column: 'amount' }]);
    expect(await column(clip.output, 'amount')).toEqual([10, 12, null, 11, 13, 14, 12, 12]);
    const flag = await runOps([{ op: 'handle_outliers', column: 'amount', action: 'flag', factor: 3 }]);
    expect(await column(flag.output, 'amount_outlier')).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
    const drop = await runOps([{ op: 'handle_outliers', column: 'amount', method: 'percentile', lower_percentile: 0, upper_percentile: 90, action: 'drop_rows' }]);
    expect(await column(drop.output, 'id')).toEqual([1, 2, 3, 4, 5, 7, 7]);
    expect(drop.summary.operations).toEqual([{ op: 'handle_outliers', rows_after: 7 }]);
    const ints = await runOps([{ op: 'handle_outliers', column: 'id', method: 'percentile', lower_percentile: 10, upper_percentile: 60 }]);
    expect(await column(ints.output, 'id')).toEqual([2, 2, 3, 4, 5, 5, 5, 5]);
    expect(ints.summary.type_changes).toEqual([]);
  });

  test('deduplicate keeps the first of equal rows, over all or some columns', async () => {
    const all = await runOps([{ op: 'deduplicate' }]);
    expect(await column(all.output, 'id')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const some = await runOps([{ op: 'deduplicate', columns: ['color'] }]);
    expect(await column(some.output, 'id')).toEqual([1, 2, 4, 6]);
  });

  test('filter_rows keeps rows whose condition holds (null counts as false)', async () => {
    const { output, summary } = await runOps([{ op: 'filter_rows', condition: 'amount > 11 and flag' }]);
    expect(await column(output, 'id')).toEqual([5, 7, 7]);
    expect(summary.rows_after).toBe(3);
  });

  test('one_hot_encode makes 0/1 columns for the most frequent values and the rest', async () => {
    const { output, summary } = await runOps([{ op: 'one_hot_encode', column: 'color', max_categories: 2 }]);
    expect(summary.added).toEqual(['color_blue', 'color_red', 'color_other']);
    expect(summary.removed).toEqual(['color']);
    const rows = await readRows(output);
    expect(rows.map((r) => [r.color_blue, r.color_red, r.color_other])).toEqual([
      [0, 1, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [0, 1, 0],
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    const clash = await failure([
      { op: 'derive', name: 'color_red', expression: '1' },
      { op: 'one_hot_encode', column: 'color' },
    ]);
    expect(clash.message).toMatch(/^Operation 2 \(one_hot_encode\): the new column "color_red" would replace an existing column/);
  });

  test('ordinal_encode codes in sorted order, or in the given one', async () => {
    const sorted = await runOps([{ op: 'ordinal_encode', column: 'color' }]);
    expect(await column(sorted.output, 'color')).toEqual([2, 0, 2, 1, 2, null, 0, 0]);
    const given = await runOps([{ op: 'ordinal_encode', column: 'color', order: ['red', 'green'] }]);
    expect(await column(given.output, 'color')).toEqual([0, null, 0, 1, 0, null, null, null]);
  });

  test('bin by quantiles, equal widths or edges', async () => {
    const q = await runOps([{ op: 'bin', column: 'amount', bins: 2, into: 'amount_bin' }]);
    expect(await column(q.output, 'amount_bin')).toEqual([0, 1, null, 0, 1, 1, 1, 1]);
    const w = await runOps([{ op: 'bin', column: 'amount', strategy: 'equal_width', bins: 2 }]);
    expect(await column(w.output, 'amount')).toEqual([0, 0, null, 0, 0, 1, 0, 0]);
    const e = await runOps([{ op: 'bin', column: 'amount', strategy: 'edges', edges: [0, 11, 20] }]);
    expect(await column(e.output, 'amount')).toEqual([0, 1, null, 1, 1, null, 1, 1]);
  });

  test('derive adds or replaces a column from an expression', async () => {
    const { output, summary } = await runOps([
      { op: 'derive', name: 'half', expression: 'amount / 2' },
      { op: 'derive', name: 'color', expression: "upper(coalesce(color, 'none'))" },
      { op: 'derive', name: 'ratio', expression: 'id / (id - 1)' },
    ]);
    expect(await column(output, 'half')).toEqual([5, 6, null, 5.5, 6.5, 500, 6, 6]);
    expect(await column(output, 'color')).toEqual(['RED', 'BLUE', 'RED', 'GREEN', 'RED', 'NONE', 'BLUE', 'BLUE']);
    expect((await column(output, 'ratio'))[0]).toBeNull();
    expect(summary.columns_after.find((c) => c.name === 'half')!.dtype).toBe('float64');
  });

  test('join brings the right side in, renaming clashes; repeated right keys are refused', async () => {
    const left = await runOps([{ op: 'join', dataset_version_id: RIGHT, on: [{ left: 'id', right: 'id' }] }]);
    expect(left.summary.added).toEqual(['score', 'color_right']);
    expect(await column(left.output, 'score')).toEqual([0.5, 0.7, null, null, 0.9, null, null, null]);
    expect(await column(left.output, 'id')).toEqual([1, 2, 3, 4, 5, 6, 7, 7]);
    const inner = await runOps([{ op: 'join', dataset_version_id: RIGHT, on: [{ left: 'id', right: 'id' }], how: 'inner', columns: ['score'] }]);
    expect(await column(inner.output, 'id')).toEqual([1, 2, 5]);
    expect(inner.summary.operations).toEqual([{ op: 'join', rows_after: 3 }]);
    const err = await failure([{ op: 'join', dataset_version_id: RIGHT_DUP, on: [{ left: 'id', right: 'id' }] }]);
    expect(err.message).toBe('Operation 1 (join): the joined version has 3 rows where "id" = "2"; its key columns must be unique, or the join would multiply rows');
  });

  test('split_column splits text into named parts', async () => {
    const { output, summary } = await runOps([{ op: 'split_column', column: 'code', separator: '-', into: ['p1', 'p2'] }]);
    expect(summary.removed).toEqual(['code']);
    const rows = await readRows(output);
    expect(rows.slice(0, 4).map((r) => [r.p1, r.p2])).toEqual([
      ['a', 'b'],
      ['a', 'b'],
      ['a', null],
      [null, null],
    ]);
  });

  test('normalize_text trims, collapses whitespace, changes case and empties to null', async () => {
    const { output } = await runOps([{ op: 'normalize_text', columns: ['note'], case: 'lower' }]);
    expect(await column(output, 'note')).toEqual(['hello world', 'x', null, null, 'upper case', 'tab here', 'y', 'y']);
  });
});

describe('executeOperations: the result and its summary', () => {
  test('the result is a canonical table the data engine reads like any stored version', async () => {
    const { output, summary } = await runOps([{ op: 'parse_dates', column: 'day' }, { op: 'deduplicate' }]);
    expect(await withConnection((conn) => isCanonicalFile(conn, output))).toBe(true);
    expect(summary.columns_after).toEqual(await withConnection(async (conn) => (await openCanonical(conn, output)).columns));
    const profile = await analyze(output);
    expect(profile.row_count).toBe(7);
    const quality = await qualityReport(output);
    expect(quality.checks.length).toBeGreaterThan(0);
  });

  test('the summary counts rows, columns, types and missing values', async () => {
    const { summary } = await runOps([
      { op: 'drop_columns', columns: ['code', 'euro'] },
      { op: 'impute', column: 'amount', strategy: 'mean' },
      { op: 'filter_rows', condition: 'id <= 6' },
      { op: 'parse_dates', column: 'day' },
      { op: 'deduplicate', columns: ['flag'] },
      { op: 'derive', name: 'big', expression: 'amount > 100' },
    ]);
    expect(summary.rows_before).toBe(8);
    expect(summary.rows_after).toBe(3);
    expect(summary.operations).toEqual([
      { op: 'drop_columns', rows_after: 8 },
      { op: 'impute', rows_after: 8 },
      { op: 'filter_rows', rows_after: 6 },
      { op: 'parse_dates', rows_after: 6 },
      { op: 'deduplicate', rows_after: 3 },
      { op: 'derive', rows_after: 3 },
    ]);
    expect(summary.added).toEqual(['big']);
    expect(summary.removed).toEqual(['euro', 'code']);
    // Three distinct colours in three rows are no longer a category (ingest's rule, dtypes.ts).
    expect(summary.type_changes).toEqual([
      { column: 'color', from: 'category', to: 'object' },
      { column: 'day', from: 'object', to: 'datetime64' },
    ]);
    // flag: TRUE (id 1), FALSE (id 2), NULL (id 4) are the first of each value; id 4's day is "not a date", its
    // flag and note were missing before and still are.
    expect(summary.null_changes).toEqual([
      { column: 'amount', before: 1, after: 0 },
      { column: 'color', before: 1, after: 0 },
      { column: 'day', before: 0, after: 1 },
    ]);
    expect(summary.columns_before.map((c) => c.name)).toEqual(['id', 'amount', 'color', 'day', 'euro', 'code', 'flag', 'note', 'num_text']);
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });

  test('operations leaving no rows fail, naming the one that emptied the table', async () => {
    expect((await failure([{ op: 'deduplicate' }, { op: 'filter_rows', condition: 'id > 100' }, { op: 'drop_columns', columns: ['day'] }])).message).toBe(
      'Operation 2 (filter_rows): no rows are left; a dataset needs at least one row',
    );
  });

  test('a value the data cannot compute fails as bad data, not as a fault to retry', async () => {
    const err = await runOps([{ op: 'derive', name: 'huge', expression: 'id * 1000000000000 * 1000000000' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataValidationError);
    expect((err as Error).message).toMatch(/^The operations cannot run on this data: Out of Range Error: Overflow in multiplication/);
  });

  test("the result is held to the service's dataset limits", async () => {
    const operations = [operationSchema.parse({ op: 'deduplicate' })];
    const rows = await executeOperations({ input: base, output: join(tmp.dir, 'limits-rows.parquet'), operations, limits: { maxRows: 5 } }).catch((e: unknown) => e);
    expect(rows).toBeInstanceOf(DataValidationError);
    expect((rows as Error).message).toMatch(/7 rows/);
    const wide = [operationSchema.parse({ op: 'derive', name: 'one', expression: '1' })];
    const cols = await executeOperations({ input: base, output: join(tmp.dir, 'limits-cols.parquet'), operations: wide, limits: { maxColumns: 9 } }).catch((e: unknown) => e);
    expect((cols as Error).message).toBe('Operation 1 (derive): the table would have 10 columns; at most 9 are allowed');
    expect(existsSync(join(tmp.dir, 'limits-rows.parquet'))).toBe(false);
  });

  test('unknown columns fail before any data is read, and leave no output', async () => {
    const output = join(tmp.dir, 'never.parquet');
    const err = await executeOperations({ input: base, output, operations: [operationSchema.parse({ op: 'impute', column: 'amout', strategy: 'mean' })] }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('Operation 1 (impute): no column named "amout"');
    expect(existsSync(output)).toBe(false);
  });
});

describe('hostile column names', () => {
  test('quotes, spaces, unicode and SQL in names and values are only data', async () => {
    const input = await parquetOf(
      tmp.dir,
      'hostile',
      `SELECT * FROM (VALUES
        (1, 2.5, 'x''); DROP TABLE t; --', 'a b', 10),
        (2, NULL, 'ünï "cödé"', 'a b', 20),
        (2, NULL, 'ünï "cödé"', 'a b', 20)
      ) t("""; DROP TABLE t; --", "größe m²", "it's", "__proto__", "file_row_number")`,
    );
    const { output, summary } = await runOps(
      [
        { op: 'deduplicate' },
        { op: 'impute', column: 'größe m²', strategy: 'constant', value: 0, indicator: true },
        { op: 'derive', name: 'a"b', expression: '`"; DROP TABLE t; --` * 10 + `größe m²` + file_row_number' },
        { op: 'one_hot_encode', column: "it's" },
        { op: 'normalize_text', columns: ['__proto__'], case: 'upper' },
        { op: 'rename_column', column: '"; DROP TABLE t; --', to: 'id' },
        { op: 'filter_rows', condition: '"a""b" > 0' },
      ],
      input,
    );
    expect(names(summary)).toEqual(['id', 'größe m²', '__proto__', 'file_row_number', 'größe m²_missing', 'a"b', "it's_x'); DROP TABLE t; --", 'it\'s_ünï "cödé"']);
    const rows = await readRows(output);
    expect(rows).toHaveLength(2);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(rows.map((r) => [r.id, r['a"b'], r.__proto__, r["it's_x'); DROP TABLE t; --"]])).toEqual([
      [1, 22.5, 'A B', 1],
      [2, 40, 'A B', 0],
    ]);
  });
});
