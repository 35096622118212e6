import type { ChildProcess } from 'node:child_process';
import { createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';

/**
 * A worker killed while it trains CTGAN: the activity stops heartbeating, Temporal retries it on the restarted
 * worker, and the retry resumes from the model's latest checkpoint instead of starting over (checkpoints every
 * second here).
 */
let stack: TestStack;
let worker: ChildProcess | undefined;

beforeAll(async () => {
  stack = await startStack({ workers: ['io'], env: { SYNTHGEN_CHECKPOINT_SECS: '1' } });
  worker = spawnWorkerProcess(stack, ['cpu']);
});
afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await stack?.stop();
});

describe('synthgen training survives a killed worker', () => {
  it('resumes CTGAN from its checkpoint on the retried attempt and completes', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Resilient synth');
    const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
    const r = await client.post('/api/synthgen/models', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'kill me',
      model_type: 'ctgan',
      config: { epochs: 40, batch_size: 100, pac: 10, embedding_dim: 32, generator_dim: [64, 64], discriminator_dim: [64, 64], seed: 1 },
    });
    expect(r.status).toBe(201);
    // Wait for a checkpoint after the first epoch, then kill the worker without warning.
    const before = await eventually(
      async () => {
        const m = (await client.get(`/api/synthgen/models/${r.body.id}`)).body.model;
        return m.status === 'pending' && m.checkpoint_epoch >= 1 ? m : undefined;
      },
      180_000,
      100,
    );
    worker!.kill('SIGKILL');
    await new Promise((res) => worker!.once('exit', res));
    worker = spawnWorkerProcess(stack, ['cpu']);

    const done = await eventually(
      async () => {
        const m = (await client.get(`/api/synthgen/models/${r.body.id}`)).body.model;
        return m.status === 'pending' ? undefined : m;
      },
      300_000,
      500,
    );
    expect({ status: done.status, error: done.error }).toEqual({ status: 'ready', error: null });
    expect(done.checkpoint_epoch).toBeNull();

    const job = (await client.get(`/api/synthgen/jobs/${r.body.job_id}`)).body;
    expect(job.status).toBe('completed');
    expect(job.attempt).toBeGreaterThanOrEqual(2);
    const resumed = job.log.map((l: string) => /^attempt (\d+): resuming from the checkpoint of epoch (\d+)$/.exec(l)).find(Boolean);
    expect(resumed).toBeTruthy();
    expect(Number(resumed![1])).toBeGreaterThanOrEqual(2);
    expect(Number(resumed![2])).toBeGreaterThanOrEqual(Math.max(1, before.checkpoint_epoch));
    const generic = (await client.get(`/api/jobs/${r.body.job_id}`)).body.job;
    expect(generic.result.resumed_from_epoch).toBe(Number(resumed![2]));
  }, 420_000);
});
