import { ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { makeSuperuser } from './support/superuser';
import { syntheticRows, toCsv } from './support/trained-models';

/**
 * Plans and quotas (issue 34): the admin routes that define plans and assign them to users and teams, and each limit
 * enforced where it applies (projects, experiment models, concurrent jobs, upload size, storage, predictions a
 * minute), through HTTP against the real stack with its workers (the max_models case trains for real).
 */
let stack: TestStack;
let admin: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_TRAIN: '1000', RATE_LIMIT_PREDICT: '1000' } });
  admin = await signUp(stack.baseUrl, stack.mail);
  await makeSuperuser(stack.ds, admin.user.id);
});
afterAll(async () => stack?.stop());

let counter = 0;
/** A new plan with these limits; resolves to its id. */
async function newPlan(limits: Record<string, number | null>, name = `p${Date.now().toString(36)}-${++counter}`): Promise<string> {
  const r = await admin.client.post('/api/admin/plans', { name, display_name: `Plan ${name}`, limits });
  if (r.status !== 201) throw new Error(`plan creation failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.plan.id;
}

/** A user holding a new plan of their own with these limits. */
async function userWithPlan(limits: Record<string, number | null>) {
  const u = await signUp(stack.baseUrl, stack.mail);
  const planId = await newPlan(limits);
  const r = await admin.client.put(`/api/admin/users/${u.user.id}/plan`, { plan_id: planId });
  expect(r.status).toBe(200);
  return { ...u, planId };
}

function upload(client: ApiClient, projectId: string, rows = 200) {
  return client.upload('/api/datasets/upload', { project_id: projectId, name: 'synthetic' }, { name: 'synthetic.csv', data: toCsv(syntheticRows(rows)) });
}

describe('admin plans: CRUD', () => {
  it('creates, reads, lists, replaces and deletes a plan; a plan in use cannot be deleted', async () => {
    const created = await admin.client.post('/api/admin/plans', {
      name: 'team-small',
      display_name: 'Team small',
      limits: { max_projects: 2, max_models: 3, predictions_per_minute: 10, max_storage_bytes: null },
    });
    expect(created.status).toBe(201);
    const plan = created.body.plan;
    expect(plan).toMatchObject({
      name: 'team-small',
      display_name: 'Team small',
      limits: { max_projects: 2, max_models: 3, predictions_per_minute: 10, max_storage_bytes: null },
      users_count: 0,
      teams_count: 0,
    });
    // A key the plan leaves out takes the configured value; null means no limit.
    expect(plan.effective_limits).toMatchObject({ max_projects: 2, max_models: 3, max_storage_bytes: null, max_upload_bytes: stack.config.limits.maxDatasetUploadBytes });

    expect((await admin.client.post('/api/admin/plans', { name: 'team-small', display_name: 'Again' })).status).toBe(409);
    expect((await admin.client.post('/api/admin/plans', { name: 'self_hosted', display_name: 'Built-in' })).status).toBe(409);

    const list = await admin.client.get('/api/admin/plans');
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: { name: string }) => p.name)).toContain('team-small');
    expect(list.body.built_in).toMatchObject({ name: 'self_hosted', limits: { max_projects: stack.config.quotas.maxProjectsPerUser } });

    const put = await admin.client.put(`/api/admin/plans/${plan.id}`, { display_name: 'Team S', limits: { max_projects: 4 } });
    expect(put.status).toBe(200);
    expect(put.body.plan).toMatchObject({ name: 'team-small', display_name: 'Team S', limits: { max_projects: 4 } });
    expect((await admin.client.get(`/api/admin/plans/${plan.id}`)).body.plan.limits).toEqual({ max_projects: 4 });

    const user = await signUp(stack.baseUrl, stack.mail);
    const assigned = await admin.client.put(`/api/admin/users/${user.user.id}/plan`, { plan_id: plan.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body.plan).toMatchObject({ id: plan.id, name: 'team-small', source: 'user', quotas: { max_projects: 4 } });
    const inUse = await admin.client.del(`/api/admin/plans/${plan.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail).toBe('Plan team-small is in use by 1 user(s) and 0 team(s); assign them another plan first');

    // Back to none of their own: the built-in plan applies, and the plan can go.
    expect((await admin.client.put(`/api/admin/users/${user.user.id}/plan`, { plan_id: null })).body.plan).toMatchObject({ id: null, name: 'self_hosted', source: 'built_in' });
    expect((await admin.client.del(`/api/admin/plans/${plan.id}`)).status).toBe(204);
    expect((await admin.client.get(`/api/admin/plans/${plan.id}`)).status).toBe(404);
  });

  it('refuses non-superusers (403), no credentials (401), a cookie write without CSRF (403) and a key without the admin scope (403)', async () => {
    const plain = await signUp(stack.baseUrl, stack.mail);
    const planId = await newPlan({ max_projects: 1 });
    for (const [method, path, body] of [
      ['GET', '/api/admin/plans'],
      ['POST', '/api/admin/plans', { name: 'mine', display_name: 'Mine' }],
      ['GET', `/api/admin/plans/${planId}`],
      ['PUT', `/api/admin/plans/${planId}`, { display_name: 'x', limits: {} }],
      ['DELETE', `/api/admin/plans/${planId}`],
      ['GET', `/api/admin/users/${plain.user.id}/plan`],
      ['PUT', `/api/admin/users/${plain.user.id}/plan`, { plan_id: planId }],
    ] as [string, string, unknown?][]) {
      const r = await plain.client.request(method, path, body);
      expect([method, path, r.status, r.body]).toEqual([method, path, 403, { detail: 'Superuser access required' }]);
      expect((await new ApiClient(stack.baseUrl).request(method, path, body)).status).toBe(401);
    }
    const noCsrf = new ApiClient(stack.baseUrl);
    admin.client.cookies.forEach((v, k) => noCsrf.cookies.set(k, v));
    noCsrf.sendCsrf = false;
    expect((await noCsrf.post('/api/admin/plans', { name: 'nocsrf', display_name: 'No CSRF' })).status).toBe(403);
    expect((await noCsrf.del(`/api/admin/plans/${planId}`)).status).toBe(403);

    const narrow = new ApiClient(stack.baseUrl).withKey((await admin.client.post('/api/auth/api-keys', { name: 'ro', scopes: ['read:projects'] })).body.api_key);
    expect((await narrow.get('/api/admin/plans')).body).toEqual({ detail: 'Insufficient scope' });
    const full = new ApiClient(stack.baseUrl).withKey((await admin.client.post('/api/auth/api-keys', { name: 'admin', scopes: ['admin'] })).body.api_key);
    expect((await full.get('/api/admin/plans')).status).toBe(200);
    expect((await admin.client.get(`/api/admin/plans/${planId}`)).status).toBe(200);
  });

  it('answers hostile input with 422 and unknown ids with 404, never 500', async () => {
    const bad = [
      { name: 'x', display_name: 'X', limits: { max_projects: 2 ** 31 } },
      { name: 'x', display_name: 'X', limits: { max_projects: -1 } },
      { name: 'x', display_name: 'X', limits: { max_projects: '3' } },
      { name: 'x', display_name: 'X', limits: { max_models: 1.5 } },
      { name: 'x', display_name: 'X', limits: { max_models: 1000 } },
      { name: 'x', display_name: 'X', limits: { max_upload_bytes: null } },
      { name: 'x', display_name: 'X', limits: { unknown_limit: 1 } },
      { name: 'x', display_name: 'X', limits: [] },
      { name: 'x\u0000y', display_name: 'X' },
      { name: 'x', display_name: 'X\u0000' },
      { name: 'Upper Case', display_name: 'X' },
      { name: '', display_name: 'X' },
      { name: 'x', display_name: '   ' },
      { name: 12, display_name: 'X' },
      { name: 'x', display_name: 'X', extra: true },
    ];
    for (const body of bad) {
      const r = await admin.client.post('/api/admin/plans', body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 422]);
      expect(Array.isArray(r.body.detail)).toBe(true);
      expect(r.body.detail[0]).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await admin.client.get('/api/admin/plans/not-a-uuid')).status).toBe(422);
    expect((await admin.client.get('/api/admin/plans/2147483648')).status).toBe(422);
    expect((await admin.client.get(`/api/admin/plans/${unknown}`)).body).toEqual({ detail: 'Plan not found' });
    expect((await admin.client.put(`/api/admin/plans/${unknown}`, { display_name: 'x', limits: {} })).status).toBe(404);
    expect((await admin.client.del(`/api/admin/plans/${unknown}`)).status).toBe(404);
    expect((await admin.client.put(`/api/admin/users/${unknown}/plan`, { plan_id: null })).body).toEqual({ detail: 'User not found' });
    expect((await admin.client.get(`/api/admin/users/${unknown}/plan`)).status).toBe(404);
    expect((await admin.client.put(`/api/admin/users/${admin.user.id}/plan`, { plan_id: unknown })).body).toEqual({ detail: 'Plan not found' });
    expect((await admin.client.put(`/api/admin/teams/${unknown}/plan`, { plan_id: null })).body).toEqual({ detail: 'Team not found' });
    expect((await admin.client.put(`/api/admin/users/${admin.user.id}/plan`, { plan_id: 'x' })).status).toBe(422);
    expect((await admin.client.put(`/api/admin/users/${admin.user.id}/plan`, {})).status).toBe(422);
    expect((await admin.client.put(`/api/admin/users/${admin.user.id}/plan`, { plan_id: '\u0000' })).status).toBe(422);
  });
});

describe('plans: each limit where it applies', () => {
  it('max_projects: the project past the plan is 409', async () => {
    const u = await userWithPlan({ max_projects: 1 });
    await createProject(u.client, 'one');
    const second = await u.client.post('/api/projects', { name: 'two' });
    expect([second.status, second.body]).toEqual([409, { detail: 'Project quota reached: a user may own at most 1 projects' }]);
    const plan = (await u.client.get('/api/auth/plan')).body.plan;
    expect(plan).toMatchObject({ id: u.planId, source: 'user', quotas: { max_projects: 1 }, usage: { projects_owned: 1 } });
  });

  it('max_upload_bytes: a larger upload is 413 naming the limit; max_storage_bytes_per_project: 403', async () => {
    const u = await userWithPlan({ max_upload_bytes: 2000 });
    const projectId = await createProject(u.client, 'uploads');
    const big = await upload(u.client, projectId, 200);
    expect([big.status, big.body]).toEqual([413, { detail: 'File exceeds the upload limit of 2000 bytes (max_upload_bytes of the plan)' }]);
    const small = await u.client.upload('/api/datasets/upload', { project_id: projectId, name: 's' }, { name: 's.csv', data: toCsv(syntheticRows(20)) });
    expect(small.status).toBe(201);
    // What the project stores now, plus 100 bytes, as the plan's storage per project: the next upload is past it.
    const stored = (await u.client.get('/api/auth/plan')).body.plan.usage.storage_bytes;
    expect(stored).toBeGreaterThan(0);
    expect((await admin.client.put(`/api/admin/plans/${u.planId}`, { display_name: 'tight', limits: { max_upload_bytes: 2000, max_storage_bytes_per_project: stored + 100 } })).status).toBe(200);
    const next = await u.client.upload('/api/datasets/upload', { project_id: projectId, name: 't' }, { name: 't.csv', data: toCsv(syntheticRows(20)) });
    expect(next.status).toBe(403);
    expect(next.body.detail).toMatch(/^Storage quota reached: this project would hold .* of at most .* \(max_storage_bytes_per_project of the plan\)/);
  });

  it("a plan via teams: the most generous of the teams' plans, limit by limit; the user's own plan comes first", async () => {
    const u = await signUp(stack.baseUrl, stack.mail);
    const small = await newPlan({ max_projects: 2, max_concurrent_jobs: 5 });
    const large = await newPlan({ max_projects: 7, max_concurrent_jobs: 1 });
    for (const [name, planId] of [
      [`team-a-${Date.now()}`, small],
      [`team-b-${Date.now()}`, large],
    ]) {
      const team = await admin.client.post('/api/admin/teams', { name });
      expect(team.status).toBe(201);
      expect((await admin.client.post(`/api/admin/teams/${team.body.id}/members`, { user_id: u.user.id })).status).toBe(201);
      const set = await admin.client.put(`/api/admin/teams/${team.body.id}/plan`, { plan_id: planId });
      expect(set.body).toEqual({ team_id: team.body.id, plan_id: planId });
    }
    const viaTeams = (await u.client.get('/api/auth/plan')).body.plan;
    expect(viaTeams).toMatchObject({ source: 'team', quotas: { max_projects: 7, max_concurrent_jobs: 5, max_open_jobs: 5 } });
    expect(viaTeams.team_plans).toHaveLength(2);
    expect((await admin.client.get(`/api/admin/users/${u.user.id}/plan`)).body.plan).toMatchObject({ source: 'team', quotas: { max_projects: 7 } });
    const own = await newPlan({ max_projects: 1 });
    await admin.client.put(`/api/admin/users/${u.user.id}/plan`, { plan_id: own });
    expect((await u.client.get('/api/auth/plan')).body.plan).toMatchObject({ id: own, source: 'user', quotas: { max_projects: 1 } });
  });

  it('max_concurrent_jobs 2: the third job is refused with 429 (not queued)', async () => {
    const u = await userWithPlan({ max_concurrent_jobs: 2 });
    const projectId = await createProject(u.client, 'jobs');
    const up = await upload(u.client, projectId);
    expect(up.status).toBe(201);
    const start = () =>
      u.client.post('/api/experiments', {
        project_id: projectId,
        dataset_version_id: up.body.dataset_version_id,
        name: 'concurrent',
        target_column: 'y',
        problem_type: 'binary',
        config: { max_models: 1, max_runtime_secs: 60, nfolds: 2, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GBM'] },
      });
    const first = await start();
    const second = await start();
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await start();
    expect([third.status, third.body]).toEqual([429, { detail: 'Too many open jobs: at most 2 may be queued or running at once per user; wait for one to finish or cancel one' }]);
    expect(third.headers.get('retry-after')).toBeTruthy();
    for (const r of [first, second]) await u.client.post(`/api/jobs/${r.body.job_id}/cancel`);
  });

  it('max_models 3: the plan caps the experiment at 3 base models (plus the ensembles), and predictions_per_minute answers 429 naming it', async () => {
    const u = await userWithPlan({ max_models: 3, predictions_per_minute: 3 });
    const projectId = await createProject(u.client, 'models');
    const up = await upload(u.client, projectId);
    expect(up.status).toBe(201);
    const body = (config: Record<string, unknown>) => ({ project_id: projectId, dataset_version_id: up.body.dataset_version_id, name: 'capped', target_column: 'y', problem_type: 'binary', config });
    const over = await u.client.post('/api/experiments', body({ max_models: 4 }));
    expect(over.status).toBe(422);
    expect(over.body.detail).toEqual([
      { loc: ['body', 'config', 'max_models'], msg: 'max_models must be an integer between 1 and 3 (the account quota, max_models of the plan)', type: 'value_error' },
    ]);
    const caps = (await u.client.get('/api/experiments/capabilities')).body;
    expect([caps.limits.max_models_cap, caps.config_defaults.max_models]).toEqual([3, 3]);

    // An omitted max_models takes the plan's cap; GLM, GBM and DRF are the first three of the plan once XGBoost and DeepLearning are left out.
    const r = await u.client.post('/api/experiments', body({ nfolds: 2, seed: 1, max_runtime_secs: 120, exclude_algos: ['XGBoost', 'DeepLearning'] }));
    expect(r.status).toBe(201);
    const done = await eventually(
      async () => {
        const s = await u.client.get(`/api/experiments/${r.body.id}/status`);
        return ['succeeded', 'failed', 'canceled'].includes(s.body.status) ? s.body : undefined;
      },
      240_000,
      500,
    );
    expect(done.status).toBe('succeeded');
    const e = (await u.client.get(`/api/experiments/${r.body.id}`)).body;
    expect(e.experiment.max_models).toBe(3);
    const models = e.models as { id: string; algo: string }[];
    const base = models.filter((m) => m.algo !== 'StackedEnsemble');
    const ensembles = models.filter((m) => m.algo === 'StackedEnsemble');
    expect(base).toHaveLength(3);
    expect(ensembles.length).toBeLessThanOrEqual(2);

    // Predictions a minute: the plan's 3, then 429 naming the limit (a window that would end mid-test is waited out).
    const second = new Date().getSeconds();
    if (second > 50) await new Promise((res) => setTimeout(res, (61 - second) * 1000));
    const row = syntheticRows(1)[0];
    delete row.y;
    for (let i = 0; i < 3; i++) expect((await u.client.post(`/api/models/${base[0].id}/predict`, { inputs: row })).status).toBe(200);
    const refused = await u.client.post(`/api/models/${base[0].id}/predict`, { inputs: row });
    expect([refused.status, refused.body]).toEqual([429, { detail: 'Rate limit exceeded: at most 3 predictions a minute (predictions_per_minute of the plan)' }]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const usage = await eventually(async () => {
      const p = (await admin.client.get(`/api/admin/users/${u.user.id}/plan`)).body.plan;
      return p.usage.predictions_this_minute >= 3 ? p : undefined;
    }, 5_000);
    expect(usage.quotas.predictions_per_minute).toBe(3);
  });
});
