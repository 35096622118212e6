import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { killHard } from './support/killable';
import { startStack, TestStack } from './support/stack';

/**
 * Training on the gpu worker, end to end: a `gpu` worker process (the real entry, workers/gpu.js) on Mesa's software
 * renderer (GPU_ALLOW_SOFTWARE=1; CI installs Mesa, and the test fails without it) takes a `use_gpu` TVAE fit from
 * the ml-gpu queue, trains it on its adapter (the job's log names it), and the model generates rows on the CPU
 * workers as a CPU-trained one does; a `use_gpu` CTGAN fit trains there too. An AutoML experiment with `use_gpu` trains its DeepLearning model on the adapter too (the
 * experiment's log names it) and the model predicts through ONNX. Tiny settings: penguins (~310 training rows), 2
 * epochs, embedding 8; titanic, one DeepLearning model, 2 folds.
 */
let stack: TestStack;
let gpuWorker: ChildProcess;
let gpuWorkerOutput = '';
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let version: string;

beforeAll(async () => {
  // A long schedule-to-start: the fits must wait for the gpu worker, never fall back to ml-cpu because it started slowly.
  stack = await startStack({ env: { GPU_SCHEDULE_TO_START_SECS: '600' } });
  gpuWorker = spawn(process.execPath, [path.join(__dirname, '..', 'workers', 'gpu.js')], {
    env: { ...process.env, ...stack.workerEnv, LOG_LEVEL: 'info', GPU_ALLOW_SOFTWARE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gpuWorker.stdout?.on('data', (d: Buffer) => (gpuWorkerOutput += d.toString()));
  gpuWorker.stderr?.on('data', (d: Buffer) => (gpuWorkerOutput += d.toString()));
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'GPU training');
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'penguins' }, datasetFile('penguins.csv'));
  if (up.status !== 201) throw new Error(`upload failed ${up.status} ${JSON.stringify(up.body)}`);
  version = up.body.dataset_version_id;
}, 180_000);

afterAll(async () => {
  if (gpuWorker) await killHard(gpuWorker);
  await stack?.stop();
});

/** The model once training settled, and its training job (with the log). */
async function trainedModel(body: Record<string, unknown>) {
  const r = await owner.client.post('/api/synthgen/models', { project_id: projectId, dataset_version_id: version, use_gpu: true, ...body });
  expect(r.status).toBe(201);
  const model = await eventually(
    async () => {
      if (gpuWorker.exitCode !== null) throw new Error(`the gpu worker exited (${gpuWorker.exitCode}):\n${gpuWorkerOutput}`);
      const m = (await owner.client.get(`/api/synthgen/models/${r.body.id}`)).body.model;
      return m.status === 'pending' ? undefined : m;
    },
    150_000,
    500,
  );
  const job = (await owner.client.get(`/api/synthgen/jobs/${r.body.job_id}`)).body;
  return { model, log: (job.log as string[]).join('\n') };
}

describe('training on the gpu worker (Mesa)', () => {
  it('a use_gpu TVAE fit trains on the adapter, and the model generates as a CPU one does', async () => {
    const { model, log } = await trainedModel({ name: 'tvae on the GPU', model_type: 'tvae', config: { epochs: 2, batch_size: 64, embedding_dim: 8, seed: 3 } });
    expect({ status: model.status, error: model.error }).toEqual({ status: 'ready', error: null });
    expect(log).toMatch(/on \S*ml-gpu/);
    expect(log).toMatch(/training on GPU: .+ \((opengles|vulkan)(, software renderer)?\)/);
    expect(log).not.toMatch(/training on the CPU/);
    const g = await owner.client.post(`/api/synthgen/models/${model.id}/generate`, { num_rows: 120, seed: 5 });
    expect(g.status).toBe(200);
    const job = await eventually(
      async () => {
        const j = (await owner.client.get(`/api/synthgen/jobs/${g.body.job_id}`)).body;
        return j.status === 'completed' || j.status === 'failed' ? j : undefined;
      },
      120_000,
      300,
    );
    expect({ status: job.status, error: job.error }).toEqual({ status: 'completed', error: null });
    const csv = await owner.client.get(`/api/synthgen/jobs/${g.body.job_id}/download`);
    expect(csv.status).toBe(200);
    const rows = parse(csv.raw!, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    expect(rows).toHaveLength(120);
    expect(Object.keys(rows[0]).sort()).toEqual(['bill_depth_mm', 'bill_length_mm', 'body_mass_g', 'flipper_length_mm', 'island', 'sex', 'species']);
    expect(new Set(rows.map((r) => r.species)).size).toBeGreaterThan(0);
    rows.forEach((r) => expect(['Adelie', 'Chinstrap', 'Gentoo']).toContain(r.species));
  }, 240_000);

  it('a use_gpu AutoML experiment trains its DeepLearning model on the adapter, and the model predicts through ONNX', async () => {
    const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
    expect(up.status).toBe(201);
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: 'deep learning on the GPU',
      target_column: 'survived',
      problem_type: 'classification',
      use_gpu: true,
      config: { max_models: 1, nfolds: 2, seed: 4, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'GLM', 'StackedEnsemble'] },
    });
    expect(r.status).toBe(201);
    const done = await eventually(
      async () => {
        if (gpuWorker.exitCode !== null) throw new Error(`the gpu worker exited (${gpuWorker.exitCode}):\n${gpuWorkerOutput}`);
        const st = (await owner.client.get(`/api/experiments/${r.body.id}/status`)).body;
        return ['succeeded', 'failed', 'canceled'].includes(st.status) ? st : undefined;
      },
      150_000,
      500,
    );
    expect(done.status).toBe('succeeded');
    const logs = (await owner.client.get(`/api/experiments/${r.body.id}/logs`)).body.logs.join('\n');
    expect(logs).toContain(`on task queue ${stack.config.taskQueues.gpu}`);
    expect(logs).toMatch(/DeepLearning_1: training on GPU: .+ \((opengles|vulkan)(, software renderer)?\)/);
    expect(logs).not.toMatch(/training on the CPU/);
    const e = (await owner.client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.models.map((m: { algo: string }) => m.algo)).toEqual(['DeepLearning']);
    // Served through ONNX Runtime, as a CPU-trained model is.
    const p = await owner.client.post(`/api/models/${e.best_model_id}/predict`, { inputs: { pclass: 1, sex: 'female', age: 30 } });
    expect(p.status).toBe(200);
    const probabilities = p.body.predictions[0].probabilities;
    expect(probabilities['0'] + probabilities['1']).toBeCloseTo(1, 5);
  }, 240_000);

  it('a use_gpu CTGAN fit trains on the adapter too', async () => {
    const tiny = { epochs: 1, batch_size: 50, pac: 5, embedding_dim: 8, generator_dim: [16], discriminator_dim: [16], seed: 2 };
    const { model, log } = await trainedModel({ name: 'ctgan on the gpu worker', model_type: 'ctgan', config: tiny });
    expect({ status: model.status, error: model.error }).toEqual({ status: 'ready', error: null });
    expect(log).toMatch(/training on GPU: /);
    expect(log).not.toMatch(/training on the CPU/);
  }, 240_000);
});
