import { ApiClient, createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { startStack, TestStack } from './support/stack';
import { modelFromJSON } from '../engine/automl';
import { rowsToFrame } from '../services/model-serving';
import { createWorkers } from '../workers/worker-factory';
import { createDataSource } from '../platform/database';

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let titanic: { datasetId: string; versionId: string };
let mpg: { datasetId: string; versionId: string };

async function uploadDataset(client: ApiClient, pid: string, name: string, file: { name: string; data: Buffer | string }) {
  const r = await client.upload('/api/datasets/upload', { project_id: pid, name }, file);
  if (r.status !== 201) throw new Error(`upload failed ${r.status} ${JSON.stringify(r.body)}`);
  return { datasetId: r.body.id as string, versionId: r.body.dataset_version_id as string };
}

async function waitFinished(client: ApiClient, id: string, timeoutMs = 240_000) {
  return eventually(
    async () => {
      const s = await client.get(`/api/experiments/${id}/status`);
      return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
    },
    timeoutMs,
    500,
  );
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000', GPU_SCHEDULE_TO_START_SECS: '2' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'ML');
  titanic = await uploadDataset(owner.client, projectId, 'titanic', datasetFile('titanic.csv'));
  mpg = await uploadDataset(owner.client, projectId, 'mpg', datasetFile('mpg.csv'));
});
afterAll(async () => stack?.stop());

describe('experiment creation', () => {
  const base = () => ({ project_id: projectId, dataset_version_id: titanic.versionId, name: 'exp', target_column: 'survived', problem_type: 'classification' });

  it("validates the request with the spec's texts", async () => {
    const c = owner.client;
    expect((await c.post('/api/experiments', { ...base(), target_column: 'nope' })).body).toEqual({ detail: 'target_column not found in dataset' });
    expect((await c.post('/api/experiments', { ...base(), problem_type: 'clustering' })).body).toEqual({ detail: 'Invalid problem_type' });
    expect((await c.post('/api/experiments', { ...base(), dataset_version_id: '00000000-0000-4000-8000-000000000000' })).body).toEqual({ detail: 'Dataset version not found' });
    const badConfig = await c.post('/api/experiments', { ...base(), config: { max_models: 0, sort_metric: 'RMSE', bogus: true } });
    expect(badConfig.status).toBe(422);
    expect(badConfig.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.config.bogus', 'body.config.max_models', 'body.config.sort_metric']);
    expect((await c.post('/api/experiments', { ...base(), name: '' })).status).toBe(422);
    expect((await c.post('/api/experiments', { ...base(), config: 'fast' })).status).toBe(422);
    expect((await c.post('/api/experiments', { ...base(), target_column: 'sex', problem_type: 'regression' })).status).toBe(422);
    expect((await c.post('/api/experiments', { ...base(), dataset_version_id: mpg.versionId, target_column: 'mpg', problem_type: 'binary' })).status).toBe(422);
    const stranger = await signUp(stack.baseUrl, stack.mail);
    expect((await stranger.client.post('/api/experiments', base())).body).toEqual({ detail: 'Project not found' });
  });

  it('limits experiment creation to 5 a minute per user', async () => {
    const limited = await startStack({ workers: [] });
    try {
      const u = await signUp(limited.baseUrl, limited.mail);
      const r = await u.client.post('/api/experiments', {
        project_id: '00000000-0000-4000-8000-000000000000',
        dataset_version_id: '00000000-0000-4000-8000-000000000000',
        name: 'x',
        target_column: 'y',
        problem_type: 'regression',
      });
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      for (let i = 0; i < 4; i++) await u.client.post('/api/experiments', {});
      const over = await u.client.post('/api/experiments', {});
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.stop();
    }
  });
});

describe('a binary classification experiment end to end', () => {
  let expId: string;
  let jobId: string;

  it('answers at once, runs as a job and ends succeeded with a leaderboard', async () => {
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: titanic.versionId,
      name: 'Titanic',
      target_column: 'survived',
      problem_type: 'binary',
      config: { max_models: 3, nfolds: 3, max_runtime_secs: 300, seed: 1 },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: r.body.experiment_id, experiment_id: expect.any(String), job_id: expect.any(String), status: 'queued' });
    expId = r.body.id;
    jobId = r.body.job_id;
    const done = await waitFinished(owner.client, expId);
    expect(done.status).toBe('succeeded');
    // Three planned models, then the stacked ensemble over them, counted apart (issue 33: never "4 of 3").
    expect(done.progress).toMatchObject({ models_done: 3, models_planned: 3, ensembles_done: 1, ensemble: 'done', percent: 100 });

    const e = await owner.client.get(`/api/experiments/${expId}`);
    expect(e.body.experiment).toMatchObject({
      id: expId,
      status: 'succeeded',
      problem_type: 'classification',
      problem_kind: 'binary',
      sort_metric: 'AUC',
      max_models: 3,
      model_count: 4,
      project_name: 'ML',
      dataset_name: 'titanic',
    });
    expect(e.body.models).toHaveLength(4);
    expect(e.body.models.map((m: { algo: string }) => m.algo).sort()).toEqual(['GBM', 'GLM', 'StackedEnsemble', 'XGBoost']);
    const aucs = e.body.models.map((m: { metrics: { auc: number } }) => m.metrics.auc);
    expect([...aucs].sort((a, b) => b - a)).toEqual(aucs);
    expect(e.body.best_model_id).toBe(e.body.models[0].id);
    expect(e.body.experiment.best_model_algo).toBe(e.body.models[0].algo);
    expect(e.body.artifact_links.length).toBe(8);

    const job = (await owner.client.get(`/api/jobs/${jobId}`)).body.job;
    expect(job).toMatchObject({ kind: 'automl_train', status: 'succeeded', progress: 100, entity_id: expId });

    const logs = await owner.client.get(`/api/experiments/${expId}/logs`);
    expect(logs.body.count).toBe(logs.body.logs.length);
    expect(logs.body.logs.join('\n')).toMatch(/\[engine\].*fold/);
    const serviceOnly = await owner.client.get(`/api/experiments/${expId}/logs?include_h2o_logs=false`);
    expect(serviceOnly.body.logs.join('\n')).not.toMatch(/\[engine\]/);
    expect(serviceOnly.body.count).toBeLessThan(logs.body.count);
    const file = await owner.client.get(`/api/experiments/${expId}/logs/download`);
    expect(file.headers.get('content-type')).toMatch(/text\/plain/);
    const nb = await owner.client.get(`/api/experiments/${expId}/notebook`);
    expect(nb.headers.get('content-disposition')).toMatch(/\.ipynb/);
    expect(nb.body.nbformat).toBe(4);
    expect(JSON.stringify(nb.body.cells)).toContain(expId);
    const runs = await owner.client.get(`/api/experiments/${expId}/engine-runs`);
    expect(runs.body.runs[0]).toMatchObject({ id: jobId, kind: 'automl_train', status: 'succeeded', temporal_ui_url: expect.any(String) });
    expect((await owner.client.get('/api/experiments/capabilities')).body.algorithms).toContain('StackedEnsemble');
    expect((await owner.client.get('/api/experiments/automl-engines')).body.engines[0].serving).toBe('onnxruntime');
  });

  it('lists, explains and re-chooses the best model', async () => {
    const list = await owner.client.get(`/api/experiments?project_id=${projectId}&status=succeeded&search=titan`);
    expect(list.body.items.map((x: { id: string }) => x.id)).toContain(expId);
    expect((await owner.client.get('/api/experiments?status=exploded')).status).toBe(422);
    expect((await owner.client.get(`/api/experiments?dataset_id=${titanic.datasetId}&sort_field=name&sort_direction=asc`)).body.total).toBeGreaterThanOrEqual(1);

    const ex = await owner.client.get(`/api/experiments/${expId}/explain`);
    expect(ex.body.explain.pareto_front.models.length).toBeGreaterThanOrEqual(1);
    expect(ex.body.explain.varimp_heatmap.models).toHaveLength(4);
    expect(ex.body.explain.varimp_heatmap.matrix[0]).toHaveLength(ex.body.explain.varimp_heatmap.features.length);

    const models = (await owner.client.get(`/api/experiments/${expId}`)).body.models;
    const last = models[3].id;
    expect((await owner.client.post(`/api/experiments/${expId}/best-model`, { model_id: last })).body).toEqual({ ok: true, experiment_id: expId, best_model_id: last });
    const other = await owner.client.post(`/api/experiments/${expId}/best-model`, { model_id: '00000000-0000-4000-8000-000000000000' });
    expect(other.status).toBe(422);
    const best = await owner.client.get(`/api/models?experiment_id=${expId}&is_best=true`);
    expect(best.body.items.map((m: { id: string }) => m.id)).toEqual([last]);
    await owner.client.post(`/api/experiments/${expId}/best-model`, { model_id: models[0].id });
  });

  it('serves models: get, parameters, explain, predict with contributions, batch predict', async () => {
    const leaderboard = (await owner.client.get(`/api/experiments/${expId}`)).body.models;
    // Contributions need a model that has them: the best non-ensemble model.
    const modelId = leaderboard.find((x: { algo: string }) => x.algo !== 'StackedEnsemble').id;
    const m = await owner.client.get(`/api/models/${modelId}`);
    expect(m.body.model).toMatchObject({ id: modelId, experiment_id: expId, project_id: projectId, experiment_name: 'Titanic', project_name: 'ML' });
    expect(m.body.model.metrics).toMatchObject({ auc: expect.any(Number), threshold: expect.any(Number), metric_context: { operating_threshold_metric: 'f1', split: 'cross_validation' } });
    expect(m.body.model.metrics.confusion_matrix.labels).toEqual(['0', '1']);
    expect(m.body.model.metrics.variable_importance.length).toBeGreaterThan(0);
    const params = await owner.client.get(`/api/models/${modelId}/parameters`);
    const entries = Object.values(params.body.parameters) as { default: unknown; actual: unknown }[];
    expect(entries.length).toBeGreaterThan(3);
    for (const p of entries) expect(Object.keys(p).sort()).toEqual(['actual', 'default']);
    const ex = await owner.client.get(`/api/models/${modelId}/explain`);
    expect(ex.body.explain.roc_curve.fpr.length).toBe(ex.body.explain.roc_curve.tpr.length);
    expect(ex.body.explain.shap_summary[0]).toEqual({ feature: expect.any(String), mean_abs_contribution: expect.any(Number) });
    expect(ex.body.explain.variable_importance[0]).toEqual({ variable: expect.any(String), percentage: expect.any(Number), scaled_importance: 1 });

    const row = {
      pclass: 3,
      sex: 'male',
      age: 22,
      sibsp: 1,
      parch: 0,
      fare: 7.25,
      embarked: 'S',
      class: 'Third',
      who: 'man',
      adult_male: true,
      deck: null,
      embark_town: 'Southampton',
      alive: 'no',
      alone: false,
    };
    const p1 = await owner.client.post(`/api/models/${modelId}/predict`, { inputs: row, options: { include_contributions: true } });
    expect(p1.status).toBe(200);
    expect(p1.headers.get('x-service-model-cache')).toBe('miss');
    expect(p1.body.predictions[0].prediction).toBe('0');
    expect(p1.body.predictions[0].probabilities['0'] + p1.body.predictions[0].probabilities['1']).toBeCloseTo(1, 5);
    const contrib = p1.body.contributions[0];
    expect(contrib[contrib.length - 1].feature).toBe('BiasTerm');
    // Parity: ONNX Runtime behind /predict equals the engine scoring the stored model itself.
    const native = await owner.client.get(`/api/artifacts/${m.body.model.artifact_id}/download`);
    const engineModel = modelFromJSON(JSON.parse(native.raw!.toString('utf8')));
    const schema = m.body.input_schema as { name: string; dtype: string }[];
    const engine = engineModel.predict(rowsToFrame([row], schema));
    expect(p1.body.predictions[0].probabilities['1']).toBeCloseTo(engine.probabilities![1], 5);
    // Contributions sum to the raw prediction (the margin: log-odds of class 1).
    const p = engine.probabilities![1];
    const sum = contrib.reduce((a: number, c: { value: number }) => a + c.value, 0);
    expect(sum).toBeCloseTo(Math.log(p / (1 - p)), 4);
    const p2 = await owner.client.post(`/api/models/${modelId}/predict`, { inputs: [row, { ...row, sex: 'female', who: 'woman', adult_male: false, alive: 'yes' }] });
    expect(p2.headers.get('x-service-model-cache')).toBe('hit');
    expect(p2.body.predictions.map((p: { prediction: string }) => p.prediction)).toEqual(['0', '1']);
    expect(p2.body.contributions).toBeUndefined();
    const se = leaderboard.find((x: { algo: string }) => x.algo === 'StackedEnsemble').id;
    const sp = await owner.client.post(`/api/models/${se}/predict`, { inputs: [row] });
    expect(sp.status).toBe(200);
    expect(Object.keys(sp.body.predictions[0].probabilities).sort()).toEqual(['0', '1']);
    const seContrib = await owner.client.post(`/api/models/${se}/predict`, { inputs: [row], options: { include_contributions: true } });
    expect(seContrib.status).toBe(422);
    expect(seContrib.body.detail).toMatch(/StackedEnsemble/);

    const bad = await owner.client.post(`/api/models/${modelId}/predict`, { inputs: { ...row, age: 'old' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'inputs', 0, 'age']);
    expect((await owner.client.post(`/api/models/${modelId}/predict`, { inputs: [] })).status).toBe(422);
    expect((await owner.client.post(`/api/models/${modelId}/predict`, {})).status).toBe(422);
    expect((await owner.client.post(`/api/models/${modelId}/predict`, { inputs: 'row' })).status).toBe(422);

    const csv = 'pclass,sex,age,fare,alive\n3,male,22,7.25,no\n1,female,38,71.28,yes\n';
    const batch = await owner.client.upload(`/api/models/${modelId}/predict/batch`, {}, { name: 'rows.csv', data: csv });
    expect(batch.status).toBe(200);
    expect(batch.body.row_count).toBe(2);
    expect(batch.body.predictions[0]).toMatchObject({ pclass: 3, sex: 'male', pred_predict: expect.any(String), '0': expect.any(Number), '1': expect.any(Number) });
    const junk = await owner.client.upload(`/api/models/${modelId}/predict/batch`, {}, { name: 'x.csv', data: Buffer.from([0, 1, 2, 255, 254, 0, 0, 9]) });
    expect(junk.body).toEqual({ detail: 'Unsupported file type' });
    const lines = ['pclass,sex,age,fare,embarked,alone'];
    for (let i = 0; i < 100_000; i++) lines.push(`${1 + (i % 3)},${i % 2 ? 'male' : 'female'},${i % 80},${(i % 500) / 3},S,${i % 2 === 0}`);
    const rssBefore = process.memoryUsage().rss;
    const big = await owner.client.upload(`/api/models/${modelId}/predict/batch`, {}, { name: 'big.csv', data: lines.join('\n') });
    expect(big.status).toBe(200);
    expect(big.body.row_count).toBe(100_000);
    expect(big.body.predictions[99_999]).toMatchObject({ pred_predict: expect.any(String) });
    // The API runs in this process: the batch must not balloon it.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1024 * 1024);

    const stranger = await signUp(stack.baseUrl, stack.mail);
    expect((await stranger.client.get(`/api/models/${modelId}`)).body).toEqual({ detail: 'Model not found' });
    expect((await stranger.client.post(`/api/models/${modelId}/predict`, { inputs: row })).status).toBe(404);
    expect((await stranger.client.get(`/api/experiments/${expId}`)).body).toEqual({ detail: 'Experiment not found' });
    const key = (await owner.client.post('/api/auth/api-keys', { name: 'ro', scopes: ['read:models'] })).body.api_key;
    const ro = new ApiClient(stack.baseUrl).withKey(key);
    expect((await ro.get(`/api/models/${modelId}`)).status).toBe(200);
    expect((await ro.post(`/api/models/${modelId}/predict`, { inputs: row })).body).toEqual({ detail: 'Insufficient scope' });
  });

  it('counts, timelines and lineage include the experiment; deleting it removes its models', async () => {
    const p = (await owner.client.get(`/api/projects/${projectId}`)).body.project;
    expect(p.experiment_count).toBeGreaterThanOrEqual(1);
    expect(p.model_count).toBeGreaterThanOrEqual(3);
    const lineage = await owner.client.get(`/api/datasets/${titanic.datasetId}/lineage`);
    expect(lineage.body.experiments.map((e: { id: string }) => e.id)).toContain(expId);
    expect(lineage.body.models.length).toBeGreaterThanOrEqual(3);
    const tl = await owner.client.get(`/api/projects/${projectId}/timeline`);
    expect(tl.body.events.find((e: { id: string }) => e.id === expId)).toMatchObject({ type: 'experiment', status: 'succeeded', best_model_type: expect.any(String), duration: expect.any(Number) });
    expect((await owner.client.del(`/api/datasets/${titanic.datasetId}`)).status).toBe(409);

    const models = (await owner.client.get(`/api/models?experiment_id=${expId}&sort_metric=auc&sort_dir=desc`)).body.items;
    expect(models).toHaveLength(4);
    const aucs = models.map((x: { metrics: { auc: number } }) => x.metrics.auc);
    expect([...aucs].sort((a, b) => b - a)).toEqual(aucs);
    expect((await owner.client.del(`/api/models/${models[3].id}`)).body).toEqual({ ok: true });
    expect((await owner.client.get(`/api/models/${models[3].id}`)).status).toBe(404);
    expect((await owner.client.del(`/api/experiments/${expId}`)).body).toEqual({ ok: true });
    expect((await owner.client.get(`/api/experiments/${expId}`)).status).toBe(404);
    expect((await owner.client.get(`/api/models?experiment_id=${expId}`)).body.total).toBe(0);
  });
});

describe('other experiment outcomes', () => {
  it('trains a regression experiment with a validation split (nfolds 0)', async () => {
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: mpg.versionId,
      name: 'MPG',
      target_column: 'mpg',
      problem_type: 'regression',
      config: { max_models: 2, nfolds: 0, sort_metric: 'MAE' },
    });
    const done = await waitFinished(owner.client, r.body.id);
    expect(done.status).toBe('succeeded');
    const e = await owner.client.get(`/api/experiments/${r.body.id}`);
    const maes = e.body.models.map((m: { metrics: { mae: number } }) => m.metrics.mae);
    expect([...maes].sort((a, b) => a - b)).toEqual(maes);
    expect(e.body.models[0].metrics.metric_context.split).toBe('validation');
    const p = await owner.client.post(`/api/models/${e.body.best_model_id}/predict`, {
      inputs: { cylinders: 4, displacement: 120, horsepower: 90, weight: 2400, acceleration: 16, model_year: 78, origin: 'japan' },
    });
    expect(typeof p.body.predictions[0].prediction).toBe('number');
    expect(p.body.predictions[0].prediction).toBeGreaterThan(15);
  });

  it('fails with a readable error when no feature can be used', async () => {
    const rows = ['id,label', ...Array.from({ length: 60 }, (_, i) => `${i + 1},${i % 2 ? 'yes' : 'no'}`)].join('\n');
    const d = await uploadDataset(owner.client, projectId, 'ids-only', { name: 'ids.csv', data: rows });
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: d.versionId,
      name: 'hopeless',
      target_column: 'label',
      problem_type: 'classification',
      config: { max_models: 2, nfolds: 2 },
    });
    const done = await waitFinished(owner.client, r.body.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/No usable feature columns/);
    const job = (await owner.client.get(`/api/jobs/${r.body.job_id}`)).body.job;
    expect(job.status).toBe('failed');
    expect(job.attempt).toBeLessThanOrEqual(1);
  });

  it('cancels a running experiment and keeps the models trained so far', async () => {
    const big = await uploadDataset(owner.client, projectId, 'diamonds', datasetFile('diamonds.csv'));
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: big.versionId,
      name: 'cancel me',
      target_column: 'price',
      problem_type: 'regression',
      config: { max_models: 10, nfolds: 2 },
    });
    await eventually(async () => ((await owner.client.get(`/api/experiments/${r.body.id}/status`)).body.progress.models_done >= 1 ? true : undefined), 240_000, 500);
    expect((await owner.client.post(`/api/jobs/${r.body.job_id}/cancel`)).body).toEqual({ ok: true });
    const done = await waitFinished(owner.client, r.body.id);
    expect(done.status).toBe('canceled');
    const e = await owner.client.get(`/api/experiments/${r.body.id}`);
    expect(e.body.models.length).toBeGreaterThanOrEqual(1);
    expect(e.body.models.length).toBeLessThan(10);
    expect(e.body.best_model_id).toBe(e.body.models[0].id);
  }, 300_000);
});

describe('budgets', () => {
  it('stops training new models when max_runtime_secs runs out, within the budget plus one model', async () => {
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: mpg.versionId,
      name: 'budget',
      target_column: 'mpg',
      problem_type: 'regression',
      config: { max_runtime_secs: 4, max_models: 60, nfolds: 2, exclude_algos: ['DeepLearning', 'StackedEnsemble'] },
    });
    const done = await waitFinished(owner.client, r.body.id);
    expect(done.status).toBe('succeeded');
    const e = (await owner.client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.models.length).toBeGreaterThanOrEqual(1);
    expect(e.models.length).toBeLessThan(60);
    const longest = Math.max(...e.models.map((m: { training_time_ms: number }) => m.training_time_ms)) / 1000;
    // Started-to-finished includes data preparation and per-model bookkeeping; allow a few seconds of it.
    expect(done.progress.elapsed_secs).toBeLessThanOrEqual(4 + longest + 5);
    const logs = (await owner.client.get(`/api/experiments/${r.body.id}/logs?include_h2o_logs=false`)).body.logs.join('\n');
    expect(logs).toMatch(/time budget of 4s reached after \d+ models/);
  }, 120_000);
});

describe('GPU routing', () => {
  it('sends DeepLearning to ml-gpu and falls back to the ml-train queue when no GPU worker takes it', async () => {
    const r = await owner.client.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: titanic.versionId,
      name: 'gpu',
      target_column: 'survived',
      problem_type: 'classification',
      use_gpu: true,
      config: { max_models: 1, nfolds: 2, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'GLM', 'StackedEnsemble'] },
    });
    const done = await waitFinished(owner.client, r.body.id);
    expect(done.status).toBe('succeeded');
    const e = (await owner.client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.models.map((m: { algo: string }) => m.algo)).toEqual(['DeepLearning']);
    const logs = (await owner.client.get(`/api/experiments/${r.body.id}/logs`)).body.logs.join('\n');
    expect(logs).toContain(`no GPU worker took DeepLearning_1 within 2s; training it on a CPU worker (task queue ${stack.config.training.taskQueue})`);
    const p = await owner.client.post(`/api/models/${e.best_model_id}/predict`, { inputs: { pclass: 1, sex: 'female', age: 30 }, options: { include_contributions: true } });
    expect(p.status).toBe(200);
    expect(p.body.contributions[0].at(-1).feature).toBe('BiasTerm');
  }, 240_000);
});

describe('GPU worker present', () => {
  it('trains DeepLearning on the ml-gpu queue when a GPU worker polls it', async () => {
    const wds = createDataSource({ url: stack.databaseUrl, poolSize: 2 });
    await wds.initialize();
    const gpu = await createWorkers({ config: stack.config, dataSource: wds, families: ['gpu'] });
    const running = Promise.all(gpu.workers.map((w) => w.run()));
    try {
      const caps = await owner.client.get('/api/experiments/capabilities');
      expect(caps.body.gpu.queue).toBe(stack.config.taskQueues.gpu);
      expect(caps.body.limits.max_models_cap).toBe(100); // MAX_MODELS_PER_EXPERIMENT's default, within the engine's 500
      const r = await owner.client.post('/api/experiments', {
        project_id: projectId,
        dataset_version_id: titanic.versionId,
        name: 'gpu-worker',
        target_column: 'survived',
        problem_type: 'classification',
        use_gpu: true,
        config: { max_models: 1, nfolds: 2, exclude_algos: ['GBM', 'XGBoost', 'DRF', 'GLM', 'StackedEnsemble'] },
      });
      const done = await waitFinished(owner.client, r.body.id);
      expect(done.status).toBe('succeeded');
      const logs = (await owner.client.get(`/api/experiments/${r.body.id}/logs`)).body.logs.join('\n');
      expect(logs).toContain(`on task queue ${stack.config.taskQueues.gpu}`);
      expect(logs).not.toMatch(/no GPU worker took/);
    } finally {
      gpu.workers.forEach((w) => w.shutdown());
      await running;
      await gpu.trainingPool.close();
      await gpu.connection.close();
      await wds.destroy();
    }
  }, 240_000);
});

describe('project deletion', () => {
  it('deletes a project with datasets, experiments and models, files included', async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    const pid = await createProject(u.client, 'Doomed');
    const d = await uploadDataset(u.client, pid, 'penguins', datasetFile('penguins.csv'));
    const r = await u.client.post('/api/experiments', {
      project_id: pid,
      dataset_version_id: d.versionId,
      name: 'p',
      target_column: 'species',
      problem_type: 'multiclass',
      config: { max_models: 3, nfolds: 2 },
    });
    const done = await waitFinished(u.client, r.body.id);
    expect(done.status).toBe('succeeded');
    const e = (await u.client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.experiment.problem_kind).toBe('multiclass');
    expect(e.experiment.sort_metric).toBe('logloss');
    // Several families and a stacked ensemble over them, ranked by logloss.
    expect(e.models.map((m: { algo: string }) => m.algo).sort()).toEqual(['GBM', 'GLM', 'StackedEnsemble', 'XGBoost']);
    const losses = e.models.map((m: { metrics: { logloss: number } }) => m.metrics.logloss);
    expect([...losses].sort((a, b) => a - b)).toEqual(losses);
    const pred = await u.client.post(`/api/models/${e.best_model_id}/predict`, {
      inputs: { island: 'Biscoe', bill_length_mm: 48, bill_depth_mm: 15, flipper_length_mm: 220, body_mass_g: 5200, sex: 'MALE' },
    });
    expect(pred.body.predictions[0].prediction).toBe('Gentoo');
    const keys: { storage_key: string }[] = await stack.ds.query('SELECT storage_key FROM artifacts WHERE project_id = $1', [pid]);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect((await u.client.del(`/api/projects/${pid}`)).body).toEqual({ ok: true });
    for (const k of keys) expect(await stack.store.exists(k.storage_key)).toBe(false);
    expect((await u.client.get(`/api/experiments/${r.body.id}`)).status).toBe(404);
  });
});
