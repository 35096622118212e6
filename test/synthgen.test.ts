import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { Client } from 'pg';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { expectRangedDownload } from './support/ranges';
import { startStack, TestStack } from './support/stack';

/**
 * SynthGen through HTTP on the real stack: validation and state refusals (no training needed), cancel and delete,
 * other users' ids, hostile input; then each model type trained with tiny settings on penguins (and CTGAN on
 * titanic, for booleans and missing values) and generating CSV and typed Parquet with a quality report, a privacy
 * check and honoured conditions; and the `synthgen` report kind. A model with `use_gpu` waits for a GPU worker
 * (none runs here, and GPU_SCHEDULE_TO_START_SECS is long), which keeps it `pending` for the state tests.
 */
let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let penguins: { id: string; version: string };
let titanic: { id: string; version: string };
let foreignVersion: string;
/** A ctgan model waiting for a GPU worker: `pending` throughout. */
let pendingModel: { id: string; job_id: string };

const MAX_ROWS = 50_000;
const TINY_GAN = { epochs: 3, batch_size: 50, pac: 5, embedding_dim: 16, generator_dim: [32, 32], discriminator_dim: [32, 32], seed: 7 };
const TINY_CONFIG: Record<string, Record<string, unknown>> = {
  gaussian_copula: { seed: 3 },
  ctgan: TINY_GAN,
  copulagan: TINY_GAN,
  tvae: { epochs: 3, batch_size: 50, embedding_dim: 16, seed: 7 },
};
const PENGUIN_COLUMNS = ['species', 'island', 'bill_length_mm', 'bill_depth_mm', 'flipper_length_mm', 'body_mass_g', 'sex'];

async function upload(client: ApiClient, pid: string, file: string): Promise<{ id: string; version: string }> {
  const r = await client.upload('/api/datasets/upload', { project_id: pid, name: file.replace('.csv', '') }, datasetFile(file));
  if (r.status !== 201) throw new Error(`upload failed ${r.status} ${JSON.stringify(r.body)}`);
  return { id: r.body.id, version: r.body.dataset_version_id };
}

async function createModel(body: Record<string, unknown>) {
  return owner.client.post('/api/synthgen/models', { project_id: projectId, dataset_version_id: penguins.version, name: 'm', ...body });
}

async function settledModel(id: string, timeoutMs = 240_000) {
  return eventually(
    async () => {
      const m = (await owner.client.get(`/api/synthgen/models/${id}`)).body.model;
      return m.status === 'pending' ? undefined : m;
    },
    timeoutMs,
    500,
  );
}

async function settledJob(id: string, timeoutMs = 120_000) {
  return eventually(
    async () => {
      const j = (await owner.client.get(`/api/synthgen/jobs/${id}`)).body;
      return j.status === 'completed' || j.status === 'failed' ? j : undefined;
    },
    timeoutMs,
    300,
  );
}

/** Trains a model to `ready` and returns its id. */
async function trained(modelType: string, version = penguins.version, config = TINY_CONFIG[modelType]): Promise<string> {
  const r = await createModel({ model_type: modelType, config, name: `${modelType} model`, dataset_version_id: version });
  expect(r.status).toBe(201);
  const m = await settledModel(r.body.id);
  expect({ status: m.status, error: m.error }).toEqual({ status: 'ready', error: null });
  return r.body.id;
}

/** Generates and waits for completion; returns the job object. */
async function generated(modelId: string, body: Record<string, unknown>) {
  const g = await owner.client.post(`/api/synthgen/models/${modelId}/generate`, body);
  expect(g.status).toBe(200);
  expect(g.body).toEqual({ job_id: g.body.synthgen_job_id, synthgen_job_id: expect.any(String), status: 'pending' });
  const job = await settledJob(g.body.job_id);
  expect({ status: job.status, error: job.error }).toEqual({ status: 'completed', error: null });
  return job;
}

async function csvRows(jobId: string): Promise<Record<string, string>[]> {
  const r = await owner.client.get(`/api/synthgen/jobs/${jobId}/download`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/csv');
  await expectRangedDownload(owner.client, `/api/synthgen/jobs/${jobId}/download`);
  return parse(r.raw!, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/** The Parquet download's column dtypes, as the service reads them back when the file is uploaded as a dataset. */
async function parquetTypes(jobId: string): Promise<Record<string, string>> {
  const r = await owner.client.get(`/api/synthgen/jobs/${jobId}/download?format=parquet`);
  expect(r.status).toBe(200);
  expect(r.raw!.subarray(0, 4).toString()).toBe('PAR1');
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: `synthetic-${jobId.slice(0, 8)}` }, { name: 'synthetic.parquet', data: r.raw! });
  expect(up.status).toBe(201);
  const cols = await owner.client.get(`/api/datasets/${up.body.id}/columns`);
  return Object.fromEntries(cols.body.columns.map((c: { name: string; dtype: string }) => [c.name, c.dtype]));
}

beforeAll(async () => {
  stack = await startStack({ env: { GPU_SCHEDULE_TO_START_SECS: '600', SYNTHGEN_MAX_ROWS: String(MAX_ROWS) } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Synthetic');
  const elsewhere = await createProject(owner.client, 'Elsewhere');
  penguins = await upload(owner.client, projectId, 'penguins.csv');
  titanic = await upload(owner.client, projectId, 'titanic.csv');
  foreignVersion = (await upload(owner.client, elsewhere, 'penguins.csv')).version;
  const r = await createModel({ name: 'waits for a GPU', use_gpu: true });
  expect(r.status).toBe(201);
  pendingModel = r.body;
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

describe('models and jobs before training', () => {
  it('lists the four model types', async () => {
    const r = await owner.client.get('/api/synthgen/model-types');
    expect(r.status).toBe(200);
    expect(r.body.model_types.map((t: { id: string }) => t.id).sort()).toEqual(['copulagan', 'ctgan', 'gaussian_copula', 'tvae']);
    for (const t of r.body.model_types) expect(t).toEqual({ id: expect.any(String), name: expect.any(String), description: expect.any(String) });
  });

  it('creates a pending model (ctgan with the spec defaults) with its train job', async () => {
    expect(pendingModel).toEqual({ id: expect.any(String), model_id: pendingModel.id, job_id: expect.any(String), status: 'pending' });
    const got = await owner.client.get(`/api/synthgen/models/${pendingModel.id}`);
    expect(got.status).toBe(200);
    expect(got.body.model).toMatchObject({
      id: pendingModel.id,
      name: 'waits for a GPU',
      model_type: 'ctgan',
      status: 'pending',
      use_gpu: true,
      config: { epochs: 300, batch_size: 500, embedding_dim: 128, generator_dim: [256, 256], discriminator_dim: [256, 256], pac: 10 },
      dataset_name: 'penguins',
      dataset_version: 0,
      dataset_id: penguins.id,
      dataset_version_id: penguins.version,
    });
    expect(got.body.jobs).toEqual([{ id: pendingModel.job_id, job_type: 'train', status: expect.stringMatching(/^(pending|running)$/), error: null, created_at: expect.any(String) }]);
    const job = (await owner.client.get(`/api/synthgen/jobs/${pendingModel.job_id}`)).body;
    expect(job).toMatchObject({
      id: pendingModel.job_id,
      job_id: pendingModel.job_id,
      model_id: pendingModel.id,
      model_name: 'waits for a GPU',
      model_type: 'ctgan',
      project_name: 'Synthetic',
      job_type: 'train',
      output_artifact_id: null,
    });
    // The same id is the generic job's.
    expect((await owner.client.get(`/api/jobs/${pendingModel.job_id}`)).body.job).toMatchObject({ kind: 'synthgen_train', entity_id: pendingModel.id });
  });

  it('refuses to generate from a model that is not ready (400)', async () => {
    const r = await owner.client.post(`/api/synthgen/models/${pendingModel.id}/generate`, { num_rows: 10 });
    expect(r).toMatchObject({ status: 400, body: { detail: 'Model is not ready' } });
  });

  it('bounds num_rows (422 with the limit)', async () => {
    for (const n of [0, -1, MAX_ROWS + 1, 2 ** 31, 2 ** 53]) {
      const r = await owner.client.post(`/api/synthgen/models/${pendingModel.id}/generate`, { num_rows: n });
      expect(r).toMatchObject({ status: 422, body: { detail: `num_rows must be between 1 and ${MAX_ROWS}` } });
    }
    for (const n of ['10', 1.5, null, { n: 1 }]) expect((await owner.client.post(`/api/synthgen/models/${pendingModel.id}/generate`, { num_rows: n })).status).toBe(422);
  });

  it('answers 409 for the output of a job that has none yet', async () => {
    const r = await owner.client.get(`/api/synthgen/jobs/${pendingModel.job_id}/download`);
    expect(r).toMatchObject({ status: 409, body: { detail: 'Job output not available yet' } });
    expect((await owner.client.get(`/api/synthgen/jobs/${pendingModel.job_id}/download?format=parquet`)).status).toBe(409);
    expect((await owner.client.get(`/api/synthgen/jobs/${pendingModel.job_id}/download?format=xlsx`)).status).toBe(422);
  });

  it('refuses an unknown model_type (422 Invalid model_type)', async () => {
    for (const t of ['gan', 'CTGAN', '']) expect(await createModel({ model_type: t })).toMatchObject({ status: 422, body: { detail: 'Invalid model_type' } });
    expect((await createModel({ model_type: 7 })).status).toBe(422);
  });

  it('refuses pac not dividing batch_size, unknown options and values out of bounds (422 naming the option)', async () => {
    const pac = await createModel({ config: { batch_size: 500, pac: 3 } });
    expect(pac.status).toBe(422);
    expect(pac.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'config', 'pac'], msg: 'pac (3) must evenly divide batch_size (500)' })]);
    const cases: [string, Record<string, unknown>, (string | number)[]][] = [
      ['tvae', { pac: 10 }, ['body', 'config']],
      ['gaussian_copula', { epochs: 10 }, ['body', 'config']],
      ['ctgan', { epochs: 100_000 }, ['body', 'config', 'epochs']],
      ['ctgan', { epochs: 0 }, ['body', 'config', 'epochs']],
      ['ctgan', { batch_size: 2 ** 31 }, ['body', 'config', 'batch_size']],
      ['ctgan', { generator_dim: [4096] }, ['body', 'config', 'generator_dim', 0]],
      ['ctgan', { discriminator_dim: [] }, ['body', 'config', 'discriminator_dim']],
      ['tvae', { embedding_dim: 'big' }, ['body', 'config', 'embedding_dim']],
      ['gaussian_copula', { seed: -1 }, ['body', 'config', 'seed']],
    ];
    for (const [model_type, config, loc] of cases) {
      const r = await createModel({ model_type, config });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    expect((await createModel({ config: 'fast' })).status).toBe(422);
  });

  it('refuses hostile input without a 500', async () => {
    expect((await createModel({ name: 'bad\u0000name' })).status).toBe(422);
    expect((await createModel({ name: '   ' })).status).toBe(422);
    expect((await createModel({ config: { ['ep\u0000ochs']: 1 } })).status).toBe(422);
    expect((await createModel({ project_id: 'not-a-uuid' })).status).toBe(422);
    expect((await createModel({ use_gpu: 'yes' })).status).toBe(422);
    expect(await createModel({ dataset_version_id: foreignVersion })).toMatchObject({ status: 404, body: { detail: 'Dataset version not found' } });
    expect(await createModel({ dataset_version_id: randomUUID() })).toMatchObject({ status: 404, body: { detail: 'Dataset version not found' } });
    const gen = (body: unknown) => owner.client.post(`/api/synthgen/models/${pendingModel.id}/generate`, body);
    expect((await gen({ seed: 2 ** 31 })).status).toBe(422);
    expect((await gen({ seed: 'one' })).status).toBe(422);
    expect((await gen({ conditions: { species: { nested: true } } })).status).toBe(422);
    expect((await gen({ conditions: ['species'] })).status).toBe(422);
    expect((await gen({ conditions: { species: 'Ade\u0000lie' } })).status).toBe(422);
    expect((await owner.client.get('/api/synthgen/jobs?status=done')).status).toBe(422);
    expect((await owner.client.get('/api/synthgen/models?limit=501')).status).toBe(422);
    expect((await owner.client.get('/api/synthgen/models/not-a-uuid')).status).toBe(422);
  });

  it("answers 404 for another user's model and job ids, and lists none of them", async () => {
    const s = stranger.client;
    expect(await s.get(`/api/synthgen/models/${pendingModel.id}`)).toMatchObject({ status: 404, body: { detail: 'Model not found' } });
    expect(await s.post(`/api/synthgen/models/${pendingModel.id}/generate`, {})).toMatchObject({ status: 404, body: { detail: 'Model not found' } });
    expect(await s.del(`/api/synthgen/models/${pendingModel.id}`)).toMatchObject({ status: 404, body: { detail: 'Model not found' } });
    expect(await s.get(`/api/synthgen/jobs/${pendingModel.job_id}`)).toMatchObject({ status: 404, body: { detail: 'Job not found' } });
    expect(await s.get(`/api/synthgen/jobs/${pendingModel.job_id}/download`)).toMatchObject({ status: 404, body: { detail: 'Job not found' } });
    expect(await s.get(`/api/synthgen/jobs?model_id=${pendingModel.id}`)).toMatchObject({ status: 404, body: { detail: 'Model not found' } });
    expect(await s.get(`/api/synthgen/models?project_id=${projectId}`)).toMatchObject({ status: 404, body: { detail: 'Project not found' } });
    expect((await s.get('/api/synthgen/models')).body).toMatchObject({ items: [], total: 0 });
    expect((await s.get('/api/synthgen/jobs')).body).toMatchObject({ items: [], total: 0 });
    expect(await owner.client.get(`/api/synthgen/models/${randomUUID()}`)).toMatchObject({ status: 404, body: { detail: 'Model not found' } });
    expect(await owner.client.get(`/api/synthgen/jobs/${randomUUID()}`)).toMatchObject({ status: 404, body: { detail: 'Job not found' } });
  });

  it('lists models and jobs with the list envelope and filters', async () => {
    const models = (await owner.client.get(`/api/synthgen/models?project_id=${projectId}&limit=100`)).body;
    expect(models).toMatchObject({ limit: 100, offset: 0 });
    expect(models.items.map((m: { id: string }) => m.id)).toContain(pendingModel.id);
    const jobs = (await owner.client.get(`/api/synthgen/jobs?model_id=${pendingModel.id}`)).body;
    expect(jobs.items.map((j: { id: string }) => j.id)).toEqual([pendingModel.job_id]);
    expect((await owner.client.get(`/api/synthgen/jobs?model_id=${pendingModel.id}&status=completed`)).body.total).toBe(0);
  });

  it('needs the synthgen scopes with an API key', async () => {
    const key = (await owner.client.post('/api/auth/api-keys', { name: 'reader', scopes: ['read:synthgen'] })).body.api_key;
    const reader = owner.client.withKey(key);
    expect((await reader.get(`/api/synthgen/models/${pendingModel.id}`)).status).toBe(200);
    expect(await reader.post('/api/synthgen/models', { project_id: projectId, dataset_version_id: penguins.version, name: 'x' })).toMatchObject({
      status: 403,
      body: { detail: 'Insufficient scope' },
    });
    expect((await reader.post(`/api/jobs/${pendingModel.job_id}/cancel`)).status).toBe(403);
  });

  it('keeps the training data: a version a model uses cannot be deleted (409)', async () => {
    const r = await owner.client.del(`/api/datasets/${penguins.id}`);
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/synthgen model/);
  });

  it('fails a table wider than the copula models at once, with the reason (no retries)', async () => {
    const width = 1_001;
    const header = Array.from({ length: width }, (_, j) => `c${j}`).join(',');
    const rows = Array.from({ length: 30 }, (_, i) => Array.from({ length: width }, (_, j) => ((i * 7 + j * 13) % 97) + j).join(','));
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'too wide for a copula' }, { name: 'wide.csv', data: [header, ...rows].join('\n') });
    expect(up.status).toBe(201);
    const r = await createModel({ model_type: 'gaussian_copula', name: 'wide', dataset_version_id: up.body.dataset_version_id });
    expect(r.status).toBe(201);
    const m = await settledModel(r.body.id, 120_000);
    expect(m.status).toBe('failed');
    expect(m.error).toMatch(/at most 1000 latent dimensions; this table needs 1001/);
    const logs = JSON.stringify((await owner.client.get(`/api/synthgen/jobs/${r.body.job_id}`)).body);
    expect(logs).not.toMatch(/attempt 2/);
  });

  it('cancels a training through the jobs endpoint: model and job end failed with the error Canceled', async () => {
    const r = await createModel({ name: 'to cancel', use_gpu: true, model_type: 'tvae' });
    expect(r.status).toBe(201);
    expect((await owner.client.post(`/api/jobs/${r.body.job_id}/cancel`)).body).toEqual({ ok: true });
    const m = await settledModel(r.body.id, 30_000);
    expect(m).toMatchObject({ status: 'failed', error: 'Canceled' });
    const job = await settledJob(r.body.job_id, 30_000);
    expect(job).toMatchObject({ status: 'failed', error: 'Canceled' });
    expect((await owner.client.get(`/api/jobs/${r.body.job_id}`)).body.job.status).toBe('canceled');
    expect((await owner.client.get(`/api/synthgen/jobs?model_id=${r.body.id}&status=failed`)).body.total).toBe(1);
  });

  it('deletes a model with its jobs, canceling an open one', async () => {
    const r = await createModel({ name: 'to delete', use_gpu: true });
    expect(await owner.client.del(`/api/synthgen/models/${r.body.id}`)).toMatchObject({ status: 200, body: { ok: true, model_id: r.body.id } });
    expect((await owner.client.get(`/api/synthgen/models/${r.body.id}`)).status).toBe(404);
    expect((await owner.client.get(`/api/synthgen/jobs/${r.body.job_id}`)).status).toBe(404);
    expect((await owner.client.get(`/api/jobs/${r.body.job_id}`)).status).toBe(404);
    expect((await owner.client.del(`/api/synthgen/models/${r.body.id}`)).status).toBe(404);
  });

  it("deletes a model while its training job's status is being written (no deadlock: the job's row is locked first)", async () => {
    const r = await createModel({ name: 'delete during a status write', use_gpu: true });
    const pg = new Client({ connectionString: stack.databaseUrl });
    await pg.connect();
    try {
      // The locks a status write takes, in its order (services/job-status.ts): the job's row, then the model's.
      await pg.query('BEGIN');
      await pg.query(`UPDATE jobs SET message = 'status write' WHERE id = $1`, [r.body.job_id]);
      const deleting = owner.client.del(`/api/synthgen/models/${r.body.id}`);
      await eventually(
        async () => {
          const [w] = (await pg.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows;
          return w.n > 0;
        },
        10_000,
        50,
      );
      await pg.query(`UPDATE synthgen_models SET updated_at = now() WHERE id = $1`, [r.body.id]);
      await pg.query('COMMIT');
      expect(await deleting).toMatchObject({ status: 200, body: { ok: true, model_id: r.body.id } });
    } finally {
      await pg.end();
    }
    expect((await owner.client.get(`/api/synthgen/models/${r.body.id}`)).status).toBe(404);
  });
});

describe('training and generation', () => {
  const modelIds: Record<string, string> = {};

  it.each(['gaussian_copula', 'ctgan', 'tvae', 'copulagan'])(
    '%s trains on penguins and generates typed rows within the data, with a quality report and a privacy check',
    async (modelType) => {
      const id = await trained(modelType);
      modelIds[modelType] = id;
      const model = (await owner.client.get(`/api/synthgen/models/${id}`)).body.model;
      expect(model).toMatchObject({ training_rows: 310, holdout_rows: 34, artifact_id: expect.any(String) });
      const job = await generated(id, { num_rows: 300, seed: 11 });
      expect(job).toMatchObject({
        job_type: 'generate',
        rows_generated: 300,
        config: { num_rows: 300, seed: 11, conditions: {} },
        progress: 100,
        download_url: `/api/synthgen/jobs/${job.id}/download`,
      });
      expect(job.quality.overall_score).toBeGreaterThan(0);
      expect(job.quality.overall_score).toBeLessThanOrEqual(1);
      expect(job.quality.column_shapes.columns.map((c: { column: string }) => c.column).sort()).toEqual([...PENGUIN_COLUMNS].sort());
      expect(job.quality.distributions.length).toBe(PENGUIN_COLUMNS.length);
      expect(job.privacy).toMatchObject({ copied_rows_share: expect.any(Number), median_dcr_synthetic: expect.any(Number), median_dcr_holdout: expect.any(Number), holdout_rows: 34 });

      const rows = await csvRows(job.id);
      expect(rows).toHaveLength(300);
      expect(Object.keys(rows[0])).toEqual(PENGUIN_COLUMNS);
      for (const r of rows) {
        expect(['', 'Adelie', 'Chinstrap', 'Gentoo']).toContain(r.species);
        if (r.body_mass_g !== '') {
          expect(Number.isInteger(Number(r.body_mass_g))).toBe(true);
          expect(Number(r.body_mass_g)).toBeGreaterThanOrEqual(2700);
          expect(Number(r.body_mass_g)).toBeLessThanOrEqual(6300);
        }
      }
      expect(await parquetTypes(job.id)).toMatchObject({ species: 'category', bill_length_mm: 'float64', flipper_length_mm: 'int64', body_mass_g: 'int64' });
    },
    300_000,
  );

  it('honours conditions exactly, and refuses one the data never holds (422)', async () => {
    const id = modelIds.ctgan ?? (await trained('ctgan'));
    const job = await generated(id, { num_rows: 200, seed: 5, conditions: { species: 'Gentoo', island: 'Biscoe' } });
    const rows = await csvRows(job.id);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => `${r.species}/${r.island}`))).toEqual(new Set(['Gentoo/Biscoe']));
    expect(job.quality.reference).toMatch(/meeting the conditions/);

    const gen = (conditions: unknown) => owner.client.post(`/api/synthgen/models/${id}/generate`, { conditions });
    const unknownLevel = await gen({ species: 'Dodo' });
    expect(unknownLevel.status).toBe(422);
    expect(unknownLevel.body.detail[0]).toMatchObject({ loc: ['body', 'conditions', 'species'] });
    expect((await gen({ wingspan: 3 })).body.detail[0].msg).toMatch(/Unknown column "wingspan"/);
    expect((await gen({ body_mass_g: 'heavy' })).status).toBe(422);
    expect((await gen({ body_mass_g: 99_999 })).status).toBe(422);
  }, 300_000);

  it('reproduces its output from a seed (gaussian copula)', async () => {
    const id = modelIds.gaussian_copula ?? (await trained('gaussian_copula'));
    const a = await generated(id, { num_rows: 50, seed: 99 });
    const b = await generated(id, { num_rows: 50, seed: 99 });
    expect(await csvRows(b.id)).toEqual(await csvRows(a.id));
  }, 120_000);

  it('gives booleans, integers and missing values back as they went in (ctgan on titanic)', async () => {
    const id = await trained('ctgan', titanic.version);
    const job = await generated(id, { num_rows: 400 });
    const types = await parquetTypes(job.id);
    expect(types).toMatchObject({ survived: 'int64', age: 'float64', adult_male: 'bool', alone: 'bool', embark_town: 'category' });
    const rows = await csvRows(job.id);
    expect(new Set(rows.map((r) => r.adult_male))).toEqual(new Set(['true', 'false']));
    // deck is missing in 77% of titanic's rows: missing cells come back (how many, after 3 epochs, is the model's).
    expect(rows.filter((r) => r.deck === '').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.deck !== '').length).toBeGreaterThan(0);
  }, 300_000);

  it('makes a synthgen report of a generation', async () => {
    const id = modelIds.gaussian_copula ?? (await trained('gaussian_copula'));
    const job = await generated(id, { num_rows: 100 });
    const r = await owner.client.post('/api/reports', { project_id: projectId, kind: 'synthgen', entity_id: job.id, options: { format: 'html' } });
    expect(r.status).toBe(201);
    const report = await eventually(async () => {
      const x = (await owner.client.get(`/api/reports/${r.body.report_id}`)).body.report;
      return ['succeeded', 'failed'].includes(x.status) ? x : undefined;
    }, 60_000);
    expect(report).toMatchObject({ status: 'succeeded', kind: 'synthgen', entity_id: job.id });
    expect(report.summary.figures).toMatchObject({ overall_score: job.quality.overall_score, rows_generated: 100 });
    const html = (await owner.client.get(`/api/reports/${r.body.report_id}/view`)).body as string;
    for (const title of ['Quality report', 'Real against synthetic distributions', 'Privacy check']) expect(html).toContain(title);
  }, 120_000);

  it('deletes a trained model with its outputs', async () => {
    const id = modelIds.tvae ?? (await trained('tvae'));
    const job = await generated(id, { num_rows: 20 });
    expect((await owner.client.get(`/api/artifacts/${job.output_artifact_id}/download`)).status).toBe(200);
    expect((await owner.client.del(`/api/synthgen/models/${id}`)).body).toEqual({ ok: true, model_id: id });
    expect((await owner.client.get(`/api/synthgen/jobs/${job.id}`)).status).toBe(404);
    expect((await owner.client.get(`/api/artifacts/${job.output_artifact_id}/download`)).status).toBe(404);
    expect((await owner.client.get(`/api/artifacts/${job.parquet_artifact_id}/download`)).status).toBe(404);
  }, 120_000);
});
