import { ApiClient, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let otherProjectId: string;
let glm: string;
let gbm: string;
let foreignModel: string;
let datasetId: string;

const M = '/api/mlops';

async function deploy(c: ApiClient, body: Record<string, unknown>, pid = projectId): Promise<string> {
  const r = await c.post(`${M}/projects/${pid}/deployments`, body);
  if (r.status !== 201) throw new Error(`deploy failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function deployment(id: string) {
  return (await owner.client.get(`${M}/deployments/${id}`)).body.deployment;
}

async function productionIds(): Promise<string[]> {
  const list = (await owner.client.get(`${M}/projects/${projectId}/deployments?limit=200`)).body.items as { id: string; stage: string; is_active: boolean }[];
  return list.filter((d) => d.stage === 'production' && d.is_active).map((d) => d.id);
}

async function modelFlags(id: string) {
  const m = (await owner.client.get(`/api/models/${id}`)).body.model;
  return { is_production: m.is_production, is_staging: m.is_staging, staging_deployment_id: m.staging_deployment_id };
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Serving');
  otherProjectId = await createProject(owner.client, 'Elsewhere');
  const [here, there] = await Promise.all([trainQuickModels(owner.client, projectId, ['GLM', 'GBM']), trainQuickModels(owner.client, otherProjectId, ['GLM'], 200)]);
  glm = here.models.GLM;
  datasetId = here.datasetId;
  gbm = here.models.GBM;
  foreignModel = there.models.GLM;
}, 300_000);
afterAll(async () => stack?.stop());

describe('creating deployments', () => {
  it("validates with the spec's texts", async () => {
    const c = owner.client;
    const url = `${M}/projects/${projectId}/deployments`;
    expect((await c.post(url, { model_id: glm, name: 'x', stage: 'canary' })).body).toEqual({ detail: "stage must be 'staging' or 'production'" });
    const foreign = await c.post(url, { model_id: foreignModel, name: 'x', stage: 'staging' });
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual({ detail: 'model_id must belong to project' });
    expect((await c.post(url, { model_id: glm, name: 'x', stage: 'staging', traffic_percent: 0 })).status).toBe(422);
    expect((await c.post(url, { model_id: glm, name: 'x', stage: 'staging', privacy_threshold: 1.5 })).status).toBe(422);
    const badMap = await c.post(url, { model_id: glm, name: 'x', stage: 'staging', privacy_column_map: { nope: 'EMAIL' } });
    expect(badMap.status).toBe(422);
    expect(badMap.body.detail[0].loc).toEqual(['body', 'privacy_column_map', 'nope']);
    expect((await c.post(url, { name: 'x', stage: 'staging' })).status).toBe(422);
    expect((await stranger.client.post(url, { model_id: glm, name: 'x', stage: 'staging' })).body).toEqual({ detail: 'Project not found' });
    expect((await c.get(`${M}/projects/${projectId}/deployments`)).body.total).toBe(0);
  });

  it('refuses a privacy_column_map type the privacy engine does not know, naming it, on create and on PATCH (issue 27)', async () => {
    const c = owner.client;
    // In the other project: this one's deployments are counted by the tests below.
    const url = `${M}/projects/${otherProjectId}/deployments`;
    const bad = await c.post(url, { model_id: foreignModel, name: 'x', stage: 'staging', privacy_column_map: { color: 'PERSON', x1: 'email' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ loc: ['body', 'privacy_column_map', 'color'], msg: 'Unknown PII type: PERSON (see GET /api/privacy/pii-types)', type: 'value_error' }]);
    // A column and a type both wrong: both named.
    const both = await c.post(url, { model_id: foreignModel, name: 'x', stage: 'staging', privacy_column_map: { nope: 'secret_sauce' } });
    expect(both.body.detail.map((i: { msg: string }) => i.msg)).toEqual(['nope is not an input column of the model', 'Unknown PII type: secret_sauce (see GET /api/privacy/pii-types)']);
    expect((await c.get(url)).body.total).toBe(0);

    const id = await deploy(c, { model_id: foreignModel, name: 'typed', stage: 'staging', privacy_column_map: { color: 'NAME' } }, otherProjectId);
    // Stored as the engine spells the type.
    expect((await deployment(id)).config.privacy_column_map).toEqual({ color: 'name' });
    const patched = await c.patch(`${M}/deployments/${id}/privacy`, { privacy_column_map: { color: 'not_a_type' } });
    expect(patched.status).toBe(422);
    expect(patched.body.detail[0]).toMatchObject({ loc: ['body', 'privacy_column_map', 'color'], msg: 'Unknown PII type: not_a_type (see GET /api/privacy/pii-types)' });
    expect((await deployment(id)).config.privacy_column_map).toEqual({ color: 'name' });
    await c.post(`${M}/deployments/${id}/deactivate`);
  });

  it('creates staging and production; a second production deployment archives the first', async () => {
    const r = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: gbm, name: 'candidate', stage: 'staging', privacy_column_map: { color: 'name' }, store_payload: true });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: r.body.deployment_id, deployment_id: expect.any(String), stage: 'staging', is_active: true });
    expect(await modelFlags(gbm)).toEqual({ is_production: false, is_staging: true, staging_deployment_id: r.body.id });

    const p1 = await deploy(owner.client, { model_id: glm, name: 'prod-1', stage: 'production' });
    expect(await modelFlags(glm)).toMatchObject({ is_production: true });
    const p2 = await deploy(owner.client, { model_id: gbm, name: 'prod-2', stage: 'production', traffic_percent: 100 });
    expect(await deployment(p1)).toMatchObject({ stage: 'archived', is_active: false });
    expect(await deployment(p2)).toMatchObject({ stage: 'production', is_active: true, model_id: gbm });
    expect(await productionIds()).toEqual([p2]);
    expect(await modelFlags(glm)).toMatchObject({ is_production: false });
    expect(await modelFlags(gbm)).toMatchObject({ is_production: true, is_staging: true });

    const one = await owner.client.get(`${M}/deployments/${r.body.id}`);
    expect(one.body.deployment).toMatchObject({
      id: r.body.id,
      project_id: projectId,
      model_id: gbm,
      stage: 'staging',
      is_active: true,
      config: { name: 'candidate', traffic_percent: 100, privacy_column_map: { color: 'name' }, store_payload: true },
    });
    expect(one.body.model).toEqual({ id: gbm, name: expect.any(String), algo: 'GBM' });
    const list = await owner.client.get(`${M}/projects/${projectId}/deployments?limit=2`);
    expect(list.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(list.body.items.map((d: { id: string }) => d.id)).toEqual([p2, p1]);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(['config', 'created_at', 'id', 'is_active', 'model_id', 'model_name', 'name', 'stage']);
    expect((await owner.client.get(`${M}/projects/${projectId}/deployments?limit=201`)).status).toBe(422);

    // The model and the dataset's lineage name the deployments built on them.
    expect((await owner.client.get(`/api/models/${glm}`)).body.deployments).toEqual([{ id: p1, name: 'prod-1', stage: 'archived', is_active: false }]);
    const lineage = (await owner.client.get(`/api/datasets/${datasetId}/lineage`)).body.deployments;
    expect(lineage.map((d: { id: string }) => d.id)).toEqual([r.body.id, p1, p2]);
    expect(lineage[2]).toEqual({ id: p2, name: 'prod-2', model_id: gbm, stage: 'production', is_active: true });
  });
});

describe('transitions', () => {
  it("promotes staging to production only, with the spec's text otherwise", async () => {
    const s = await deploy(owner.client, { model_id: glm, name: 'to-promote', stage: 'staging' });
    const bad = await owner.client.post(`${M}/deployments/${s}/promote`, { to_stage: 'staging' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ detail: "to_stage must be 'production'" });
    const [before] = await productionIds();
    const ok = await owner.client.post(`${M}/deployments/${s}/promote`, { to_stage: 'production', reason: 'better AUC' });
    expect(ok.body).toEqual({ ok: true, deployment_id: s, stage: 'production' });
    expect(await productionIds()).toEqual([s]);
    expect(await deployment(before)).toMatchObject({ stage: 'archived', is_active: false });
    expect((await owner.client.post(`${M}/deployments/${s}/promote`, { to_stage: 'production' })).status).toBe(409);
    expect((await owner.client.post(`${M}/deployments/${before}/promote`, { to_stage: 'production' })).status).toBe(409);
    const h = await owner.client.get(`${M}/deployments/${s}/rollback-history`);
    expect(h.body.items.map((t: { from_stage: string; to_stage: string; reason: string }) => [t.from_stage, t.to_stage, t.reason])).toEqual([
      ['staging', 'production', 'better AUC'],
      [null, 'staging', 'created'],
    ]);
    expect(h.body.items[0]).toMatchObject({ deployment_id: s, project_id: projectId, model_id: glm, actor_id: owner.user.id, at: expect.any(String) });
  });

  it('rolls back to an archived deployment and to a model, and needs one of them', async () => {
    const [current] = await productionIds();
    const none = await owner.client.post(`${M}/deployments/${current}/rollback`, {});
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ detail: 'Provide to_deployment_id or to_model_id' });

    const archived = (await owner.client.get(`${M}/projects/${projectId}/deployments?limit=200`)).body.items.find(
      (d: { stage: string; name: string }) => d.stage === 'archived' && d.name === 'prod-1',
    ).id;
    const back = await owner.client.post(`${M}/deployments/${current}/rollback`, { to_deployment_id: archived });
    expect(back.body).toEqual({ ok: true, deployment_id: archived });
    expect(await productionIds()).toEqual([archived]);
    expect(await deployment(current)).toMatchObject({ stage: 'archived', is_active: false });

    expect((await owner.client.post(`${M}/deployments/${archived}/rollback`, { to_model_id: foreignModel })).body).toEqual({ detail: 'model_id must belong to project' });
    const toModel = await owner.client.post(`${M}/deployments/${archived}/rollback`, { to_model_id: gbm, reason: 'glm regressed' });
    expect(toModel.status).toBe(200);
    const fresh = toModel.body.deployment_id;
    expect(fresh).not.toBe(archived);
    expect(await productionIds()).toEqual([fresh]);
    expect(await deployment(fresh)).toMatchObject({ model_id: gbm, stage: 'production', is_active: true });
    expect(await modelFlags(gbm)).toMatchObject({ is_production: true });
    expect(await modelFlags(glm)).toMatchObject({ is_production: false });

    const h = (await owner.client.get(`${M}/deployments/${archived}/rollback-history`)).body.items;
    expect(h.map((t: { from_stage: string; to_stage: string }) => `${t.from_stage}->${t.to_stage}`)).toEqual([
      'production->archived',
      'archived->production',
      'production->archived',
      'null->production',
    ]);
  });

  it('answers which model served production at a given time', async () => {
    const all = (await owner.client.get(`${M}/projects/${projectId}/deployment-history?limit=500`)).body;
    expect(all.total).toBeGreaterThanOrEqual(10);
    expect(all.production_at).toBeUndefined();
    // Walk the history oldest first: after each move into production, that deployment served.
    const moves = [...all.items].reverse() as { id: string; deployment_id: string; model_id: string; to_stage: string; at: string }[];
    const intoProduction = moves.filter((t) => t.to_stage === 'production');
    for (const t of intoProduction) {
      const r = await owner.client.get(`${M}/projects/${projectId}/deployment-history?limit=1&at=${encodeURIComponent(t.at)}`);
      expect(r.body.production_at).toMatchObject({ deployment_id: t.deployment_id, model_id: t.model_id });
    }
    const first = new Date(Date.parse(intoProduction[0].at) - 1).toISOString();
    expect((await owner.client.get(`${M}/projects/${projectId}/deployment-history?at=${first}`)).body.production_at).toBeNull();
    const second = new Date(Date.parse(intoProduction[1].at) - 1).toISOString();
    expect((await owner.client.get(`${M}/projects/${projectId}/deployment-history?at=${second}`)).body.production_at).toMatchObject({ deployment_id: intoProduction[0].deployment_id });
    expect((await owner.client.get(`${M}/projects/${projectId}/deployment-history?at=yesterday`)).status).toBe(422);
  });

  it('deactivates: archived, no replacement', async () => {
    const [current] = await productionIds();
    expect((await owner.client.post(`${M}/deployments/${current}/deactivate`)).body).toEqual({ ok: true });
    expect(await deployment(current)).toMatchObject({ stage: 'archived', is_active: false });
    expect(await productionIds()).toEqual([]);
    expect(await modelFlags(gbm)).toMatchObject({ is_production: false });
    expect((await owner.client.post(`${M}/deployments/${current}/deactivate`)).body).toEqual({ ok: true });
    const h = (await owner.client.get(`${M}/deployments/${current}/rollback-history`)).body.items;
    expect(h[0]).toMatchObject({ from_stage: 'production', to_stage: 'archived', reason: 'deactivated' });
    expect(h.filter((t: { reason: string }) => t.reason === 'deactivated')).toHaveLength(1);
  });

  it('leaves exactly one production deployment when two promotes race, the loser answered 409', async () => {
    await deploy(owner.client, { model_id: glm, name: 'base', stage: 'production' });
    for (let round = 0; round < 3; round++) {
      const a = await deploy(owner.client, { model_id: glm, name: `race-a-${round}`, stage: 'staging' });
      const b = await deploy(owner.client, { model_id: gbm, name: `race-b-${round}`, stage: 'staging' });
      const [ra, rb] = await Promise.all([a, b].map((id) => owner.client.post(`${M}/deployments/${id}/promote`, { to_stage: 'production' })));
      expect([ra.status, rb.status].sort()).toEqual(expect.arrayContaining([200]));
      for (const r of [ra, rb]) {
        expect([200, 409]).toContain(r.status);
        if (r.status === 409) expect(r.body.detail).toMatch(/became production at the same time/);
      }
      const prod = await productionIds();
      expect(prod).toHaveLength(1);
      expect([a, b]).toContain(prod[0]);
    }
  });
});

describe('access', () => {
  it("answers 404 for another user's deployments everywhere", async () => {
    const id = (await owner.client.get(`${M}/projects/${projectId}/deployments`)).body.items[0].id;
    const c = stranger.client;
    const notFound = { detail: 'Deployment not found or inactive' };
    expect((await c.get(`${M}/deployments/${id}`)).body).toEqual(notFound);
    expect((await c.post(`${M}/deployments/${id}/promote`, { to_stage: 'production' })).body).toEqual(notFound);
    expect((await c.post(`${M}/deployments/${id}/rollback`, { to_model_id: glm })).body).toEqual(notFound);
    expect((await c.post(`${M}/deployments/${id}/deactivate`)).body).toEqual(notFound);
    expect((await c.get(`${M}/deployments/${id}/rollback-history`)).body).toEqual(notFound);
    expect((await c.patch(`${M}/deployments/${id}/privacy`, { store_payload: true })).body).toEqual(notFound);
    expect((await c.get(`${M}/projects/${projectId}/deployments`)).body).toEqual({ detail: 'Project not found' });
    expect((await c.get(`${M}/projects/${projectId}/deployment-history`)).body).toEqual({ detail: 'Project not found' });
  });
});

describe('deleting what a deployment serves', () => {
  it('refuses (409) to delete a model, or its experiment, while an active deployment serves it; deactivated, it goes', async () => {
    const id = await deploy(owner.client, { model_id: foreignModel, name: 'keep me', stage: 'production' }, otherProjectId);
    const experimentId = (await owner.client.get(`/api/models/${foreignModel}`)).body.model.experiment_id as string;
    expect(await owner.client.del(`/api/models/${foreignModel}`)).toMatchObject({ status: 409, body: { detail: 'Model has an active deployment: deactivate it first' } });
    expect(await owner.client.del(`/api/experiments/${experimentId}`)).toMatchObject({
      status: 409,
      body: { detail: 'A model of this experiment has an active deployment: deactivate it first' },
    });
    expect((await owner.client.get(`${M}/deployments/${id}`)).body.deployment).toMatchObject({ stage: 'production', is_active: true });
    expect((await owner.client.post(`${M}/deployments/${id}/deactivate`)).status).toBe(200);
    expect((await owner.client.del(`/api/models/${foreignModel}`)).status).toBe(200);
    expect((await owner.client.get(`${M}/deployments/${id}`)).status).toBe(404);
  });
});
