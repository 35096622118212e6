import type { ChildProcess } from 'node:child_process';
import { createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';

/** A training worker killed mid-model: the activity is retried elsewhere and the experiment completes. */
let stack: TestStack;
let worker: ChildProcess | undefined;

function startCpuWorker(): ChildProcess {
  return spawnWorkerProcess(stack, ['cpu']);
}

beforeAll(async () => {
  stack = await startStack({ workers: ['io'], env: { RATE_LIMIT_TRAIN: '1000' } });
  worker = startCpuWorker();
});
afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await stack?.stop();
});

describe('training survives a killed worker', () => {
  it('retries the interrupted model and finishes the experiment', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Resilient');
    const up = await client.upload('/api/datasets/upload', { project_id: projectId, name: 'diamonds' }, datasetFile('diamonds.csv'));
    const r = await client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'kill me',
      target_column: 'price',
      problem_type: 'regression',
      config: { max_models: 2, nfolds: 2, seed: 3, exclude_algos: ['StackedEnsemble'] },
    });
    expect(r.status).toBe(201);
    // Wait until a model is being trained, then kill the worker without warning.
    await eventually(
      async () => {
        const s = (await client.get(`/api/experiments/${r.body.id}/status`)).body;
        return s.status === 'running' && s.progress.current ? s : undefined;
      },
      120_000,
      100,
    );
    worker!.kill('SIGKILL');
    await new Promise((res) => worker!.once('exit', res));
    worker = startCpuWorker();
    const done = await eventually(
      async () => {
        const s = (await client.get(`/api/experiments/${r.body.id}/status`)).body;
        return ['succeeded', 'failed', 'canceled'].includes(s.status) ? s : undefined;
      },
      240_000,
      500,
    );
    expect(done.status).toBe('succeeded');
    const e = (await client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.models).toHaveLength(2);
    expect(new Set(e.models.map((m: { name: string }) => m.name)).size).toBe(2);
  }, 300_000);
});
