import { randomUUID } from 'node:crypto';
import { modelComparisonSchema, modelExplainSchema, modelListItemSchema } from '../api/presenters/model.schema';
import { trainBinaryWithEnsemble } from './support/binary-ensemble';
import { ApiClient, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { trainQuickRegression } from './support/trained-models';

/**
 * The project-wide model table and the compare view through HTTP on the real stack: the model list sorted by each
 * column and searched, with each model's experiment metric, dataset version and deployment; the comparison of models
 * of two experiments; the PR curve and threshold table training now keeps (sane numbers); an ensemble's importance of
 * features, not of base models; and hostile input (wrong types, NUL, integers past 2^31, other users' and other
 * projects' ids, a key without `read:models`) answered with the spec's codes.
 */

type User = Awaited<ReturnType<typeof signUp>>;

let stack: TestStack;
let owner: User;
let stranger: User;
let projectId = '';
let otherProject = '';
let strangerModel = '';
let otherProjectModel = '';
/** Binary models of the first experiment by algo (GLM, GBM, StackedEnsemble), and the regression GLM of the second. */
let binary: Record<string, string> = {};
let regression = '';

beforeAll(async () => {
  stack = await startStack();
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Compare');
  otherProject = await createProject(owner.client, 'Elsewhere');
  const strangerProject = await createProject(stranger.client, 'Theirs');
  binary = (await trainBinaryWithEnsemble(owner.client, projectId)).models;
  regression = (await trainQuickRegression(owner.client, projectId, 200)).modelId;
  otherProjectModel = (await trainQuickRegression(owner.client, otherProject, 200)).modelId;
  strangerModel = (await trainQuickRegression(stranger.client, strangerProject, 200)).modelId;
  const d = await owner.client.post(`/api/mlops/projects/${projectId}/deployments`, { model_id: binary.GBM, name: 'gbm-staging', stage: 'staging' });
  expect(d.status).toBe(201);
}, 600_000);

afterAll(async () => {
  await stack?.stop();
});

const list = (query: string, client = owner.client) => client.get(`/api/models?project_id=${projectId}&${query}`);
const names = (r: { body: { items: { name: string }[] } }) => r.body.items.map((m) => m.name);

describe('the project-wide model list', () => {
  it('lists every model with its experiment metric, dataset version and deployment', async () => {
    const r = await list('limit=50');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(4);
    for (const item of r.body.items) expect(modelListItemSchema.safeEncode(item).error).toBeUndefined();
    const gbm = r.body.items.find((m: { id: string }) => m.id === binary.GBM);
    expect(gbm).toMatchObject({ metric_name: 'AUC', dataset_name: 'synthetic', dataset_version: 0, deployment: { name: 'gbm-staging', stage: 'staging' } });
    expect(gbm.metric_value).toBeGreaterThan(0.5);
    expect(gbm.metric_value).toBeLessThanOrEqual(1);
    const glm = r.body.items.find((m: { id: string }) => m.id === regression);
    expect(glm).toMatchObject({ metric_name: expect.any(String), dataset_name: 'synthetic regression', deployment: null });
    expect(typeof glm.metric_value).toBe('number');
  });

  it('sorts by each column in both directions', async () => {
    const asc = names(await list('sort=name&sort_dir=asc'));
    expect(asc).toEqual([...asc].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names(await list('sort=name&sort_dir=desc'))).toEqual([...asc].reverse());
    const algos = (await list('sort=algo&sort_dir=asc')).body.items.map((m: { algo: string }) => m.algo);
    expect(algos).toEqual([...algos].sort());
    const deployed = (await list('sort=deployed&sort_dir=desc')).body.items;
    expect(deployed[0].id).toBe(binary.GBM);
    const versions = (await list('sort=dataset_version&sort_dir=asc')).body.items;
    expect(versions).toHaveLength(4);
    const exps = (await list('sort=experiment&sort_dir=asc')).body.items.map((m: { experiment_name: string }) => m.experiment_name);
    expect(exps).toEqual([...exps].sort());
    // Best first within the binary experiment: AUC descending.
    const byMetric = (await list('sort=metric&sort_dir=desc')).body.items.filter((m: { metric_name: string }) => m.metric_name === 'AUC');
    const aucs = byMetric.map((m: { metric_value: number }) => m.metric_value);
    expect(aucs).toEqual([...aucs].sort((a, b) => b - a));
  });

  it('pages through the sorted list', async () => {
    const all = names(await list('sort=name&sort_dir=asc'));
    const first = await list('sort=name&sort_dir=asc&limit=3&offset=0');
    const second = await list('sort=name&sort_dir=asc&limit=3&offset=3');
    expect(first.body.total).toBe(4);
    expect([...names(first), ...names(second)]).toEqual(all);
  });

  it('searches by name, algorithm and experiment name', async () => {
    expect(names(await list('search=stacked'))).toEqual([expect.stringMatching(/^StackedEnsemble/)]);
    expect((await list('search=gbm')).body.items.map((m: { id: string }) => m.id)).toEqual([binary.GBM]);
    expect((await list('search=quick%20regression')).body.items.map((m: { id: string }) => m.id)).toEqual([regression]);
    expect((await list('search=%25')).body.total).toBe(0);
  });

  it.each([
    ['an unknown sort', 'sort=accuracy'],
    ['a sort direction that is not one', 'sort=name&sort_dir=sideways'],
    ['a NUL in the search', 'search=a%00b'],
    ['a limit past 2^31', `limit=${2 ** 31}`],
    ['an offset past 2^31', `offset=${2 ** 31}`],
    ['a project id that is not a UUID', 'project_id=1'],
  ])('refuses %s with 422', async (_what, query) => {
    const r = await owner.client.get(`/api/models?${query}`);
    expect(r.status).toBe(422);
    expect(Array.isArray(r.body.detail)).toBe(true);
  });

  it('shows another user nothing of the project', async () => {
    const r = await list('limit=50', stranger.client);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(0);
  });
});

describe('comparing models', () => {
  const compare = (ids: string[], client = owner.client, project = projectId) => client.get(`/api/projects/${project}/models/compare?model_ids=${ids.join(',')}`);

  it('puts models of two experiments side by side, naming the parameters that differ', async () => {
    const ids = [binary.GLM, binary.GBM, binary.StackedEnsemble, regression];
    const r = await compare(ids);
    expect(r.status).toBe(200);
    expect(modelComparisonSchema.parse(r.body).models.map((m) => m.id)).toEqual(ids);
    expect(new Set(r.body.models.map((m: { experiment_id: string }) => m.experiment_id)).size).toBe(2);
    expect(r.body.metric_names).toEqual(expect.arrayContaining(['auc', 'logloss', 'rmse']));
    expect(r.body.differing_parameters.length).toBeGreaterThan(0);
    for (const p of r.body.differing_parameters) expect(r.body.parameter_names).toContain(p);
    const [glm, gbm, , reg] = r.body.models;
    expect(glm.metric_split).toBe('cross_validation');
    expect(reg.metric_split).toBe('validation');
    expect(reg.roc_curve).toBeNull();
    expect(reg.pr_curve).toBeNull();
    for (const m of [glm, gbm]) {
      expect(m.roc_curve.fpr.length).toBeLessThanOrEqual(200);
      expect(m.pr_curve.recall.length).toBe(m.pr_curve.precision.length);
      for (const v of [...m.pr_curve.precision, ...m.pr_curve.recall]) expect(v).toBeGreaterThanOrEqual(0);
      for (const v of [...m.pr_curve.precision, ...m.pr_curve.recall]) expect(v).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a model of another project or another user as not found', async () => {
    for (const id of [otherProjectModel, strangerModel, randomUUID()]) {
      const r = await compare([binary.GLM, id]);
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe('Model not found');
    }
    const theirs = await compare([binary.GLM, binary.GBM], stranger.client);
    expect(theirs.status).toBe(404);
    expect(theirs.body.detail).toBe('Project not found');
  });

  it.each([
    ['one model', () => `model_ids=${binary.GLM}`],
    ['no model_ids', () => ''],
    ['the same model twice', () => `model_ids=${binary.GLM},${binary.GLM}`],
    ['eleven models', () => `model_ids=${Array.from({ length: 11 }, () => randomUUID()).join(',')}`],
    ['an id that is not a UUID', () => `model_ids=${binary.GLM},2147483648`],
    ['a NUL in the ids', () => `model_ids=${binary.GLM},a%00b`],
  ])('refuses %s with 422', async (_what, query) => {
    const r = await owner.client.get(`/api/projects/${projectId}/models/compare?${query()}`);
    expect(r.status).toBe(422);
  });

  it('refuses a project id that is not a UUID with 422, a caller without a session with 401', async () => {
    expect((await owner.client.get(`/api/projects/not-a-uuid/models/compare?model_ids=${binary.GLM},${binary.GBM}`)).status).toBe(422);
    expect((await new ApiClient(stack.baseUrl).get(`/api/projects/${projectId}/models/compare?model_ids=${binary.GLM},${binary.GBM}`)).status).toBe(401);
  });

  it('needs the read:models scope of an API key', async () => {
    const narrow = await owner.client.post('/api/auth/api-keys', { name: 'projects only', scopes: ['read:projects'] });
    const wide = await owner.client.post('/api/auth/api-keys', { name: 'models', scopes: ['read:models'] });
    const path = `/api/projects/${projectId}/models/compare?model_ids=${binary.GLM},${binary.GBM}`;
    expect((await new ApiClient(stack.baseUrl).withKey(narrow.body.api_key).get(path)).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).withKey(narrow.body.api_key).get(`/api/models?project_id=${projectId}&sort=name`)).status).toBe(403);
    expect((await new ApiClient(stack.baseUrl).withKey(wide.body.api_key).get(path)).status).toBe(200);
  });
});

describe('what training keeps for the model page', () => {
  it('keeps a PR curve and a threshold table of sane numbers for binary models', async () => {
    for (const id of [binary.GLM, binary.GBM, binary.StackedEnsemble]) {
      const r = await owner.client.get(`/api/models/${id}/explain`);
      expect(r.status).toBe(200);
      const x = modelExplainSchema.parse(r.body.explain);
      expect(x.metric_split).toBe('cross_validation');
      const table = x.threshold_table!;
      expect(table.length).toBeGreaterThanOrEqual(10);
      expect(table.length).toBeLessThanOrEqual(20);
      for (let i = 0; i < table.length; i++) {
        const row = table[i];
        for (const v of [row.precision, row.recall, row.f1, row.positive_rate]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
        expect(row.lift).toBeGreaterThanOrEqual(0);
        expect(row.tp + row.fp + row.fn + row.tn).toBe(300);
        if (i > 0) {
          expect(row.threshold).toBeLessThan(table[i - 1].threshold);
          expect(row.recall).toBeGreaterThanOrEqual(table[i - 1].recall);
        }
      }
      expect(table.at(-1)!.recall).toBe(1);
      const pr = x.pr_curve!;
      for (let i = 1; i < pr.thresholds.length; i++) expect(pr.thresholds[i]).toBeLessThan(pr.thresholds[i - 1]);
    }
    const reg = modelExplainSchema.parse((await owner.client.get(`/api/models/${regression}/explain`)).body.explain);
    expect(reg).toMatchObject({ pr_curve: null, threshold_table: null, metric_split: 'validation', base_model_importance: null });
  });

  it("lists an ensemble's input features as its importance and its base models apart", async () => {
    const x = (await owner.client.get(`/api/models/${binary.StackedEnsemble}/explain`)).body.explain;
    const features = x.variable_importance.map((v: { variable: string }) => v.variable).sort();
    expect(features).toEqual(expect.arrayContaining(['x1', 'x2']));
    for (const f of features) expect(f).toMatch(/^(x1|x2|color)/);
    expect(x.base_model_importance.map((v: { variable: string }) => v.variable).sort()).toEqual(['GBM_1', 'GLM_1']);
    const heat = (await owner.client.get(`/api/experiments/${(await owner.client.get(`/api/models/${binary.GLM}`)).body.model.experiment_id}/explain`)).body.explain.varimp_heatmap;
    expect(heat.features).not.toContain('GBM_1');
    expect(heat.features).not.toContain('GLM_1');
  });

  it('says which parameters of a model are the defaults of its algorithm', async () => {
    const r = await owner.client.get(`/api/models/${binary.GBM}/parameters`);
    expect(r.status).toBe(200);
    const entries = Object.values(r.body.parameters) as { default: unknown; actual: unknown }[];
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.some((p) => p.default !== null && JSON.stringify(p.default) === JSON.stringify(p.actual))).toBe(true);
  });
});
