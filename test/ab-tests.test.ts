import { addMember, createProject, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * A/B tests through HTTP on the real stack: two models of one project deployed, requests split by a sticky key,
 * simulated outcomes (posted outcomes, and ground truth through the deployments' feedback route) with a known effect
 * conclude for the right variant; promote makes the winner production; the state machine, validation and access.
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let strangerDeployment: string;
/** GLM in production (the control) and GBM in staging. */
let prod: string;
let staging: string;
/** Two more staging deployments for the feedback-measured tests. */
let glmStaging: string;
let gbmStaging: string;

const M = '/api/mlops';
const AB = `${M}/ab-tests`;

/** A seeded uniform generator, so the simulated traffic is the same every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rows = syntheticRows(500, 21).map(({ y: _y, ...x }) => x);

async function deploy(modelId: string, name: string, stage: string): Promise<string> {
  const r = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: modelId, name, stage });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function createTest(body: Record<string, unknown>) {
  return owner.client.post(AB, { project_id: projectId, name: 'test', ...body });
}

async function started(body: Record<string, unknown>): Promise<string> {
  const c = await createTest(body);
  expect(c.status).toBe(201);
  const s = await owner.client.post(`${AB}/${c.body.id}/start`);
  expect(s.status).toBe(200);
  expect(s.body.state).toBe('running');
  return c.body.id;
}

async function predict(testId: string, i: number, key?: string) {
  const r = await owner.client.post(`${AB}/${testId}/predict`, { inputs: rows[i % rows.length] }, { headers: key ? { 'x-ab-key': key } : {} });
  expect(r.status).toBe(200);
  return r.body as { variant: string; deployment_id: string; request_id: string; predictions: { prediction: string; probabilities?: Record<string, number> }[] };
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '100000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  viewer = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'AB');
  await addMember(owner.client, viewer, projectId, 'viewer');
  const { models } = await trainQuickModels(owner.client, projectId, ['GLM', 'GBM']);
  prod = await deploy(models.GLM, 'control', 'production');
  staging = await deploy(models.GBM, 'challenger', 'staging');
  glmStaging = await deploy(models.GLM, 'glm-staging', 'staging');
  gbmStaging = await deploy(models.GBM, 'gbm-staging', 'staging');
  const strangerProject = await createProject(stranger.client, 'Other');
  const other = await trainQuickModels(stranger.client, strangerProject, ['GLM'], 200);
  const d = await stranger.client.post(`${M}/projects/${strangerProject}/deployments`, { model_id: other.models.GLM, name: 'theirs', stage: 'staging' });
  strangerDeployment = d.body.id;
}, 600_000);

afterAll(async () => {
  await stack?.stop();
});

describe('a conversion test with a known effect', () => {
  let testId: string;

  it('creates a draft with defaults', async () => {
    const r = await createTest({
      name: 'checkout model',
      variants: [
        { name: 'control', deployment_id: prod, weight: 1 },
        { name: 'gbm', deployment_id: staging, weight: 1 },
      ],
      primary_metric: 'conversion',
      min_samples: 30,
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ state: 'draft', alpha: 0.05, min_samples: 30, primary_metric: 'conversion', conclusion: null, started_at: null, concluded_at: null, description: '' });
    testId = r.body.id;
    const predictDraft = await owner.client.post(`${AB}/${testId}/predict`, { inputs: rows[0] });
    expect(predictDraft.status).toBe(409);
    expect(predictDraft.body.detail).toBe('A/B test is not running');
    const list = await owner.client.get(`${AB}?project_id=${projectId}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: { id: string }) => t.id)).toContain(testId);
  });

  it('assigns a key to the same variant every time, and splits keys between the variants', async () => {
    expect((await owner.client.post(`${AB}/${testId}/start`)).status).toBe(200);
    const first = await predict(testId, 0, 'visitor-sticky');
    for (let i = 1; i < 6; i++) expect((await predict(testId, i, 'visitor-sticky')).variant).toBe(first.variant);
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) seen.add((await predict(testId, i, `visitor-spread-${i}`)).variant);
    expect([...seen].sort()).toEqual(['control', 'gbm']);
  });

  it('concludes for the variant that converts more, with its effect and interval, on the first read past the boundary', async () => {
    const u = rng(5);
    const rate: Record<string, number> = { control: 0.15, gbm: 0.6 };
    let test: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (let batch = 0; batch < 30 && test.state !== 'concluded'; batch++) {
      const outcomes = [];
      for (let i = 0; i < 20; i++) {
        const p = await predict(testId, batch * 20 + i, `visitor-${batch}-${i}`);
        // The variant's deployment answered and logged the request.
        expect(p.deployment_id).toBe(p.variant === 'control' ? prod : staging);
        outcomes.push({ request_id: p.request_id, value: u() < rate[p.variant] ? 1 : 0 });
      }
      const o = await owner.client.post(`${AB}/${testId}/outcomes`, { outcomes });
      expect(o.status).toBe(200);
      expect(o.body).toMatchObject({ accepted: 20, unknown_request_ids: [] });
      test = (await owner.client.get(`${AB}/${testId}`)).body;
    }
    expect(test.state).toBe('concluded');
    expect(test.conclusion).toMatchObject({ winner: 'gbm', against: 'control', reason: 'significant' });
    expect(test.conclusion.p_value).toBeLessThan(0.05);
    const [lo, hi] = test.conclusion.ci;
    expect(lo).toBeGreaterThan(0);
    expect(lo).toBeLessThan(test.conclusion.effect);
    expect(hi).toBeGreaterThan(test.conclusion.effect);
    expect(test.conclusion.effect).toBeGreaterThan(0.2);
    expect(test.concluded_at).not.toBeNull();
    const [control, gbm] = test.stats.variants;
    expect(control.n).toBeGreaterThanOrEqual(30);
    expect(gbm.n).toBeGreaterThanOrEqual(30);
    expect(gbm.mean).toBeGreaterThan(control.mean);
    expect(test.stats.comparisons[0]).toMatchObject({ variant: 'gbm', against: 'control', significant: true });
    // The conclusion stays as it was decided; a concluded test no longer serves.
    const again = await owner.client.get(`${AB}/${testId}`);
    expect(again.body.conclusion).toEqual(test.conclusion);
    expect((await owner.client.post(`${AB}/${testId}/predict`, { inputs: rows[0] })).status).toBe(409);
  });

  it('outcomes are idempotent by request id; unknown ids are listed', async () => {
    const count = async () => ((await stack.ds.query('SELECT count(*)::int AS n FROM ab_outcomes WHERE test_id = $1', [testId])) as { n: number }[])[0].n;
    const before = await count();
    const [{ request_id }]: { request_id: string }[] = await stack.ds.query('SELECT request_id FROM ab_outcomes WHERE test_id = $1 LIMIT 1', [testId]);
    const again = await owner.client.post(`${AB}/${testId}/outcomes`, {
      outcomes: [
        { request_id, value: 1 },
        { request_id: 'never-assigned', value: 1 },
      ],
    });
    expect(again.body).toEqual({ accepted: 1, updated: 1, unknown_request_ids: ['never-assigned'] });
    expect(await count()).toBe(before);
  });

  it('promote makes the winner production (the control is archived); twice is a 409', async () => {
    expect((await viewer.client.post(`${AB}/${testId}/promote`)).status).toBe(403);
    const r = await owner.client.post(`${AB}/${testId}/promote`);
    expect(r.status).toBe(200);
    expect(r.body.promoted_deployment_id).toBe(staging);
    expect(r.body.promoted_at).not.toBeNull();
    const winner = await owner.client.get(`${M}/deployments/${staging}`);
    expect(winner.body.deployment.stage).toBe('production');
    const old = await owner.client.get(`${M}/deployments/${prod}`);
    expect(old.body.deployment.stage).toBe('archived');
    const history = await owner.client.get(`${M}/deployments/${staging}/rollback-history`);
    expect(history.body.items[0].reason).toContain('A/B test checkout model');
    const twice = await owner.client.post(`${AB}/${testId}/promote`);
    expect(twice.status).toBe(409);
  });
});

describe('accuracy and log loss from the deployments’ feedback', () => {
  it('an accuracy test concludes for the variant whose predictions are right more often', async () => {
    const testId = await started({
      variants: [
        { name: 'glm', deployment_id: glmStaging, weight: 1 },
        { name: 'gbm', deployment_id: gbmStaging, weight: 1 },
      ],
      primary_metric: 'accuracy',
      min_samples: 30,
      alpha: 0.01,
    });
    // Outcomes are for conversion and revenue only.
    expect((await owner.client.post(`${AB}/${testId}/outcomes`, { outcomes: [{ request_id: 'x', value: 1 }] })).status).toBe(409);
    const u = rng(9);
    const right: Record<string, number> = { glm: 0.5, gbm: 0.95 };
    const flip = (label: string) => (label === 'pos' ? 'neg' : 'pos');
    let test: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (let batch = 0; batch < 30 && test.state !== 'concluded'; batch++) {
      const labels: Record<string, { request_id: string; actual: string }[]> = { [glmStaging]: [], [gbmStaging]: [] };
      for (let i = 0; i < 20; i++) {
        const p = await predict(testId, batch * 20 + i);
        const predicted = p.predictions[0].prediction;
        labels[p.deployment_id].push({ request_id: p.request_id, actual: u() < right[p.variant] ? predicted : flip(predicted) });
      }
      for (const [deploymentId, items] of Object.entries(labels)) {
        if (!items.length) continue;
        const f = await owner.client.post(`${M}/deployments/${deploymentId}/feedback`, { items });
        expect(f.status).toBe(200);
        expect(f.body.unknown_request_ids).toEqual([]);
      }
      test = (await owner.client.get(`${AB}/${testId}`)).body;
    }
    expect(test.state).toBe('concluded');
    expect(test.conclusion).toMatchObject({ winner: 'gbm', against: 'glm' });
    expect(test.conclusion.effect).toBeGreaterThan(0.2);
    expect(test.conclusion.ci[0]).toBeGreaterThan(0);
    expect(test.stats.variants[1].mean).toBeGreaterThan(0.85);
  });

  it('a log loss test measures −ln p(actual) on labelled rows, lower being better', async () => {
    const testId = await started({
      variants: [
        { name: 'glm', deployment_id: glmStaging, weight: 1 },
        { name: 'gbm', deployment_id: gbmStaging, weight: 1 },
      ],
      primary_metric: 'log_loss',
    });
    const labels: Record<string, { request_id: string; actual: string }[]> = { [glmStaging]: [], [gbmStaging]: [] };
    // −ln p(actual) of each labelled row, from the probabilities the prediction answered.
    const losses: Record<string, number[]> = { glm: [], gbm: [] };
    for (let i = 0; i < 12; i++) {
      const p = await predict(testId, i);
      const { prediction, probabilities } = p.predictions[0];
      labels[p.deployment_id].push({ request_id: p.request_id, actual: prediction });
      losses[p.variant].push(-Math.log(probabilities![prediction]));
    }
    for (const [deploymentId, items] of Object.entries(labels)) if (items.length) await owner.client.post(`${M}/deployments/${deploymentId}/feedback`, { items });
    const t = (await owner.client.get(`${AB}/${testId}`)).body;
    expect(t.state).toBe('running');
    expect(t.stats.higher_is_better).toBe(false);
    expect(t.stats.variants.reduce((s: number, v: { n: number }) => s + v.n, 0)).toBe(12);
    for (const v of t.stats.variants) if (v.n) expect(v.mean).toBeGreaterThan(0);
    // Not "below ln 2": a binary label follows the model's operating threshold, so the predicted class may have p < 0.5.
    for (const v of t.stats.variants as { name: string; n: number; mean: number }[]) {
      expect(v.n).toBe(losses[v.name].length);
      if (v.n) expect(v.mean).toBeCloseTo(losses[v.name].reduce((a, b) => a + b, 0) / v.n, 6);
    }
  });
});

describe('the state machine', () => {
  const variants = () => [
    { name: 'a', deployment_id: glmStaging, weight: 1 },
    { name: 'b', deployment_id: gbmStaging, weight: 2 },
  ];

  it('draft → running → concluded; each wrong move is a 409', async () => {
    const c = await createTest({ variants: variants(), primary_metric: 'revenue' });
    const id = c.body.id;
    expect((await owner.client.post(`${AB}/${id}/stop`)).status).toBe(409);
    expect((await owner.client.post(`${AB}/${id}/promote`)).status).toBe(409);
    const patched = await owner.client.patch(`${AB}/${id}`, { name: 'renamed', alpha: 0.1 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'renamed', alpha: 0.1, state: 'draft' });
    expect(patched.body.stats.variants.map((v: { n: number }) => v.n)).toEqual([0, 0]);
    expect((await owner.client.post(`${AB}/${id}/start`)).status).toBe(200);
    expect((await owner.client.post(`${AB}/${id}/start`)).status).toBe(409);
    expect((await owner.client.patch(`${AB}/${id}`, { name: 'late' })).status).toBe(409);
    expect((await owner.client.del(`${AB}/${id}`)).status).toBe(409);
    expect((await owner.client.post(`${AB}/${id}/promote`)).status).toBe(409);
    const p = await predict(id, 0, 'someone');
    expect(await owner.client.post(`${AB}/${id}/outcomes`, { outcomes: [{ request_id: p.request_id, value: 12.5 }] })).toMatchObject({ status: 200, body: { accepted: 1 } });
    // Stopped before any boundary: concluded without a winner, nothing to promote.
    const stopped = await owner.client.post(`${AB}/${id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.state).toBe('concluded');
    expect(stopped.body.conclusion).toMatchObject({ winner: null, reason: 'stopped' });
    expect((await owner.client.post(`${AB}/${id}/stop`)).status).toBe(409);
    const promote = await owner.client.post(`${AB}/${id}/promote`);
    expect(promote.status).toBe(409);
    expect(promote.body.detail).toBe('A/B test has no winner to promote');
    expect((await owner.client.del(`${AB}/${id}`)).status).toBe(200);
    expect((await owner.client.get(`${AB}/${id}`)).status).toBe(404);
  });

  it("a variant's deployment that stopped serving: start is a 409", async () => {
    const d = await deploy((await owner.client.get(`${M}/deployments/${glmStaging}`)).body.model.id, 'short-lived', 'staging');
    const c = await createTest({
      variants: [
        { name: 'a', deployment_id: glmStaging, weight: 1 },
        { name: 'gone', deployment_id: d, weight: 1 },
      ],
      primary_metric: 'conversion',
    });
    expect(c.status).toBe(201);
    expect((await owner.client.post(`${M}/deployments/${d}/deactivate`, {})).status).toBe(200);
    const s = await owner.client.post(`${AB}/${c.body.id}/start`);
    expect(s.status).toBe(409);
    expect(s.body.detail).toContain('gone');
  });
});

describe('validation: 422', () => {
  const good = () => ({
    variants: [
      { name: 'a', deployment_id: glmStaging, weight: 1 },
      { name: 'b', deployment_id: gbmStaging, weight: 1 },
    ],
    primary_metric: 'conversion',
  });

  it.each([
    ['one variant', { variants: [{ name: 'a', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 }] }],
    ['eleven variants', { variants: Array.from({ length: 11 }, (_, i) => ({ name: `v${i}`, deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 })) }],
    [
      'a zero weight',
      {
        variants: [
          { name: 'a', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 0 },
          { name: 'b', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 },
        ],
      },
    ],
    [
      'a negative weight',
      {
        variants: [
          { name: 'a', deployment_id: '00000000-0000-4000-8000-000000000000', weight: -1 },
          { name: 'b', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 },
        ],
      },
    ],
    [
      'repeated names',
      {
        variants: [
          { name: 'a', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 },
          { name: 'a', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 },
        ],
      },
    ],
    ['alpha above 0.2', { alpha: 0.5 }],
    ['alpha 0', { alpha: 0 }],
    ['a huge min_samples', { min_samples: 2 ** 53 + 2 }],
    ['min_samples 1e300', { min_samples: 1e300 }],
    ['a fractional min_samples', { min_samples: 10.5 }],
    ['an unknown metric', { primary_metric: 'clicks' }],
    ['a NUL in the name', { name: 'a\u0000b' }],
    ['an unknown field', { extra: true }],
    ['a blank name', { name: '   ' }],
  ])('%s', async (_what, change) => {
    const r = await createTest({ ...good(), ...change });
    expect(r.status).toBe(422);
  });

  it('deployments that are not active deployments of the project are named', async () => {
    const theirs = await createTest({ ...good(), variants: [good().variants[0], { name: 'theirs', deployment_id: strangerDeployment, weight: 1 }] });
    expect(theirs.status).toBe(422);
    expect(theirs.body.detail[0].loc).toEqual(['body', 'variants', 1, 'deployment_id']);
    const none = await createTest({ ...good(), variants: [{ name: 'x', deployment_id: '00000000-0000-4000-8000-000000000000', weight: 1 }, good().variants[1]] });
    expect(none.status).toBe(422);
    expect(none.body.detail[0].loc).toEqual(['body', 'variants', 0, 'deployment_id']);
  });

  it('outcomes and keys: a conversion is 0 or 1, a key at most 256 characters, a NUL anywhere is refused', async () => {
    const id = await started(good());
    const half = await owner.client.post(`${AB}/${id}/outcomes`, { outcomes: [{ request_id: 'r1', value: 0.5 }] });
    expect(half.status).toBe(422);
    expect((await owner.client.post(`${AB}/${id}/outcomes`, { outcomes: [{ request_id: 'r\u00001', value: 1 }] })).status).toBe(422);
    expect((await owner.client.post(`${AB}/${id}/outcomes`, { outcomes: [{ request_id: 'r1', value: 1e300 }] })).status).toBe(422);
    expect((await owner.client.post(`${AB}/${id}/outcomes`, { outcomes: [] })).status).toBe(422);
    const long = await owner.client.post(`${AB}/${id}/predict`, { inputs: rows[0] }, { headers: { 'x-ab-key': 'k'.repeat(257) } });
    expect(long.status).toBe(422);
    expect((await owner.client.post(`${AB}/${id}/predict`, { inputs: { x1: 'a\u0000' } })).status).toBe(422);
    expect((await owner.client.get(`${AB}/not-a-uuid`)).status).toBe(422);
    expect((await owner.client.get(`${AB}?project_id=${projectId}&limit=99999999999999999999`)).status).toBe(422);
  });
});

describe('access', () => {
  let id: string;
  beforeAll(async () => {
    id = (
      await createTest({
        variants: [
          { name: 'a', deployment_id: glmStaging, weight: 1 },
          { name: 'b', deployment_id: gbmStaging, weight: 1 },
        ],
        primary_metric: 'conversion',
      })
    ).body.id;
  });

  it("other users' tests are 404 everywhere, their projects too", async () => {
    const s = stranger.client;
    const calls = [
      s.get(`${AB}/${id}`),
      s.patch(`${AB}/${id}`, { name: 'mine' }),
      s.del(`${AB}/${id}`),
      s.post(`${AB}/${id}/start`),
      s.post(`${AB}/${id}/stop`),
      s.post(`${AB}/${id}/promote`),
      s.post(`${AB}/${id}/predict`, { inputs: rows[0] }),
      s.post(`${AB}/${id}/outcomes`, { outcomes: [{ request_id: 'r', value: 1 }] }),
    ];
    for (const r of await Promise.all(calls)) {
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe('A/B test not found');
    }
    expect((await s.get(`${AB}?project_id=${projectId}`)).status).toBe(404);
    const create = await s.post(AB, { project_id: projectId, name: 'x', variants: [], primary_metric: 'conversion' });
    expect(create.status).toBe(422);
    const create2 = await s.post(AB, {
      project_id: projectId,
      name: 'x',
      variants: [
        { name: 'a', deployment_id: glmStaging, weight: 1 },
        { name: 'b', deployment_id: gbmStaging, weight: 1 },
      ],
      primary_metric: 'conversion',
    });
    expect(create2.status).toBe(404);
    expect(create2.body.detail).toBe('Project not found');
  });

  it('viewers read but do not write (403)', async () => {
    const v = viewer.client;
    expect((await v.get(`${AB}/${id}`)).status).toBe(200);
    expect((await v.get(`${AB}?project_id=${projectId}`)).status).toBe(200);
    const writes = [
      v.post(AB, {
        project_id: projectId,
        name: 'v',
        variants: [
          { name: 'a', deployment_id: glmStaging, weight: 1 },
          { name: 'b', deployment_id: gbmStaging, weight: 1 },
        ],
        primary_metric: 'conversion',
      }),
      v.patch(`${AB}/${id}`, { name: 'v' }),
      v.post(`${AB}/${id}/start`),
      v.post(`${AB}/${id}/stop`),
      v.post(`${AB}/${id}/promote`),
      v.del(`${AB}/${id}`),
    ];
    for (const r of await Promise.all(writes)) expect(r.status).toBe(403);
    expect((await owner.client.get(`${AB}/${id}`)).body.state).toBe('draft');
  });
});
