import fs from 'node:fs';
import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, toCsv, trainQuickModels, trainQuickRegression } from './support/trained-models';

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let versionId: string;
let gbm: string;
let regression: string;
let regressionVersionId: string;
let prod: string;
let regDeployment: string;

const S = '/api/studio';
/** MAX_STUDIO_SESSIONS_PER_USER of this file's stack: above what the owner creates in the other tests. */
const SESSION_CAP = 40;
const M = '/api/mlops';
const sample = syntheticRows(5, 99);
const row = () => ({ x1: sample[0].x1 as number, x2: sample[0].x2 as number, color: sample[0].color as string });

interface Contribution {
  feature: string;
  value: number;
}

async function deploy(c: ApiClient, body: Record<string, unknown>): Promise<string> {
  const r = await c.post(`${M}/projects/${projectId}/deployments`, body);
  if (r.status !== 201) throw new Error(`deploy failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function newSession(baseline: Record<string, unknown>, deploymentId = prod): Promise<string> {
  const r = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: deploymentId, baseline_input: baseline });
  if (r.status !== 201) throw new Error(`session failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function newScenario(sessionId: string, changes: Record<string, unknown>, name = 'scenario'): Promise<string> {
  const r = await owner.client.post(`${S}/sessions/${sessionId}/scenarios`, { name, changes });
  if (r.status !== 201) throw new Error(`scenario failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function session(id: string) {
  return (await owner.client.get(`${S}/sessions/${id}`)).body.session;
}

async function inferenceLogCount(deploymentId: string): Promise<number> {
  return (await owner.client.get(`${M}/deployments/${deploymentId}/inference-logs?limit=1`)).body.total;
}

/** Sorted by absolute delta, largest first. */
function expectSortedByMagnitude(deltas: { delta: number }[]) {
  for (let i = 1; i < deltas.length; i++) expect(Math.abs(deltas[i - 1].delta)).toBeGreaterThanOrEqual(Math.abs(deltas[i].delta));
}

/**
 * A customer table whose rows are people: a name (a category: each name is shared by a few rows),
 * a unique email and phone, two numeric features, a plan, and the target `y`.
 */
function peopleRows(n: number): Record<string, string | number>[] {
  const first = ['Alice', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivan', 'Julia', 'Kofi', 'Lena'];
  const last = ['Smith', 'Okafor', 'Novak', 'Garcia', 'Tanaka', 'Weber', 'Rossi', 'Dubois', 'Kowalski'];
  const plans = ['basic', 'basic', 'pro', 'team'];
  return Array.from({ length: n }, (_, i) => {
    const [f, l] = [first[i % first.length], last[(i * 5) % last.length]];
    const spend = Number((10 + ((i * 53) % 97) * 1.37).toFixed(2));
    const plan = plans[(i * 3) % plans.length];
    return {
      name: `${f} ${l}`,
      email: `${f.toLowerCase()}.${l.toLowerCase()}.${i}@example.com`,
      phone: `+1 415 555 ${String(1000 + i).padStart(4, '0')}`,
      tenure_months: 1 + ((i * 37) % 60),
      plan,
      spend,
      y: spend > 70 !== (plan === 'team') ? 'churn' : 'stay',
    };
  });
}

/** The median as DuckDB's quantile_cont computes it. */
function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = (s.length - 1) / 2;
  return (s[Math.floor(m)] + s[Math.ceil(m)]) / 2;
}

/** Uploads `rows` and trains one GBM on them; its model id and the dataset's id. */
async function trainGbm(rows: Record<string, string | number>[], name: string): Promise<{ modelId: string; datasetId: string }> {
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name }, { name: `${name}.csv`, data: toCsv(rows) });
  if (up.status !== 201) throw new Error(`upload failed ${up.status} ${JSON.stringify(up.body)}`);
  const exclude = ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GLM'];
  const e = await owner.client.post('/api/experiments', {
    project_id: projectId,
    dataset_version_id: up.body.dataset_version_id,
    name,
    target_column: 'y',
    problem_type: 'binary',
    config: { max_models: 1, nfolds: 2, seed: 1, exclude_algos: exclude },
  });
  if (e.status !== 201) throw new Error(`experiment failed ${e.status} ${JSON.stringify(e.body)}`);
  const status = await eventually(
    async () => {
      const s = (await owner.client.get(`/api/experiments/${e.body.id}/status`)).body.status;
      return ['succeeded', 'failed', 'canceled'].includes(s) ? s : undefined;
    },
    240_000,
    500,
  );
  if (status !== 'succeeded') throw new Error(`training ${status}`);
  const models = (await owner.client.get(`/api/experiments/${e.body.id}`)).body.models as { id: string }[];
  return { modelId: models[0].id, datasetId: up.body.dataset_id };
}

async function keyOf(scopes: string[]): Promise<ApiClient> {
  const r = await owner.client.post('/api/auth/api-keys', { name: scopes.join(' '), scopes });
  if (r.status !== 201) throw new Error(`key creation failed ${r.status}`);
  return owner.client.withKey(r.body.api_key);
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000', RATE_LIMIT_GENERAL: '10000', MAX_STUDIO_SESSIONS_PER_USER: String(SESSION_CAP) } });
  [owner, viewer, stranger] = await Promise.all([signUp(stack.baseUrl, stack.mail), signUp(stack.baseUrl, stack.mail), signUp(stack.baseUrl, stack.mail)]);
  projectId = await createProject(owner.client, 'What-if');
  await addMember(owner.client, viewer, projectId, 'viewer');
  const [binary, reg] = await Promise.all([trainQuickModels(owner.client, projectId, ['GBM'], 300), trainQuickRegression(owner.client, projectId)]);
  versionId = binary.versionId;
  gbm = binary.models.GBM;
  regression = reg.modelId;
  regressionVersionId = reg.versionId;
  prod = await deploy(owner.client, { model_id: gbm, name: 'prod', stage: 'production' });
  regDeployment = await deploy(owner.client, { model_id: regression, name: 'regression', stage: 'staging' });
}, 300_000);
afterAll(async () => stack?.stop());

describe('the deployment schema', () => {
  it('gives the feature schema without the target and an example input that starts a session', async () => {
    const r = await owner.client.get(`${S}/deployments/${prod}/schema`);
    expect(r.status).toBe(200);
    const experimentId = (await owner.client.get(`/api/models/${gbm}`)).body.model.experiment_id;
    expect(r.body).toMatchObject({
      deployment_id: prod,
      project_id: projectId,
      model_id: gbm,
      experiment_id: experimentId,
      dataset_version_id: versionId,
      target_column: 'y',
      feature_schema: { x1: 'float64', x2: 'float64', color: 'category' },
      example_source: 'training_statistics',
    });
    expect(Object.keys(r.body.feature_schema).sort()).toEqual(['color', 'x1', 'x2']);
    for (const k of Object.keys(r.body.example_input)) expect(Object.keys(r.body.feature_schema)).toContain(k);
    expect(Object.keys(r.body.example_input).length).toBeGreaterThan(0);
    const s = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: r.body.example_input });
    expect(s.status).toBe(201);
  });
});

describe('the example input of a deployment (issue 27)', () => {
  it('is typical values of the training data, never a row of it: narrow keys see PII columns masked by the privacy map and by detection', async () => {
    const people = peopleRows(150);
    const { modelId, datasetId } = await trainGbm(people, 'people');
    const dep = await deploy(owner.client, { model_id: modelId, name: 'people', stage: 'staging', privacy_column_map: { phone: 'phone' } });
    // Neither key may read the dataset itself.
    const studioKey = await keyOf(['read:studio']);
    const deploymentsKey = await keyOf(['read:deployments']);
    expect((await studioKey.get(`/api/datasets/${datasetId}`)).status).toBe(403);
    expect((await deploymentsKey.get(`/api/datasets/${datasetId}`)).status).toBe(403);

    const schema = await studioKey.get(`${S}/deployments/${dep}/schema`);
    expect(schema.status).toBe(200);
    expect(schema.body.example_source).toBe('training_statistics');
    const docs = await deploymentsKey.get(`${M}/deployments/${dep}/api-docs`);
    expect(docs.status).toBe(200);
    expect(docs.body['x-example-source']).toBe('training_statistics');
    const fromDocs = docs.body.paths[`${M}/deployments/${dep}/predict`].post.requestBody.content['application/json'].example.inputs;

    const raw = new Set(people.flatMap((p) => [p.name, p.email, p.phone]));
    for (const example of [schema.body.example_input, fromDocs]) {
      // phone: the deployment's privacy map; name (a category several rows share) and email: found by the privacy engine.
      expect(example).toMatchObject({ name: '[MASKED:name]', email: '[MASKED:email]', phone: '[MASKED:phone]', plan: 'basic' });
      expect(example.tenure_months).toBe(Math.round(medianOf(people.map((p) => p.tenure_months as number))));
      expect(example.spend).toBeCloseTo(medianOf(people.map((p) => p.spend as number)), 6);
      for (const v of Object.values(example)) expect(raw.has(v as string)).toBe(false);
      const features = ['name', 'email', 'phone', 'tenure_months', 'plan', 'spend'] as const;
      expect(people.some((p) => features.every((f) => p[f] === example[f]))).toBe(false);
    }
    // It still starts a session and predicts.
    const s = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: dep, baseline_input: schema.body.example_input });
    expect(s.status).toBe(201);
    const docsExample = docs.body.paths[`${M}/deployments/${dep}/predict`].post.requestBody.content['application/json'].example;
    expect((await owner.client.post(`${M}/deployments/${dep}/predict`, docsExample)).status).toBe(200);
  });
});

describe('sessions', () => {
  it('scores the baseline at once through the deployment predict path and stores it with contributions and the schema', async () => {
    const logsBefore = await inferenceLogCount(prod);
    const r = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: row() });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: r.body.studio_session_id, studio_session_id: expect.any(String) });

    const s = await session(r.body.id);
    expect(s).toMatchObject({ id: r.body.id, project_id: projectId, deployment_id: prod, feature_schema: { x1: 'float64', x2: 'float64', color: 'category' }, baseline_input: row(), scenarios: [] });
    expect(Object.keys(s.feature_schema)).not.toContain('y');
    expect(s.created_at).toEqual(expect.any(String));
    // The same answer as the deployment's own predict for the row.
    const direct = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: row(), options: { include_contributions: true } });
    expect(s.baseline_output).toEqual(direct.body.predictions[0]);
    expect(Object.keys(s.baseline_output.probabilities).sort()).toEqual(['neg', 'pos']);
    expect(s.baseline_output).toMatchObject({ positive_class: 'pos', decision_threshold: expect.any(Number), predicted_positive: expect.any(Boolean) });
    expect(s.baseline_contributions).toEqual(direct.body.contributions[0]);
    expect(s.baseline_contributions.at(-1).feature).toBe('BiasTerm');
    expect(s.baseline_contributions.map((c: Contribution) => c.feature).sort()).toEqual(['BiasTerm', 'color', 'x1', 'x2']);
    // What-if rows are not traffic: only the direct predict above was logged.
    expect(await inferenceLogCount(prod)).toBe(logsBefore + 1);
  });

  it('fills features not sent with null (missing) and drops the target column', async () => {
    const id = await newSession({ x1: 0.5, y: 'pos' });
    const s = await session(id);
    expect(s.baseline_input).toEqual({ x1: 0.5, x2: null, color: null });
    expect(s.baseline_output.prediction).toMatch(/^(pos|neg)$/);
  });

  it('refuses keys that are not features, naming them, and values the model cannot read, creating nothing', async () => {
    const before = (await owner.client.get(`${S}/sessions?project_id=${projectId}`)).body.total;
    const unknown = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: { ...row(), nope: 1, other: 'x' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([
      { loc: ['body', 'baseline_input', 'nope'], msg: 'nope is not a feature of the deployed model', type: 'value_error' },
      { loc: ['body', 'baseline_input', 'other'], msg: 'other is not a feature of the deployed model', type: 'value_error' },
    ]);
    const badType = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: { ...row(), x1: 'abc' } });
    expect(badType.status).toBe(422);
    expect(badType.body.detail[0]).toMatchObject({ loc: ['body', 'baseline_input', 'x1'], msg: 'x1 must be a number' });
    expect((await owner.client.get(`${S}/sessions?project_id=${projectId}`)).body.total).toBe(before);
  });

  it('lists the project sessions newest first, a page at a time', async () => {
    const ids = [await newSession(row()), await newSession(row()), await newSession(row())];
    const all = await owner.client.get(`${S}/sessions?project_id=${projectId}&limit=100`);
    expect(all.status).toBe(200);
    const total = all.body.total as number;
    expect(all.body.items.slice(0, 3).map((x: { id: string }) => x.id)).toEqual([...ids].reverse());
    const page = await owner.client.get(`${S}/sessions?project_id=${projectId}&limit=2&offset=1`);
    expect(page.body).toMatchObject({ total, limit: 2, offset: 1 });
    expect(page.body.items.map((x: { id: string }) => x.id)).toEqual([ids[1], ids[0]]);
    expect(Object.keys(page.body.items[0]).sort()).toEqual(['created_at', 'deployment_id', 'id', 'project_id']);
    expect(page.body.items[0]).toMatchObject({ project_id: projectId, deployment_id: prod });
    expect((await owner.client.get(`${S}/sessions?project_id=${projectId}&limit=101`)).status).toBe(422);
    expect((await owner.client.get(`${S}/sessions?project_id=${projectId}&limit=0`)).status).toBe(422);
    const missing = await owner.client.get(`${S}/sessions`);
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['query', 'project_id']);
  });
});

describe('the session cap (issue 27)', () => {
  it('lets one user hold at most MAX_STUDIO_SESSIONS_PER_USER sessions in a project, counting concurrent creates; deleting makes room', async () => {
    const busy = await signUp(stack.baseUrl, stack.mail);
    await addMember(owner.client, busy, projectId, 'editor');
    const body = { project_id: projectId, deployment_id: prod, baseline_input: row() };
    const ids: string[] = [];
    for (let i = 0; i < SESSION_CAP - 3; i++) ids.push((await busy.client.post(`${S}/sessions`, body)).body.id);
    // Six at once for the last three places: three get them.
    const raced = await Promise.all(Array.from({ length: 6 }, () => busy.client.post(`${S}/sessions`, body)));
    expect(raced.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const over = await busy.client.post(`${S}/sessions`, body);
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ detail: `You hold ${SESSION_CAP} studio sessions in this project, the most allowed; delete sessions you no longer need to start another` });
    const held = async () => (await stack.ds.query('SELECT count(*)::int AS n FROM studio_sessions WHERE project_id = $1 AND created_by = $2', [projectId, busy.user.id]))[0].n;
    expect(await held()).toBe(SESSION_CAP);
    // Another member's sessions are their own count.
    expect((await owner.client.post(`${S}/sessions`, body)).status).toBe(201);

    // Deleting needs the editor role; the stranger does not see it.
    expect((await viewer.client.del(`${S}/sessions/${ids[0]}`)).status).toBe(403);
    expect((await stranger.client.del(`${S}/sessions/${ids[0]}`)).body).toEqual({ detail: 'Studio session not found' });
    const scenario = await busy.client.post(`${S}/sessions/${ids[0]}/scenarios`, { name: 'goes too', changes: { x2: 1 } });
    expect(await busy.client.del(`${S}/sessions/${ids[0]}`)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await busy.client.get(`${S}/sessions/${ids[0]}`)).status).toBe(404);
    expect((await stack.ds.query('SELECT count(*)::int AS n FROM studio_scenarios WHERE id = $1', [scenario.body.id]))[0].n).toBe(0);
    expect((await busy.client.post(`${S}/sessions`, body)).status).toBe(201);
    expect((await busy.client.post(`${S}/sessions`, body)).status).toBe(409);
  });
});

describe('scenarios', () => {
  let sessionId: string;
  let baseline: { output: Record<string, unknown>; contributions: Contribution[] };

  beforeAll(async () => {
    sessionId = await newSession(row());
    const s = await session(sessionId);
    baseline = { output: s.baseline_output, contributions: s.baseline_contributions };
  });

  it('refuses changes to keys outside the feature schema, the target included', async () => {
    const r = await owner.client.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'bad', changes: { x1: 1, nope: 2 } });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([{ loc: ['body', 'changes', 'nope'], msg: 'nope is not a feature of the deployed model', type: 'value_error' }]);
    const target = await owner.client.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'bad', changes: { y: 'pos' } });
    expect(target.status).toBe(422);
    expect(target.body.detail[0].loc).toEqual(['body', 'changes', 'y']);
    expect((await session(sessionId)).scenarios).toEqual([]);
  });

  it('creates a pending scenario on the baseline and runs it to succeeded, the same result every run', async () => {
    const created = await owner.client.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'higher x1', description: 'x1 up by 3', changes: { x1: row().x1 + 3 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: created.body.scenario_id, scenario_id: expect.any(String), status: 'pending' });
    const pending = (await session(sessionId)).scenarios[0];
    expect(pending).toMatchObject({
      id: created.body.id,
      name: 'higher x1',
      description: 'x1 up by 3',
      changes: { x1: row().x1 + 3 },
      status: 'pending',
      scenario_input: { ...row(), x1: row().x1 + 3 },
      output: null,
      contributions: null,
      error: null,
    });

    const run = await owner.client.post(`${S}/scenarios/${created.body.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ ok: true, scenario_id: created.body.id, status: 'succeeded' });
    expect(run.body.output.prediction).toMatch(/^(pos|neg)$/);
    expect(run.body.output.probability).toBeGreaterThan(baseline.output.probability as number);
    expect(run.body.contributions.at(-1).feature).toBe('BiasTerm');
    const direct = await owner.client.post(`${M}/deployments/${prod}/predict`, { inputs: { ...row(), x1: row().x1 + 3 }, options: { include_contributions: true } });
    expect(run.body.output).toEqual(direct.body.predictions[0]);
    expect(run.body.contributions).toEqual(direct.body.contributions[0]);

    const stored = (await session(sessionId)).scenarios[0];
    expect(stored).toMatchObject({ status: 'succeeded', output: run.body.output, contributions: run.body.contributions, error: null });
    const again = await owner.client.post(`${S}/scenarios/${created.body.id}/run`);
    expect(again.body).toEqual(run.body);
  });

  it('fails a scenario whose input the model cannot read, answering 422 and keeping the error', async () => {
    const id = await newScenario(sessionId, { x1: 'not a number' }, 'broken');
    const run = await owner.client.post(`${S}/scenarios/${id}/run`);
    expect(run.status).toBe(422);
    expect(run.body).toEqual({ detail: 'Scenario prediction failed: x1 must be a number' });
    const stored = (await session(sessionId)).scenarios.find((s: { id: string }) => s.id === id);
    expect(stored).toMatchObject({ status: 'failed', error: 'Scenario prediction failed: x1 must be a number', output: null, contributions: null });
  });

  it('compares the baseline with succeeded scenarios only: no prediction delta for labels, contribution deltas largest first', async () => {
    const lower = await newScenario(sessionId, { x1: row().x1 - 2, color: 'blue' }, 'lower x1, blue');
    expect((await owner.client.post(`${S}/scenarios/${lower}/run`)).status).toBe(200);
    const pending = await newScenario(sessionId, { x2: 9 }, 'never run');

    const c = await owner.client.get(`${S}/sessions/${sessionId}/compare`);
    expect(c.status).toBe(200);
    expect(c.body.baseline).toEqual(baseline);
    const names = c.body.scenarios.map((s: { name: string }) => s.name);
    expect(names).toEqual(['higher x1', 'lower x1, blue']);
    expect(c.body.scenarios.map((s: { id: string }) => s.id)).not.toContain(pending);

    const stored = (await session(sessionId)).scenarios as { id: string; output: Record<string, unknown>; contributions: Contribution[] }[];
    for (const s of c.body.scenarios) {
      const full = stored.find((x) => x.id === s.id)!;
      expect(s.output).toEqual(full.output);
      expect(s.delta.prediction).toBeNull();
      expect(s.delta.probability).toBeCloseTo((full.output.probability as number) - (baseline.output.probability as number), 10);
      expect(s.delta.contributions.length).toBeGreaterThan(0);
      expect(s.delta.contributions.length).toBeLessThanOrEqual(10);
      expectSortedByMagnitude(s.delta.contributions);
      for (const d of s.delta.contributions) {
        expect(d.feature).not.toBe('BiasTerm');
        const after = full.contributions.find((x) => x.feature === d.feature)!.value;
        const before = baseline.contributions.find((x) => x.feature === d.feature)!.value;
        expect(d.delta).toBeCloseTo(after - before, 10);
      }
    }
    // x1 moved by 3: its contribution moved the most.
    expect(c.body.scenarios[0].delta.contributions[0].feature).toBe('x1');
  });
});

describe('a regression deployment', () => {
  it('compares with a numeric prediction delta and the ten largest of twelve contribution deltas', async () => {
    const schema = (await owner.client.get(`${S}/deployments/${regDeployment}/schema`)).body;
    expect(Object.keys(schema.feature_schema)).toHaveLength(12);
    expect(schema.target_column).toBe('y');
    const zeros = Object.fromEntries(Object.keys(schema.feature_schema).map((f) => [f, 0]));
    const id = await newSession(zeros, regDeployment);
    const s = await session(id);
    expect(typeof s.baseline_output.prediction).toBe('number');
    expect(s.baseline_output).toEqual({ prediction: s.baseline_output.prediction });

    const changes: Record<string, number> = {};
    for (let k = 1; k <= 12; k++) changes[`f${k}`] = k % 2 ? 0.5 : -0.5;
    const scenario = await newScenario(id, changes, 'everything moves');
    const run = await owner.client.post(`${S}/scenarios/${scenario}/run`);
    expect(run.status).toBe(200);
    const c = (await owner.client.get(`${S}/sessions/${id}/compare`)).body;
    const [only] = c.scenarios;
    expect(typeof only.delta.prediction).toBe('number');
    expect(only.delta.prediction).toBeCloseTo(run.body.output.prediction - s.baseline_output.prediction, 6);
    expect(only.delta.probability).toBeNull();
    expect(only.delta.contributions).toHaveLength(10);
    expectSortedByMagnitude(only.delta.contributions);
    // Feature k weighs k in the data, so the heaviest features lead and the two lightest are cut.
    expect(only.delta.contributions[0].feature).toBe('f12');
    const named = only.delta.contributions.map((d: { feature: string }) => d.feature);
    expect(named).not.toContain('f1');
  });

  it("says the example is unavailable while the training data's file is gone", async () => {
    const { version } = (await stack.ds.query('SELECT a.storage_key AS version FROM dataset_versions v JOIN artifacts a ON a.id = v.artifact_id WHERE v.id = $1', [regressionVersionId]))[0];
    const file = await stack.store.localPath(version);
    fs.renameSync(file, `${file}.away`);
    try {
      const r = await owner.client.get(`${S}/deployments/${regDeployment}/schema`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ example_input: {}, example_source: 'unavailable', dataset_version_id: regressionVersionId, target_column: 'y' });
      expect(Object.keys(r.body.feature_schema)).toHaveLength(12);
    } finally {
      fs.renameSync(`${file}.away`, file);
    }
    expect((await owner.client.get(`${S}/deployments/${regDeployment}/schema`)).body.example_source).toBe('training_statistics');
  });

  it('holds at most 100 scenarios a session', async () => {
    const id = await newSession({ f1: 0.1 }, regDeployment);
    for (let i = 0; i < 100; i++) await newScenario(id, { f1: i / 100 }, `s${i}`);
    const over = await owner.client.post(`${S}/sessions/${id}/scenarios`, { name: 'one too many', changes: {} });
    expect(over.status).toBe(409);
    expect((await session(id)).scenarios).toHaveLength(100);
  });
});

describe('malformed requests', () => {
  it('answers 422, never 500, to wrong types, NUL characters and oversized maps', async () => {
    const c = owner.client;
    const sessionId = await newSession(row());
    const make = (baseline_input: unknown, extra: Record<string, unknown> = {}) => c.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input, ...extra });
    const scenario = (body: unknown) => c.post(`${S}/sessions/${sessionId}/scenarios`, body);
    const wide = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`k${i}`, i]));
    const cases = [
      make([1, 2]),
      make('x1=1'),
      make({ x1: { nested: 1 } }),
      make({ x1: [1] }),
      make({ color: 'x'.repeat(10_001) }),
      make({ color: 'red\u0000' }),
      make({ 'x1\u0000': 1 }),
      make(wide),
      make(row(), { project_id: 'not-a-uuid' }),
      make(row(), { deployment_id: 42 }),
      c.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod }),
      scenario({ changes: { x1: 1 } }),
      scenario({ name: '   ', changes: { x1: 1 } }),
      scenario({ name: 'n', changes: null }),
      scenario({ name: 'n', changes: { x1: { a: 1 } } }),
      scenario({ name: 'n', description: 5, changes: {} }),
      scenario({ name: 'n\u0000', changes: {} }),
      scenario({ name: 'n', changes: wide }),
      c.get(`${S}/sessions/not-a-uuid`),
      c.post(`${S}/scenarios/not-a-uuid/run`),
      c.get(`${S}/deployments/not-a-uuid/schema`),
      c.get(`${S}/sessions?project_id=${projectId}%00`),
    ];
    const answers = await Promise.all(cases);
    expect(answers.map((r) => r.status)).toEqual(cases.map(() => 422));
    expect(answers[7].body.detail).toEqual([{ loc: ['body', 'baseline_input'], msg: 'At most 2000 features', type: 'custom' }]);
    expect((await session(sessionId)).scenarios).toEqual([]);
  });
});

describe('access', () => {
  let sessionId: string;
  let scenarioId: string;

  beforeAll(async () => {
    sessionId = await newSession(row());
    scenarioId = await newScenario(sessionId, { x2: 1 });
  });

  it("answers 404 to another user's sessions, scenarios, projects and deployments", async () => {
    const c = stranger.client;
    const noSession = { detail: 'Studio session not found' };
    expect((await c.get(`${S}/sessions/${sessionId}`)).body).toEqual(noSession);
    expect((await c.get(`${S}/sessions/${sessionId}/compare`)).body).toEqual(noSession);
    expect((await c.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'x', changes: {} })).body).toEqual(noSession);
    expect((await c.post(`${S}/scenarios/${scenarioId}/run`)).body).toEqual({ detail: 'Scenario not found' });
    const noDeployment = { detail: 'Deployment not found or inactive' };
    expect((await c.get(`${S}/deployments/${prod}/schema`)).body).toEqual(noDeployment);
    expect((await c.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: row() })).body).toEqual({ detail: 'Project not found' });
    expect((await c.get(`${S}/sessions?project_id=${projectId}`)).body).toEqual({ detail: 'Project not found' });
    // In a project of their own, the deployment of another project is still not theirs.
    const own = await createProject(c, 'Mine');
    const foreign = await c.post(`${S}/sessions`, { project_id: own, deployment_id: prod, baseline_input: row() });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(noDeployment);
  });

  it('lets a viewer read and not write', async () => {
    const c = viewer.client;
    expect((await c.get(`${S}/sessions?project_id=${projectId}`)).status).toBe(200);
    expect((await c.get(`${S}/sessions/${sessionId}`)).status).toBe(200);
    expect((await c.get(`${S}/sessions/${sessionId}/compare`)).status).toBe(200);
    expect((await c.get(`${S}/deployments/${prod}/schema`)).status).toBe(200);
    expect((await c.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: row() })).status).toBe(403);
    expect((await c.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'x', changes: {} })).status).toBe(403);
    expect((await c.post(`${S}/scenarios/${scenarioId}/run`)).status).toBe(403);
    expect((await session(sessionId)).scenarios.map((s: { status: string }) => s.status)).toEqual(['pending']);
  });

  it('needs read:studio to read and write:studio to write with an API key', async () => {
    const key = async (scopes: string[]) => owner.client.withKey((await owner.client.post('/api/auth/api-keys', { name: scopes.join(' '), scopes })).body.api_key);
    const reader = await key(['read:studio']);
    expect((await reader.get(`${S}/sessions?project_id=${projectId}`)).status).toBe(200);
    expect((await reader.get(`${S}/sessions/${sessionId}/compare`)).status).toBe(200);
    const refused = await reader.post(`${S}/scenarios/${scenarioId}/run`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Insufficient scope' });
    expect((await reader.post(`${S}/sessions`, { project_id: projectId, deployment_id: prod, baseline_input: row() })).status).toBe(403);
    const deployments = await key(['write:deployments']);
    expect((await deployments.get(`${S}/deployments/${prod}/schema`)).body).toEqual({ detail: 'Insufficient scope' });
    const writer = await key(['write:studio', 'predict:deployments']);
    expect((await writer.post(`${S}/scenarios/${scenarioId}/run`)).status).toBe(200);
    expect((await writer.get(`${S}/sessions/${sessionId}`)).status).toBe(200);
  });

  it('scores a baseline or a scenario only with predict:deployments, counted in the predict bucket (issue 27)', async () => {
    const body = { project_id: projectId, deployment_id: prod, baseline_input: row() };
    const studioOnly = await keyOf(['write:studio']);
    for (const r of [await studioOnly.post(`${S}/sessions`, body), await studioOnly.post(`${S}/scenarios/${scenarioId}/run`)]) {
      expect([r.status, r.body]).toEqual([403, { detail: 'Insufficient scope' }]);
    }
    // Adding a scenario scores nothing: the studio scope is enough.
    expect((await studioOnly.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'by key', changes: { x2: 2 } })).status).toBe(201);
    const predictOnly = await keyOf(['predict:deployments']);
    expect((await predictOnly.post(`${S}/sessions`, body)).status).toBe(403);

    const both = await keyOf(['write:studio', 'predict:deployments']);
    const created = await both.post(`${S}/sessions`, body);
    const run = await both.post(`${S}/scenarios/${scenarioId}/run`);
    // The stack runs with RATE_LIMIT_PREDICT 1000 and RATE_LIMIT_GENERAL 10000.
    for (const r of [created, run]) {
      expect(r.status).toBeLessThan(300);
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    expect((await both.get(`${S}/sessions/${sessionId}`)).headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('publishes every studio operation with its scope and rate bucket', async () => {
    const doc = (await owner.client.get('/api/openapi.json')).body;
    const sessions = doc.paths['/api/studio/sessions'].post;
    const run = doc.paths['/api/studio/scenarios/{scenario_id}/run'].post;
    for (const op of [sessions, run]) {
      expect(op['x-required-scope']).toEqual(['write:studio', 'predict:deployments']);
      expect(op['x-rate-limit-bucket']).toBe('predict');
    }
    expect(doc.paths['/api/studio/sessions/{session_id}/compare'].get['x-required-scope']).toBe('read:studio');
    expect(doc.paths['/api/studio/sessions/{session_id}/scenarios'].post).toMatchObject({ 'x-required-scope': 'write:studio', 'x-rate-limit-bucket': 'general' });
  });
});

describe('an inactive deployment', () => {
  it('starts no session and runs no scenario, while what was stored stays readable', async () => {
    const staging = await deploy(owner.client, { model_id: gbm, name: 'short-lived', stage: 'staging' });
    const sessionId = await newSession(row(), staging);
    const scenarioId = await newScenario(sessionId, { x1: 1 });
    expect((await owner.client.post(`${M}/deployments/${staging}/deactivate`)).status).toBe(200);

    const notFound = { detail: 'Deployment not found or inactive' };
    const create = await owner.client.post(`${S}/sessions`, { project_id: projectId, deployment_id: staging, baseline_input: row() });
    expect(create.status).toBe(404);
    expect(create.body).toEqual(notFound);
    expect((await owner.client.get(`${S}/deployments/${staging}/schema`)).body).toEqual(notFound);
    expect((await owner.client.post(`${S}/scenarios/${scenarioId}/run`)).body).toEqual(notFound);
    expect((await owner.client.post(`${S}/sessions/${sessionId}/scenarios`, { name: 'late', changes: {} })).body).toEqual(notFound);
    const kept = await session(sessionId);
    expect(kept.scenarios.map((s: { status: string }) => s.status)).toEqual(['pending']);
    expect((await owner.client.get(`${S}/sessions/${sessionId}/compare`)).body.scenarios).toEqual([]);
  });
});

describe('deleting the project', () => {
  it('leaves no session or scenario behind', async () => {
    const count = async () =>
      (
        await stack.ds.query('SELECT (SELECT count(*)::int FROM studio_sessions WHERE project_id = $1) AS sessions, (SELECT count(*)::int FROM studio_scenarios WHERE project_id = $1) AS scenarios', [
          projectId,
        ])
      )[0];
    const before = await count();
    expect(before.sessions).toBeGreaterThan(0);
    expect(before.scenarios).toBeGreaterThan(0);
    expect((await owner.client.del(`/api/projects/${projectId}`)).status).toBe(200);
    expect(await count()).toEqual({ sessions: 0, scenarios: 0 });
  });
});
