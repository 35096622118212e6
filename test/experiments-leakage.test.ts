import { ApiClient, createProject, eventually, signUp } from './support/client';
import { datasetFile } from './support/datasets';
import { startStack, TestStack } from './support/stack';

/**
 * Issue 33: `config.ignored_columns` (validated, stored, applied in training) and leakage warnings found in data
 * preparation (titanic's `alive` for `survived`), with progress counted as base models of those planned.
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let versionId: string;
let datasetId: string;

/** A small, quick run: two base models and their ensemble. */
const QUICK = { max_models: 2, max_runtime_secs: 120, nfolds: 2, seed: 1, exclude_algos: ['DeepLearning'] };

const body = (extra: Record<string, unknown> = {}) => ({
  project_id: projectId,
  dataset_version_id: versionId,
  name: 'titanic survived',
  target_column: 'survived',
  problem_type: 'classification',
  ...extra,
});

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const r = await owner.client.post('/api/auth/api-keys', { name: scopes.join(' '), scopes });
  if (r.status !== 201) throw new Error(`key failed ${r.status} ${JSON.stringify(r.body)}`);
  return owner.client.withKey(r.body.api_key);
}

type Progress = { models_done: number; models_planned: number; ensemble: string; percent: number; summary: string };

/** Polls the status until the run ends, keeping every progress it saw. */
async function followRun(id: string): Promise<{ status: string; seen: Progress[] }> {
  const seen: Progress[] = [];
  const end = await eventually(
    async () => {
      const s = await owner.client.get(`/api/experiments/${id}/status`);
      expect(s.status).toBe(200);
      seen.push(s.body.progress);
      return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
    },
    240_000,
    250,
  );
  return { status: end.status, seen };
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Leakage');
  const r = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
  expect(r.status).toBe(201);
  versionId = r.body.dataset_version_id;
  datasetId = r.body.id;
});
afterAll(async () => stack?.stop());

describe('config.ignored_columns validation', () => {
  const issue = async (ignored: unknown) => {
    const r = await owner.client.post('/api/experiments', body({ config: { ...QUICK, ignored_columns: ignored } }));
    expect(r.status).toBe(422);
    const d = r.body.detail as { loc: (string | number)[]; msg: string }[];
    expect(d[0].loc.slice(0, 3)).toEqual(['body', 'config', 'ignored_columns']);
    return d[0].msg;
  };

  it('names unknown, repeated and target columns, and a list that leaves no feature', async () => {
    expect(await issue(['alive', 'no_such_column'])).toBe('ignored_columns names columns the dataset version does not have: "no_such_column"');
    expect(await issue(['alive', 'alive'])).toBe('ignored_columns lists "alive" more than once');
    expect(await issue(['survived'])).toBe('ignored_columns cannot include the target column survived');
    const features = ['pclass', 'sex', 'age', 'sibsp', 'parch', 'fare', 'embarked', 'class', 'who', 'adult_male', 'deck', 'embark_town', 'alive', 'alone'];
    expect(await issue(features)).toBe('ignored_columns leaves no feature column to train on');
    expect(await issue([...features, 'survived', 'x'])).toBe('ignored_columns lists 16 names; the dataset version has 15 columns');
  });

  it('refuses hostile values with 422, never 500', async () => {
    for (const bad of ['alive', 42, { alive: true }, [1], [2 ** 31], [null], [''], ['a'.repeat(501)]]) await issue(bad);
    // A list past the config's 64 KiB is refused as a whole config.
    const huge = await owner.client.post('/api/experiments', body({ config: { ignored_columns: Array.from({ length: 10_001 }, (_, i) => `column ${i}`) } }));
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'config']);
    // NUL characters are refused in any text of a body.
    expect(await issue(['al\u0000ive'])).toMatch(/NUL/);
    // Nothing was created by any of them.
    expect((await owner.client.get(`/api/experiments?project_id=${projectId}`)).body.total).toBe(0);
  });

  it('answers a missing CSRF header, a narrow key, a stranger and a wrong project as the spec says', async () => {
    const withList = body({ config: { ...QUICK, ignored_columns: ['alive'] } });
    owner.client.sendCsrf = false;
    try {
      const r = await owner.client.post('/api/experiments', withList);
      expect(r.status).toBe(403);
      expect(r.body.detail).toBe('CSRF token missing or invalid');
    } finally {
      owner.client.sendCsrf = true;
    }
    const reader = await keyWith(['read:experiments']);
    expect((await reader.post('/api/experiments', withList)).body).toEqual({ detail: 'Insufficient scope' });
    const stranger = await signUp(stack.baseUrl, stack.mail);
    expect((await stranger.client.post('/api/experiments', withList)).body).toEqual({ detail: 'Project not found' });
    // The stranger's own project with this project's dataset version: the version is not theirs to see.
    const theirs = await createProject(stranger.client, 'Theirs');
    const cross = await stranger.client.post('/api/experiments', { ...withList, project_id: theirs });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ detail: 'Dataset version not found' });
    expect((await owner.client.get(`/api/experiments?project_id=${projectId}`)).body.total).toBe(0);
  });
});

describe('leakage warnings and ignored columns in training', () => {
  let leakyId: string;

  it("warns about alive on titanic, counts progress as base models of those planned, and shows the run's facts", async () => {
    const r = await owner.client.post('/api/experiments', body({ config: QUICK }));
    expect(r.status).toBe(201);
    leakyId = r.body.id;
    const { status, seen } = await followRun(leakyId);
    expect(status).toBe('succeeded');
    for (const p of seen) expect(p.models_done).toBeLessThanOrEqual(p.models_planned);
    const percents = seen.map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toMatchObject({ models_done: 2, models_planned: 2, ensemble: 'done', percent: 100, summary: '2 of 2 models + ensemble' });

    const e = (await owner.client.get(`/api/experiments/${leakyId}`)).body;
    expect(e.experiment.warnings).toHaveLength(1);
    expect(e.experiment.warnings[0]).toMatchObject({ kind: 'leakage', column: 'alive', measure: 'auc' });
    expect(e.experiment.warnings[0].score).toBeGreaterThan(0.98);
    expect(e.experiment.warnings[0].message).toContain('alive alone predicts survived almost perfectly');
    expect(e.experiment).toMatchObject({ ignored_columns: [], problem_kind: 'binary', dataset_version: 0, best_score_metric: 'AUC' });
    // Every model scores near 1.0 with the leaking column: exactly what the warning is about.
    expect(e.experiment.best_score).toBeGreaterThan(0.98);
    expect(e.experiment.model_count).toBe(3);
    const logs = (await owner.client.get(`/api/experiments/${leakyId}/logs?include_h2o_logs=false`)).body.logs.join('\n');
    expect(logs).toMatch(/WARN \[service\] Possible target leakage: alive/);

    const list = (await owner.client.get(`/api/experiments?project_id=${projectId}`)).body.items;
    const listed = list.find((x: { id: string }) => x.id === leakyId);
    expect(listed).toMatchObject({ warnings: e.experiment.warnings, best_score: e.experiment.best_score, best_score_metric: 'AUC', dataset_version: 0 });
    expect(listed.progress).toMatchObject({ models_done: 2, models_planned: 2, summary: '2 of 2 models + ensemble' });
    const job = (await owner.client.get(`/api/jobs/${e.experiment.job_id}`)).body.job;
    expect(job).toMatchObject({ status: 'succeeded', progress: 100 });
  });

  it('retrains without the leaking column: no model sees it, and nothing leaks any more', async () => {
    const leaky = (await owner.client.get(`/api/experiments/${leakyId}`)).body.experiment;
    const { ignored_columns: _shown, ...config } = leaky.config;
    const r = await owner.client.post('/api/experiments', body({ name: 'retrained', config: { ...config, ignored_columns: ['alive'] } }));
    expect(r.status).toBe(201);
    expect((await followRun(r.body.id)).status).toBe('succeeded');
    const e = (await owner.client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.experiment).toMatchObject({ ignored_columns: ['alive'], warnings: [] });
    expect(e.experiment.config.ignored_columns).toEqual(['alive']);
    expect(e.experiment.best_score).toBeLessThan(0.98);

    for (const m of e.models) {
      const model = (await owner.client.get(`/api/models/${m.id}`)).body;
      expect(model.input_schema.map((c: { name: string }) => c.name)).not.toContain('alive');
      if (model.model.onnx_artifact_id) {
        const onnx = await owner.client.get(`/api/artifacts/${model.model.onnx_artifact_id}/download`);
        expect(onnx.status).toBe(200);
        expect(onnx.raw!.includes(Buffer.from('alive'))).toBe(false);
      }
    }
    const explain = (await owner.client.get(`/api/experiments/${r.body.id}/explain`)).body.explain;
    expect(explain.varimp_heatmap.features.length).toBeGreaterThan(0);
    expect(explain.varimp_heatmap.features).not.toContain('alive');
    const nb = await owner.client.get(`/api/experiments/${r.body.id}/notebook`);
    expect(JSON.stringify(nb.body.cells)).not.toContain('alive');
    const logs = (await owner.client.get(`/api/experiments/${r.body.id}/logs`)).body.logs.join('\n');
    expect(logs).toContain('ignoring alive');
    expect(logs).toContain('ignored columns (config.ignored_columns): alive');
    // The list filters by dataset too, and the capabilities name the key with its default.
    expect((await owner.client.get(`/api/experiments?dataset_id=${datasetId}`)).body.total).toBe(2);
    expect((await owner.client.get('/api/experiments/capabilities')).body.config_defaults.ignored_columns).toEqual([]);
  });

  it("a retraining of a model repeats its experiment's ignored columns", async () => {
    const M = '/api/mlops';
    const retrained = (await owner.client.get(`/api/experiments?project_id=${projectId}&search=retrained`)).body.items[0];
    expect(retrained.ignored_columns).toEqual(['alive']);
    const rm = await owner.client.post(`${M}/projects/${projectId}/registry`, { name: 'survival' });
    expect(rm.status).toBe(201);
    const v = await owner.client.post(`${M}/registry/${rm.body.id}/versions`, { model_id: retrained.best_model_id });
    expect(v.status).toBe(201);
    expect((await owner.client.put(`${M}/registry/${rm.body.id}/aliases/champion`, { version_id: v.body.id })).status).toBeLessThan(300);
    const tiny = { max_models: 1, nfolds: 2, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GBM'] };
    const policy = await owner.client.post(`${M}/retraining-policies`, { project_id: projectId, registered_model_id: rm.body.id, name: 'again', experiment: tiny, gate: { min_improvement: -1 } });
    expect(policy.status).toBe(201);
    const run = await owner.client.post(`${M}/retraining-policies/${policy.body.id}/run`, {});
    expect(run.status).toBe(201);
    const experimentId = await eventually(async () => (await owner.client.get(`${M}/retraining-jobs/${run.body.id}`)).body.experiment_id as string | null, 120_000, 500);
    expect((await followRun(experimentId)).status).toBe('succeeded');
    const e = (await owner.client.get(`/api/experiments/${experimentId}`)).body;
    expect(e.experiment).toMatchObject({ ignored_columns: ['alive'], warnings: [] });
    const model = (await owner.client.get(`/api/models/${e.models[0].id}`)).body;
    expect(model.input_schema.map((c: { name: string }) => c.name)).not.toContain('alive');
  });

  it('documents ignored_columns and warnings in the OpenAPI document', async () => {
    const doc = (await owner.client.get('/api/openapi.json')).body;
    const text = JSON.stringify(doc);
    expect(text).toContain('ignored_columns');
    expect(text).toContain('functional_dependence');
  });
});
