import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ApiClient, createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';

/**
 * A neural training's checkpoint lives only while its job is open: a training that ends canceled or failed keeps
 * neither the checkpoint's row nor its file, however it ended. Both tests end the job while no attempt runs (the
 * worker process killed mid-fit), so only the job's closing status write can remove it.
 */
let stack: TestStack;
let worker: ChildProcess | undefined;
let client: ApiClient;

beforeAll(async () => {
  stack = await startStack({ workers: ['io'], env: { SYNTHGEN_CHECKPOINT_SECS: '1' } });
  worker = spawnWorkerProcess(stack, ['cpu']);
  ({ client } = await signUp(stack.baseUrl, stack.mail));
});
afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await stack?.stop();
});

async function restartWorker(): Promise<void> {
  worker!.kill('SIGKILL');
  await new Promise((res) => worker!.once('exit', res));
  worker = spawnWorkerProcess(stack, ['cpu']);
}

/** Starts a long CTGAN training and waits for its first stored checkpoint; the checkpoint's file is on disk. */
async function trainingWithCheckpoint(name: string) {
  const projectId = await createProject(client, name);
  const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
  expect(up.status).toBe(201);
  const r = await client.post('/api/synthgen/models', {
    project_id: projectId,
    dataset_version_id: up.body.dataset_version_id,
    name,
    model_type: 'ctgan',
    config: { epochs: 500, batch_size: 100, pac: 10, embedding_dim: 32, generator_dim: [64, 64], discriminator_dim: [64, 64], seed: 1 },
  });
  expect(r.status).toBe(201);
  await eventually(
    async () => {
      const m = (await client.get(`/api/synthgen/models/${r.body.id}`)).body.model;
      return m.status === 'pending' && m.checkpoint_epoch >= 1;
    },
    180_000,
    100,
  );
  const [checkpoint]: { storage_key: string }[] = await stack.ds.query(`SELECT storage_key FROM artifacts WHERE kind = 'synthgen_checkpoint' AND owner_id = $1`, [r.body.id]);
  expect(fs.existsSync(path.join(stack.config.artifactDir, checkpoint.storage_key))).toBe(true);
  return { projectId, modelId: r.body.id as string, jobId: r.body.job_id as string, versionId: up.body.dataset_version_id as string };
}

/** The project's files and rows agree, and no checkpoint of the model is left (row, link or file). */
async function expectNoCheckpoint(projectId: string, modelId: string): Promise<void> {
  const model = (await client.get(`/api/synthgen/models/${modelId}`)).body.model;
  expect({ status: model.status, checkpoint_epoch: model.checkpoint_epoch }).toEqual({ status: 'failed', checkpoint_epoch: null });
  const rows: { kind: string; storage_key: string }[] = await stack.ds.query('SELECT kind, storage_key FROM artifacts WHERE project_id = $1', [projectId]);
  expect(rows.filter((r) => r.kind === 'synthgen_checkpoint')).toEqual([]);
  const dir = path.join(stack.config.artifactDir, projectId);
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => fs.statSync(path.join(dir, f)).isFile())
        .map((f) => `${projectId}/${f.split(path.sep).join('/')}`)
    : [];
  const referenced = new Set(rows.map((r) => r.storage_key));
  expect(files.filter((f) => !referenced.has(f))).toEqual([]);
}

describe('checkpoints of trainings that end without a model', () => {
  it('removes the checkpoint of a training canceled while no attempt runs', async () => {
    const t = await trainingWithCheckpoint('canceled mid-fit');
    await restartWorker();
    // The dead attempt is not retried before its heartbeat times out (20 s): the cancel reaches no running attempt.
    expect((await client.post(`/api/jobs/${t.jobId}/cancel`)).body).toEqual({ ok: true });
    await eventually(async () => (await client.get(`/api/jobs/${t.jobId}`)).body.job.status === 'canceled', 60_000, 200);
    await expectNoCheckpoint(t.projectId, t.modelId);
  }, 300_000);

  it('removes the checkpoint of a training whose retries fail', async () => {
    const t = await trainingWithCheckpoint('failed mid-fit');
    await restartWorker();
    // The training data is gone from the store: the retried attempts fail, and the job ends failed.
    const [data]: { storage_key: string }[] = await stack.ds.query(`SELECT a.storage_key FROM artifacts a JOIN dataset_versions v ON v.artifact_id = a.id WHERE v.id = $1`, [t.versionId]);
    await stack.store.remove(data.storage_key);
    await eventually(async () => (await client.get(`/api/jobs/${t.jobId}`)).body.job.status === 'failed', 180_000, 500);
    await expectNoCheckpoint(t.projectId, t.modelId);
  }, 400_000);
});
