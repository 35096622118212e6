/**
 * Parquet decompression bombs and tall datasets through HTTP (issue 27, High 2). A few MB of Parquet can hold
 * hundreds of millions of rows: uploads past MAX_DATASET_ROWS or MAX_DATASET_CELLS are refused with 422 naming the
 * limit (a Parquet file from its footer, a CSV while it converts) and leave nothing stored; a tall dataset within the
 * limits is profiled (by analyze in the API, by a dataset_profile job in a worker) in bounded memory; AutoML reads at
 * most MAX_TRAINING_CELLS; a job that fails for its data fails once.
 */
import { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'size-limits-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Writes `rows` rows of `select` (over `range`) as ZSTD Parquet, the way a bomb is made: constants compress to nothing. */
async function parquet(name: string, rows: number, select = `1 AS a, 'x' AS b`): Promise<{ name: string; data: Buffer }> {
  const file = path.join(tmp, name);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run(`COPY (SELECT ${select} FROM range(${rows})) TO '${file}' (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
  return { name, data: fs.readFileSync(file) };
}

/** Datasets, artifacts and files (stored, or left in the upload scratch folders): a refused upload leaves none. */
async function counts(stack: TestStack) {
  const [{ d }] = await stack.ds.query('SELECT count(*)::int AS d FROM datasets');
  const [{ a }] = await stack.ds.query('SELECT count(*)::int AS a FROM artifacts');
  const filesUnder = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, String(f))).isFile()).length : 0);
  return { d, a, files: filesUnder(stack.config.artifactDir), scratch: filesUnder(path.join(stack.config.dataDir, 'tmp')) };
}

describe('configured row and cell limits', () => {
  let stack: TestStack;
  let client: ApiClient;
  let projectId: string;
  const upload = (name: string, file: { name: string; data: Buffer | string }) => client.upload('/api/datasets/upload', { project_id: projectId, name }, file);

  beforeAll(async () => {
    stack = await startStack({ workers: [], env: { MAX_DATASET_ROWS: '1000000', MAX_DATASET_CELLS: '1500000' } });
    ({ client } = await signUp(stack.baseUrl, stack.mail));
    projectId = await createProject(client, 'Bombs');
  });
  afterAll(async () => stack?.stop());

  it('a Parquet file past MAX_DATASET_ROWS is refused from its footer with 422 naming the limit; nothing is stored', async () => {
    const bomb = await parquet('bomb.parquet', 2_000_000);
    expect(bomb.data.length).toBeLessThan(100_000);
    const before = await counts(stack);
    const r = await upload('bomb', bomb);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: 'Too many rows: the file has 2000000 rows; the limit is 1000000' });
    expect(await counts(stack)).toEqual(before);
    // A new version is held to the same limit.
    const base = await upload('base', { name: 'base.csv', data: 'a,b\n1,x\n' });
    expect(base.status).toBe(201);
    const v = await client.upload(`/api/datasets/${base.body.id}/versions`, { description: 'bomb' }, bomb);
    expect(v.status).toBe(422);
    expect(v.body.detail).toBe('Too many rows: the file has 2000000 rows; the limit is 1000000');
    expect((await client.get(`/api/datasets/${base.body.id}/versions`)).body.total).toBe(1);
  });

  it('a Parquet file within the rows but past MAX_DATASET_CELLS is refused with 422 naming the cells', async () => {
    const before = await counts(stack);
    const r = await upload('wide-bomb', await parquet('cells.parquet', 600_000, `1 AS a, 'x' AS b, 2.5 AS c`));
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: 'Too many cells: the file has 600000 rows × 3 columns = 1800000 cells; the limit is 1500000 cells' });
    expect(await counts(stack)).toEqual(before);
  });

  it('a CSV past the limits stops converting one row past them: 422, nothing stored', async () => {
    const before = await counts(stack);
    const rows = await upload('tall-csv', { name: 'tall.csv', data: 'a\n' + '1\n'.repeat(1_000_001) });
    expect(rows.status).toBe(422);
    expect(rows.body).toEqual({ detail: 'Too many rows: the file has more than 1000000 rows; the limit is 1000000' });
    const cells = await upload('wide-csv', { name: 'wide.csv', data: 'a,b\n' + '1,2\n'.repeat(750_001) });
    expect(cells.status).toBe(422);
    expect(cells.body).toEqual({ detail: 'Too many cells: the file has more than 750000 rows × 2 columns; the limit is 1500000 cells' });
    expect(await counts(stack)).toEqual(before);
  });

  it('files at the limits are accepted', async () => {
    const pq = await upload('at-rows', await parquet('at-rows.parquet', 1_000_000, 'range AS a'));
    expect(pq.status).toBe(201);
    expect(pq.body).toMatchObject({ row_count: 1_000_000, column_count: 1 });
    const csv = await upload('at-cells', { name: 'at.csv', data: 'a,b\n' + '1,2\n'.repeat(750_000) });
    expect(csv.status).toBe(201);
    expect(csv.body).toMatchObject({ row_count: 750_000, column_count: 2 });
  });

  it('the OpenAPI document states the configured limits on both uploads', async () => {
    const doc = (await client.get('/api/openapi.json')).body;
    for (const p of ['/api/datasets/upload', '/api/datasets/{dataset_id}/versions']) {
      const text = doc.paths[p].post.responses['422'].description;
      expect(text).toContain('MAX_DATASET_ROWS (1000000)');
      expect(text).toContain('MAX_DATASET_CELLS (1500000)');
    }
  });
});

describe('tall datasets within the limits', () => {
  /** 30M rows: the exact quartiles alone held 240-480 MB of them (the 400M-row bomb: past 6 GB). */
  const TALL = 30_000_000;
  let stack: TestStack;
  let client: ApiClient;
  let projectId: string;
  let tall: { name: string; data: Buffer };
  let worker: ChildProcess | undefined;
  const upload = async (name: string, file: { name: string; data: Buffer | string }) => {
    const r = await client.upload('/api/datasets/upload', { project_id: projectId, name }, file);
    if (r.status !== 201) throw new Error(`upload ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { id: string; dataset_version_id: string };
  };
  const profileJob = async (versionId: string) => (await stack.ds.query(`SELECT id, status, attempt, error FROM jobs WHERE kind = 'dataset_profile' AND entity_id = $1`, [versionId]))[0];
  const finished = (versionId: string) =>
    eventually(
      async () => {
        const job = await profileJob(versionId);
        return ['succeeded', 'failed'].includes(job?.status) ? job : undefined;
      },
      120_000,
      250,
    );
  /** Peak resident memory of a process so far (VmHWM), in MB. */
  const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

  beforeAll(async () => {
    // No worker yet: the jobs wait, so analyze computes in the API and the worker's memory is measured from its start.
    stack = await startStack({ workers: [], env: { PROFILE_IN_BACKGROUND_MIN_ROWS: '100000', MAX_TRAINING_CELLS: '30000', RATE_LIMIT_TRAIN: '1000' } });
    ({ client } = await signUp(stack.baseUrl, stack.mail));
    projectId = await createProject(client, 'Tall');
    tall = await parquet('tall.parquet', TALL);
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await stack?.stop();
  });

  it('analyze of a 30M-row dataset estimates its percentiles; the API does not grow with the rows', async () => {
    const ds = await upload('tall-api', tall);
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let a;
    try {
      a = await client.get(`/api/datasets/${ds.id}/analyze`);
    } finally {
      clearInterval(sampler);
    }
    expect(a.status).toBe(200);
    expect(a.body.error).toBeNull();
    expect(a.body.statistics).toMatchObject({ row_count: TALL, duplicate_rows: TALL - 1, percentiles_approximate: true });
    expect(a.body.statistics.columns.a).toMatchObject({ mean: 1, percentiles: { p25: 1, p50: 1, p75: 1 }, iqr: 0, outlier_count: 0 });
    // Before: +470 MB for the quartiles' values (measured on the same file); now the t-digest's few KB and scan buffers.
    expect((peak - base) / 2 ** 20).toBeLessThan(250);
  });

  it('a dataset_profile job that fails for its data fails once, with a readable error', async () => {
    const ds = await upload('corrupt', await parquet('corrupt.parquet', 200_000, 'range AS a'));
    const [{ storage_key }] = await stack.ds.query('SELECT a.storage_key FROM artifacts a JOIN dataset_versions v ON v.artifact_id = a.id WHERE v.id = $1', [ds.dataset_version_id]);
    const stored = await stack.store.localPath(storage_key);
    fs.truncateSync(stored, 3000);
    worker = spawnWorkerProcess(stack, ['io', 'cpu']);
    const job = await finished(ds.dataset_version_id);
    expect(job).toMatchObject({ status: 'failed', attempt: 1 });
    expect(job.error).toBe("The dataset version cannot be profiled: The stored dataset cannot be read: Invalid Input Error: No magic bytes found at end of file '<file>'");
    const asJob = await client.get(`/api/jobs/${job.id}`);
    expect(asJob.body.job).toMatchObject({ status: 'failed', attempt: 1, error: job.error });
  });

  it("a tall dataset's dataset_profile job stays bounded in the worker", async () => {
    // The worker has started and run the jobs of the datasets above (one skipped: analyze stored its profile).
    const before = peakMb(worker!.pid!);
    const ds = await upload('tall-job', tall);
    const job = await finished(ds.dataset_version_id);
    expect(job).toMatchObject({ status: 'succeeded', attempt: 1 });
    const [{ statistics }] = await stack.ds.query('SELECT statistics FROM dataset_versions WHERE id = $1', [ds.dataset_version_id]);
    expect(statistics).toMatchObject({ row_count: TALL, percentiles_approximate: true });
    expect(peakMb(worker!.pid!) - before).toBeLessThan(250);
  });

  it('AutoML trains on a seeded sample of at most MAX_TRAINING_CELLS cells, and says so in its log', async () => {
    const rows = 'x,y\n' + Array.from({ length: 40_000 }, (_, i) => `${i % 97},${i % 2 === 0 ? 'a' : 'b'}`).join('\n') + '\n';
    const ds = await upload('train', { name: 'train.csv', data: rows });
    const r = await client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: ds.dataset_version_id,
      name: 'sampled',
      target_column: 'y',
      problem_type: 'classification',
      config: { max_models: 1, nfolds: 0, max_runtime_secs: 60, exclude_algos: ['DeepLearning', 'StackedEnsemble'], seed: 1 },
    });
    expect(r.status).toBe(201);
    const done = await eventually(
      async () => {
        const s = await client.get(`/api/experiments/${r.body.id}/status`);
        return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
      },
      180_000,
      500,
    );
    expect(done.status).toBe('succeeded');
    const logs: string[] = (await client.get(`/api/experiments/${r.body.id}/logs`)).body.logs;
    const line = logs.find((l) => l.includes('training on a seeded sample'));
    expect(line).toBeDefined();
    const [, kept] = /sample of (\d+) of the dataset's 40000 rows: 40000 rows × 2 columns are more than MAX_TRAINING_CELLS \(30000\) cells/.exec(line!)!;
    // 30,000 cells / 2 columns: about 15,000 rows, never more.
    expect(Number(kept)).toBeLessThanOrEqual(15_000);
    expect(Number(kept)).toBeGreaterThan(14_000);
    expect(logs.join('\n')).toContain(`data prepared: ${kept} rows`);
  });
});
