import fs from 'node:fs';
import path from 'node:path';
import { trainSynthesizer } from '../activities/synthgen-train/train';
import { createLogger } from '../platform/logger';
import { TemporalGateway } from '../platform/temporal-client';
import { createServices, Services } from '../services';
import { createMailer } from '../platform/mail';
import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { scratchDir } from '../platform/scratch';

/**
 * Issue 13, finding 8: state left behind by a fault. Each test drives a race or a fault and
 * checks that nothing is half-written: rows and files agree, resources follow their jobs.
 * No workers run here: jobs stay where the test puts them.
 */
let stack: TestStack;
let services: Services;
let owner: { client: ApiClient; user: { id: string } };
let projectId: string;

const csv = (rows: number) => 'x,y\n' + Array.from({ length: rows }, (_, i) => `${i},${i % 2}`).join('\n') + '\n';

/** Files in the artifact store and artifact rows: every row has its file and every file its row. */
async function storeAgreesWithRows(): Promise<void> {
  const rows: { storage_key: string }[] = await stack.ds.query('SELECT storage_key FROM artifacts');
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(path.relative(stack.config.artifactDir, p));
    }
  };
  walk(stack.config.artifactDir);
  expect(files.sort()).toEqual(rows.map((r) => r.storage_key).sort());
}

beforeAll(async () => {
  stack = await startStack({ workers: [], env: { RATE_LIMIT_TRAIN: '1000' } });
  const log = createLogger('silent');
  services = createServices({
    ds: stack.ds,
    store: stack.store,
    config: stack.config,
    log,
    temporal: new TemporalGateway(stack.info.temporalAddress, 'default'),
    mailer: createMailer(stack.config.mail, log),
  });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Faults');
});
afterAll(async () => {
  await stack?.stop();
});

describe('races and faults leave consistent state', () => {
  it('concurrent deletes of all versions of a dataset keep one version, and the dataset stays whole', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'versions' }, { name: 'v.csv', data: csv(20) });
    expect(up.status).toBe(201);
    const id = up.body.id;
    for (const n of [1, 2]) {
      expect((await owner.client.upload(`/api/datasets/${id}/versions`, { description: `v${n}` }, { name: 'v.csv', data: csv(20 + n) })).status).toBe(201);
    }
    const answers = await Promise.all([0, 1, 2].map((v) => owner.client.del(`/api/datasets/${id}/versions/${v}`)));
    const codes = answers.map((a) => a.status).sort();
    expect(codes).toEqual([200, 200, 409]);
    const versions = await owner.client.get(`/api/datasets/${id}/versions`);
    expect(versions.body.total).toBe(1);
    expect((await owner.client.get(`/api/datasets/${id}`)).status).toBe(200);
    const count = await owner.client.get(`/api/datasets/count?project_id=${projectId}`);
    const listed = await owner.client.get(`/api/datasets?project_id=${projectId}`);
    expect(count.body.count).toBe(listed.body.total);
    await storeAgreesWithRows();
  });

  it('two owners leaving at once leave the project with an owner', async () => {
    const second = await signUp(stack.baseUrl, stack.mail);
    const pid = await createProject(owner.client, 'Two owners');
    const me = await second.client.get('/api/auth/me');
    await addMember(owner.client, { client: second.client, email: me.body.user.email }, pid, 'owner');
    const [a, b] = await Promise.all([owner.client.del(`/api/projects/${pid}/members/${owner.user.id}`), second.client.del(`/api/projects/${pid}/members/${me.body.user.id}`)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [{ n }] = await stack.ds.query("SELECT count(*)::int AS n FROM project_members WHERE project_id = $1 AND role = 'owner'", [pid]);
    expect(n).toBe(1);
  });

  it('canceling a job whose workflow is gone closes the job and its experiment', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'train' }, { name: 't.csv', data: csv(60) });
    const created = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'never runs',
      target_column: 'y',
      problem_type: 'classification',
      config: { max_models: 1 },
    });
    expect(created.status).toBe(201);
    const client = await new TemporalGateway(stack.info.temporalAddress, 'default').get();
    await client.workflow.getHandle(`job-${created.body.job_id}`).terminate('test: the workflow disappears');
    const cancel = await owner.client.post(`/api/jobs/${created.body.job_id}/cancel`);
    expect(cancel.status).toBe(200);
    expect((await owner.client.get(`/api/jobs/${created.body.job_id}`)).body.job.status).toBe('canceled');
    const exp = await owner.client.get(`/api/experiments/${created.body.id}/status`);
    expect(exp.body.status).toBe('canceled');
  });

  it('the reconciler closing a job whose workflow ended closes its experiment too', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'train2' }, { name: 't.csv', data: csv(60) });
    const created = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'terminated',
      target_column: 'y',
      problem_type: 'classification',
      config: { max_models: 1 },
    });
    const client = await new TemporalGateway(stack.info.temporalAddress, 'default').get();
    await client.workflow.getHandle(`job-${created.body.job_id}`).terminate('test: an operator terminated it');
    await stack.ds.query("UPDATE jobs SET updated_at = now() - interval '5 minutes' WHERE id = $1", [created.body.job_id]);
    const out = await services.jobs.reconcile();
    expect(out.closed).toBeGreaterThanOrEqual(1);
    expect((await owner.client.get(`/api/jobs/${created.body.job_id}`)).body.job.status).toBe('failed');
    const exp = await owner.client.get(`/api/experiments/${created.body.id}/status`);
    expect(exp.body.status).toBe('failed');
    expect(exp.body.error).toMatch(/terminated/);
  });

  it('a model recorded while its experiment is deleted leaves no orphan files', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'race' }, { name: 't.csv', data: csv(60) });
    for (let round = 0; round < 5; round++) {
      const created = await owner.client.post('/api/experiments', {
        project_id: projectId,
        dataset_version_id: up.body.dataset_version_id,
        name: `race ${round}`,
        target_column: 'y',
        problem_type: 'classification',
      });
      const files = {
        modelJson: Buffer.from('{}'),
        onnx: Buffer.from([1, 2, 3]),
        holdout: Buffer.alloc(4),
        fields: { metrics: {}, parameters: {}, explain: {}, trainingTimeMs: 1, predictTimePerRowMs: 0.1 },
      };
      const record = services.models.recordTrained(created.body.id, { name: 'GBM_1', algo: 'GBM', sequence: 1, files }).catch((err: Error) => err);
      const del = owner.client.del(`/api/experiments/${created.body.id}`);
      const [recorded, deleted] = await Promise.all([record, del]);
      expect(deleted.status).toBe(200);
      if (recorded instanceof Error) expect(`${recorded.name}: ${recorded.message}`).toMatch(/^NotFoundError/);
    }
    await storeAgreesWithRows();
  });

  it('a fault after a model is recorded keeps its files (a retry then finds a model that predicts)', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'kept' }, { name: 't.csv', data: csv(60) });
    const created = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'kept',
      target_column: 'y',
      problem_type: 'classification',
    });
    const failing = Object.create(services.experiments) as Services['experiments'];
    failing.appendLog = async () => {
      throw new Error('the log write failed after the commit');
    };
    const models = new (services.models.constructor as new (...a: unknown[]) => Services['models'])(stack.ds, stack.store, services.access, services.serving, failing, stack.config);
    const files = {
      modelJson: Buffer.from('{}'),
      onnx: Buffer.from([1, 2, 3]),
      holdout: Buffer.alloc(4),
      fields: { metrics: {}, parameters: {}, explain: {}, trainingTimeMs: 1, predictTimePerRowMs: 0.1 },
    };
    await expect(models.recordTrained(created.body.id, { name: 'GBM_1', algo: 'GBM', sequence: 1, files })).rejects.toThrow('the log write failed');
    const [{ n }] = await stack.ds.query('SELECT count(*)::int AS n FROM models WHERE experiment_id = $1', [created.body.id]);
    expect(n).toBe(1);
    expect(await services.models.recordTrained(created.body.id, { name: 'GBM_1', algo: 'GBM', sequence: 1, files })).toEqual(expect.any(String));
    await storeAgreesWithRows();
  });

  it('a synthgen training whose model was stored but whose result never reached Temporal keeps that model on its next attempt', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'synth' }, { name: 'synth.csv', data: csv(300) });
    expect(up.status).toBe(201);
    const created = await owner.client.post('/api/synthgen/models', { project_id: projectId, dataset_version_id: up.body.dataset_version_id, name: 'stored once', model_type: 'gaussian_copula' });
    expect(created.status).toBe(201);
    const modelId = created.body.id as string;
    const jobId = (await stack.ds.query('SELECT train_job_id FROM synthgen_models WHERE id = $1', [modelId]))[0].train_job_id as string;
    const ctx = (attempt: number) => ({ attempt, taskQueue: 'ml-cpu', signal: new AbortController().signal, progress: async () => undefined });
    // Attempt 1 trains and stores the model; its result is lost (as when Temporal is down when it completes).
    const deps = { ds: stack.ds, store: stack.store, datasetVersions: services.datasetVersions, config: stack.config };
    const first = await trainSynthesizer(deps, jobId, modelId, ctx(1));
    const second = await trainSynthesizer(deps, jobId, modelId, ctx(2));
    expect(second.artifact_id).toBe(first.artifact_id);
    expect(second.training_rows).toBe(first.training_rows);
    const artifacts = await stack.ds.query("SELECT id FROM artifacts WHERE owner_id = $1 AND kind = 'synthgen_model'", [modelId]);
    expect(artifacts).toEqual([{ id: first.artifact_id }]);
    await storeAgreesWithRows();
  });

  it("an XLSX download past Excel's row limit answers 422 and leaves no temporary file", async () => {
    const rows = 1_048_576;
    const big = 'x\n' + Array.from({ length: rows }, (_, i) => String(i % 10)).join('\n') + '\n';
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'tall' }, { name: 'tall.csv', data: big });
    expect(up.status).toBe(201);
    const r = await owner.client.get(`/api/datasets/${up.body.id}/download?format=xlsx`);
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/limited to 1048575 data rows.*CSV/);
    // The API runs in this process: its uploads go to this process's scratch folder.
    const tmp = scratchDir(path.join(stack.config.dataDir, 'tmp'), 'uploads');
    const left = fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => f.endsWith('.xlsx')) : [];
    expect(left).toEqual([]);
    const asCsv = await owner.client.get(`/api/datasets/${up.body.id}/download`);
    expect(asCsv.status).toBe(200);
    await eventually(async () => !(fs.existsSync(tmp) && fs.readdirSync(tmp).some((f) => f.endsWith('.csv'))) || undefined, 10_000);
  }, 120_000);
});
