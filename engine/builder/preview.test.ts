import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OperationsAbortedError } from './errors';
import { executeOperations, previewOperations } from './execute';
import { Operation, OperationInput, operationSchema } from './operations';
import { parquetOf, tempDir } from './test-helpers';

const tmp = tempDir('builder-preview');
afterAll(() => tmp.cleanup());

const ops = (...list: OperationInput[]): Operation[] => list.map((o) => operationSchema.parse(o));

let input: string;
beforeAll(async () => {
  // 5,000 rows: id, a value with some gaps, a text category.
  input = await parquetOf(tmp.dir, 'five-thousand', `SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 0.5 END AS v, 'k' || (i % 5) AS k FROM range(5000) r(i)`);
});

describe('previewOperations', () => {
  test('runs on a sample and is the same every time', async () => {
    const list = ops({ op: 'impute', column: 'v', strategy: 'median' }, { op: 'one_hot_encode', column: 'k' }, { op: 'filter_rows', condition: 'id % 2 = 0' });
    const a = await previewOperations({ input, operations: list, sampleRows: 300, previewRows: 10 });
    const b = await previewOperations({ input, operations: list, sampleRows: 300, previewRows: 10 });
    expect(b).toEqual(a);
    expect(a.summary.rows_before).toBe(300);
    expect(a.summary.rows_after).toBeLessThan(300);
    expect(a.rows).toHaveLength(10);
    expect(a.columns.map((c) => c.name).sort()).toEqual(['id', 'k_k0', 'k_k1', 'k_k2', 'k_k3', 'k_k4', 'v']);
    // A sample, in file order: not simply the first rows.
    const ids = a.rows.map((r) => r.id as number);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(ids[ids.length - 1]).toBeGreaterThan(20);
    expect(a.rows.every((r) => r.v !== null)).toBe(true);
  });

  test('defaults to 1,000 sampled rows and 20 shown; a filter that empties the sample shows nothing', async () => {
    const p = await previewOperations({ input, operations: ops({ op: 'derive', name: 'w', expression: 'v * 2' }) });
    expect(p.summary.rows_before).toBe(1000);
    expect(p.rows).toHaveLength(20);
    const empty = await previewOperations({ input, operations: ops({ op: 'filter_rows', condition: 'id < 0' }) });
    expect(empty.rows).toEqual([]);
    expect(empty.summary.rows_after).toBe(0);
  });
});

test('a preview joins against the whole right-hand table', async () => {
  const right = await parquetOf(tmp.dir, 'right', `SELECT i AS id, i * 10 AS tens FROM range(5000) r(i)`);
  const id = '6f1c1f8e-6a43-4a38-9a57-2d1f2f7f1a11';
  const p = await previewOperations({
    input,
    operations: ops({ op: 'join', dataset_version_id: id, on: [{ left: 'id', right: 'id' }], how: 'inner' }),
    joins: { [id]: right },
    sampleRows: 50,
    previewRows: 5,
  });
  expect(p.summary.rows_after).toBe(50);
  expect(p.rows.every((r) => r.tens === (r.id as number) * 10)).toBe(true);
});

describe('abort', () => {
  const leftovers = (dir: string): string[] => readdirSync(dir).filter((f) => f.includes('.part'));

  test('an aborted signal stops before anything runs', async () => {
    const output = join(tmp.dir, 'aborted-early.parquet');
    const ac = new AbortController();
    ac.abort();
    await expect(executeOperations({ input, output, operations: ops({ op: 'deduplicate' }), signal: ac.signal })).rejects.toBeInstanceOf(OperationsAbortedError);
    expect(existsSync(output)).toBe(false);
  });

  test('an abort between operations stops there and leaves no output', async () => {
    const output = join(tmp.dir, 'aborted-between.parquet');
    const ac = new AbortController();
    const seen: string[] = [];
    const run = executeOperations({
      input,
      output,
      operations: ops({ op: 'impute', column: 'v', strategy: 'mean' }, { op: 'deduplicate' }, { op: 'drop_columns', columns: ['k'] }),
      signal: ac.signal,
      onProgress: (done, total, message) => {
        seen.push(`${done}/${total} ${message}`);
        if (done === 1) ac.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(OperationsAbortedError);
    expect(seen).toEqual(['0/4 Operation 1 of 3: impute', '1/4 Operation 2 of 3: deduplicate']);
    expect(existsSync(output)).toBe(false);
    expect(leftovers(tmp.dir)).toEqual([]);
  });

  test('an abort interrupts a running query and removes the partial file', async () => {
    const big = await parquetOf(tmp.dir, 'big', `SELECT i AS id, md5(CAST(i AS VARCHAR)) AS h, i % 1000 AS g FROM range(3000000) r(i)`);
    const output = join(tmp.dir, 'aborted-running.parquet');
    const ac = new AbortController();
    const run = executeOperations({
      input: big,
      output,
      operations: ops({ op: 'deduplicate', columns: ['h'] }, { op: 'derive', name: 'x', expression: 'concat(h, h, h)' }),
      signal: ac.signal,
      onProgress: (done, total) => {
        if (done === total - 1) setTimeout(() => ac.abort(), 150);
      },
    });
    const started = Date.now();
    await expect(run).rejects.toBeInstanceOf(OperationsAbortedError);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(existsSync(output)).toBe(false);
    expect(leftovers(tmp.dir)).toEqual([]);
    // The same run without an abort completes (the abort, not the data, stopped it).
    const done = await executeOperations({ input: big, output, operations: ops({ op: 'drop_columns', columns: ['g'] }) });
    expect(done.rows_after).toBe(3_000_000);
  }, 120_000);
});
