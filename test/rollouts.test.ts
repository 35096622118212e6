import { pageOf } from '../api/presenters/page.schema';
import { rolloutSchema, shadowComparisonSchema, trafficSplitSchema } from '../api/presenters/rollout.schema';
import { addMember, ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels, trainQuickRegression } from './support/trained-models';

/**
 * Rollout strategies through HTTP against the real stack (API, workers, Temporal): a canary that passes its gates and
 * promotes; a candidate that answers errors rolled back by its gate within one interval; signals; blue-green with a
 * rollback inside its window; a shadow compared with the stable while its answers stay the stable's; the traffic
 * split; and the refusals (404, 403, 409, 422).
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let glm: string;
let gbm: string;
/** A regression model: binary rows share no column with it, so each request routed to it is answered 422. */
let regression: string;
/** The project's production deployment now (rollouts move it). */
let prod: string;

const M = '/api/mlops';
const rows = syntheticRows(200, 5).map(({ y: _y, ...r }) => r);
const GATE_SECS = 5;

function c(): ApiClient {
  return owner.client;
}

async function deploy(body: Record<string, unknown>): Promise<string> {
  const r = await c().post(`${M}/projects/${projectId}/deployments`, body);
  if (r.status !== 201) throw new Error(`deploy failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

/** The JSON side of a response schema (safeEncode): the body fits what the OpenAPI document states. */
function fits(schema: { safeEncode(v: unknown): { success: boolean; error?: unknown } }, body: unknown): void {
  expect(schema.safeEncode(body).error).toBeUndefined();
}

async function rollout(id: string) {
  const r = await c().get(`${M}/strategies/${id}`);
  expect(r.status).toBe(200);
  fits(rolloutSchema, r.body);
  return r.body;
}

async function settled(id: string, states: string[], timeoutMs = 90_000) {
  return eventually(
    async () => {
      const r = await rollout(id);
      return states.includes(r.state) ? r : undefined;
    },
    timeoutMs,
    250,
  );
}

async function deployment(id: string) {
  return (await c().get(`${M}/deployments/${id}`)).body.deployment;
}

async function history(id: string): Promise<{ from_stage: string | null; to_stage: string; reason: string }[]> {
  return (await c().get(`${M}/deployments/${id}/rollback-history`)).body.items;
}

/** Sends predict requests to `id` until `stop()` says so; resolves to what was answered. */
function traffic(id: string, stop: () => boolean): Promise<{ status: number; requestId: string }[]> {
  return (async () => {
    const out: { status: number; requestId: string }[] = [];
    for (let i = 0; !stop(); i++) {
      const requestId = `t-${id.slice(0, 8)}-${Date.now()}-${i}`;
      const r = await c().post(`${M}/deployments/${id}/predict`, { inputs: rows[i % rows.length] }, { headers: { 'x-request-id': requestId } });
      out.push({ status: r.status, requestId });
      await new Promise((done) => setTimeout(done, 50));
    }
    return out;
  })();
}

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '100000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  viewer = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Rollouts');
  await addMember(owner.client, viewer, projectId, 'viewer');
  const trained = await trainQuickModels(owner.client, projectId, ['GLM', 'GBM']);
  glm = trained.models.GLM;
  gbm = trained.models.GBM;
  regression = (await trainQuickRegression(owner.client, projectId)).modelId;
  prod = await deploy({ model_id: glm, name: 'prod', stage: 'production' });
}, 400_000);
afterAll(async () => stack?.stop());

describe('rollouts', () => {
  it('refuses what it cannot do: 422 for bad steps, 404 for strangers, 403 for viewers, 409 for a second open rollout', async () => {
    const url = `${M}/deployments/${prod}/canary`;
    for (const steps of [[], [{ traffic_percent: 0, pause_secs: 1 }], [{ traffic_percent: 10, pause_secs: 86_401 }], Array.from({ length: 21 }, () => ({ traffic_percent: 5, pause_secs: 1 }))]) {
      const r = await c().post(url, { model_id: gbm, steps });
      expect(r.status).toBe(422);
    }
    const badGate = await c().post(url, { model_id: gbm, steps: [{ traffic_percent: 10, pause_secs: 1, gates: [{ metric: 'nope', op: 'lt', threshold: 1 }] }] });
    expect(badGate.status).toBe(422);
    expect((await c().post(url, { steps: [{ traffic_percent: 10, pause_secs: 1 }] })).body.detail).toBe('Provide model_id or version_id (one of them)');
    expect((await c().post(url, { model_id: glm, steps: [{ traffic_percent: 10, pause_secs: 1 }] })).status).toBe(422);
    expect((await c().post(`${M}/deployments/${prod}/blue-green`, { model_id: gbm, keep_previous_secs: -1 })).status).toBe(422);
    expect((await c().post(`${M}/deployments/${prod}/shadow`, { model_id: gbm, sample_percent: 101 })).status).toBe(422);

    const body = { model_id: gbm, steps: [{ traffic_percent: 10, pause_secs: 3600 }] };
    expect((await stranger.client.post(url, body)).body).toEqual({ detail: 'Deployment not found or inactive' });
    const forbidden = await viewer.client.post(url, body);
    expect(forbidden.status).toBe(403);

    const first = await c().post(url, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ project_id: projectId, deployment_id: prod, kind: 'canary', state: 'running', candidate_model_id: gbm });
    const second = await c().post(`${M}/deployments/${prod}/shadow`, { model_id: gbm });
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe('The deployment already has an open rollout');

    const id = first.body.id as string;
    expect((await stranger.client.get(`${M}/strategies/${id}`)).status).toBe(404);
    expect((await stranger.client.post(`${M}/strategies/${id}/abort`)).status).toBe(404);
    expect((await viewer.client.get(`${M}/strategies/${id}`)).status).toBe(200);
    expect((await viewer.client.post(`${M}/strategies/${id}/abort`)).status).toBe(403);
    expect((await c().get(`${M}/strategies/00000000-0000-4000-8000-000000000000`)).body).toEqual({ detail: 'Rollout not found' });

    // Abort: the candidate leaves serving, recorded in its rollback history; the stable serves on.
    const running = await eventually(async () => ((await rollout(id)).candidate_deployment_id ? rollout(id) : undefined));
    expect((await c().post(`${M}/strategies/${id}/abort`)).status).toBe(202);
    const aborted = await settled(id, ['aborted']);
    expect(aborted.reason).toBe('Aborted by a user');
    expect(await deployment(running.candidate_deployment_id)).toMatchObject({ stage: 'archived', is_active: false });
    expect((await history(running.candidate_deployment_id))[0]).toMatchObject({ from_stage: 'staging', to_stage: 'archived' });
    expect((await history(running.candidate_deployment_id))[0].reason).toContain('Aborted by a user');
    expect(await deployment(prod)).toMatchObject({ stage: 'production', is_active: true });
    expect((await c().post(`${M}/strategies/${id}/resume`)).status).toBe(409);
    const list = await c().get(`${M}/deployments/${prod}/strategies`);
    expect(list.body).toMatchObject({ total: 1, items: [{ id, state: 'aborted' }] });
    fits(pageOf(rolloutSchema), list.body);
    fits(rolloutSchema, first.body);
  });

  it('pauses, resumes, takes a share set by hand while paused, and promotes on a signal', async () => {
    const started = await c().post(`${M}/deployments/${prod}/canary`, { model_id: gbm, steps: [{ traffic_percent: 10, pause_secs: 3600 }] });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    const running = await eventually(async () => {
      const r = await rollout(id);
      return r.current_traffic_percent === 10 && r.candidate_deployment_id ? r : undefined;
    });
    const candidate = running.candidate_deployment_id as string;
    const split = (await c().get(`${M}/deployments/${prod}/traffic`)).body.split;
    expect(split).toEqual({ stable: { deployment_id: prod, traffic_percent: 90 }, candidate: { deployment_id: candidate, traffic_percent: 10, rollout_id: id }, shadow: null, rollout_id: id });
    // While the canary runs, its steps own the share.
    expect((await c().put(`${M}/deployments/${prod}/traffic`, { traffic_percent: 30 })).status).toBe(409);

    expect((await c().post(`${M}/strategies/${id}/pause`)).status).toBe(202);
    await settled(id, ['paused']);
    expect((await c().post(`${M}/strategies/${id}/pause`)).status).toBe(409);
    const put = await c().put(`${M}/deployments/${prod}/traffic`, { traffic_percent: 30 });
    // With the body, so a refusal says why.
    expect({ status: put.status, body: put.status === 200 ? null : put.body }).toEqual({ status: 200, body: null });
    expect(put.body.candidate).toEqual({ deployment_id: candidate, traffic_percent: 30, rollout_id: id });
    fits(trafficSplitSchema, put.body);
    expect((await history(candidate))[0]).toMatchObject({ from_stage: 'staging', to_stage: 'staging' });
    expect((await history(candidate))[0].reason).toMatch(/^traffic 10% → 30%/);
    expect((await viewer.client.put(`${M}/deployments/${prod}/traffic`, { traffic_percent: 20 })).status).toBe(403);

    expect((await c().post(`${M}/strategies/${id}/resume`)).status).toBe(202);
    await settled(id, ['running']);
    expect((await c().post(`${M}/strategies/${id}/promote`)).status).toBe(202);
    const promoted = await settled(id, ['promoted']);
    expect(promoted.history.map((h: { event: string }) => h.event)).toEqual(expect.arrayContaining(['started', 'candidate_created', 'step_1', 'paused', 'traffic_set', 'resumed', 'promoted']));
    expect(await deployment(candidate)).toMatchObject({ stage: 'production', is_active: true });
    expect(await deployment(prod)).toMatchObject({ stage: 'archived', is_active: false });
    expect((await history(prod))[0]).toMatchObject({ from_stage: 'production', to_stage: 'archived' });
    prod = candidate;
  });

  it('a canary with two gated steps passes and promotes: the candidate is production, the stable archived', async () => {
    const stable = prod;
    const gates = [{ metric: 'error_rate', op: 'lt', threshold: 0.5, min_samples: 1 }];
    // The candidate named by its registry version: the registry hears of the rollout and its stage follows.
    const registered = await c().post(`${M}/projects/${projectId}/registry`, { name: 'churn' });
    expect(registered.status).toBe(201);
    const version = await c().post(`${M}/registry/${registered.body.id}/versions`, { model_id: glm });
    expect(version.status).toBe(201);
    const started = await c().post(`${M}/deployments/${stable}/canary`, {
      version_id: version.body.id,
      steps: [
        { traffic_percent: 50, pause_secs: 6, gates },
        { traffic_percent: 100, pause_secs: 6, gates },
      ],
      gate_interval_secs: GATE_SECS,
    });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    let done = false;
    const sent = traffic(stable, () => done);
    const promoted = await settled(id, ['promoted', 'rolled_back', 'failed']).finally(() => (done = true));
    const answers = await sent;
    expect(promoted.state).toBe('promoted');
    expect(promoted.reason).toBe('All 2 steps passed their gates');
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(promoted.gates_last).toEqual([expect.objectContaining({ metric: 'error_rate', op: 'lt', threshold: 0.5, passed: true, observed: 0 })]);
    expect(promoted.gates_last[0].samples).toBeGreaterThan(0);
    const candidate = promoted.candidate_deployment_id as string;
    expect(await deployment(candidate)).toMatchObject({ stage: 'production', model_id: glm });
    expect(await deployment(stable)).toMatchObject({ stage: 'archived' });
    // The rollback history tells it: created in staging, 50% → 100%, then production; the stable archived.
    const moves = (await history(candidate)).reverse();
    expect(moves.map((m) => [m.from_stage, m.to_stage])).toEqual([
      [null, 'staging'],
      ['staging', 'staging'],
      ['staging', 'production'],
    ]);
    expect(moves[1].reason).toMatch(/^traffic 50% → 100%: rollout .* step 2/);
    expect(moves[2].reason).toContain('All 2 steps passed their gates');
    expect((await history(stable))[0]).toMatchObject({ from_stage: 'production', to_stage: 'archived' });
    // The candidate served its share from its own log.
    const logs = (await c().get(`${M}/deployments/${candidate}/inference-logs?limit=500`)).body;
    expect(logs.total).toBeGreaterThan(0);
    expect(promoted).toMatchObject({ version_id: version.body.id, candidate_model_id: glm });
    const events = (await c().get(`${M}/registry/${registered.body.id}/events`)).body.items as { kind: string; details: { rollout_id?: string } }[];
    expect(events.filter((e) => e.details.rollout_id === id).map((e) => e.kind)).toEqual(expect.arrayContaining(['rollout_started', 'rollout_promoted']));
    expect((await c().get(`${M}/versions/${version.body.id}`)).body).toMatchObject({ stage: 'production' });
    prod = candidate;
  });

  it('rolls a candidate that answers errors back within one gate interval, the reason naming the gate', async () => {
    const stable = prod;
    const started = await c().post(`${M}/deployments/${stable}/canary`, {
      model_id: regression,
      steps: [{ traffic_percent: 50, pause_secs: 600, gates: [{ metric: 'error_rate', op: 'lt', threshold: 0.2, min_samples: 3 }] }],
      gate_interval_secs: GATE_SECS,
    });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    let done = false;
    const sent = traffic(stable, () => done);
    const rolled = await settled(id, ['rolled_back', 'promoted', 'failed'], 60_000).finally(() => (done = true));
    await sent;
    expect(rolled.state).toBe('rolled_back');
    expect(rolled.reason).toMatch(/^Gate error_rate lt 0\.2 failed at step 1 \(50%\): observed 1 over \d+ requests/);
    const candidate = rolled.candidate_deployment_id as string;
    // Within one gate interval of the candidate's third failed request (the gate's min_samples), plus the write's slack.
    const errors = (await c().get(`${M}/deployments/${candidate}/inference-logs?limit=500`)).body.items as { status_code: number; created_at: string }[];
    const third = errors
      .filter((e) => e.status_code >= 400)
      .map((e) => new Date(e.created_at).getTime())
      .sort((a, b) => a - b)[2];
    expect(new Date(rolled.finished_at).getTime() - third).toBeLessThan((GATE_SECS + 3) * 1000);
    expect(await deployment(candidate)).toMatchObject({ stage: 'archived', is_active: false });
    expect((await history(candidate))[0].reason).toContain('Gate error_rate lt 0.2 failed');
    expect(await deployment(stable)).toMatchObject({ stage: 'production', is_active: true });
    const split = (await c().get(`${M}/deployments/${stable}/traffic`)).body.split;
    expect(split).toMatchObject({ stable: { traffic_percent: 100 }, candidate: null, rollout_id: null });
  });

  it('blue-green switches at once and a rollback inside keep_previous_secs restores the previous deployment', async () => {
    const stable = prod;
    const started = await c().post(`${M}/deployments/${stable}/blue-green`, { model_id: gbm, keep_previous_secs: 600, warmup_requests: 2 });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    const switched = await eventually(async () => {
      const r = await rollout(id);
      return r.history.some((h: { event: string }) => h.event === 'switched') ? r : undefined;
    });
    expect(switched.history.map((h: { event: string }) => h.event)).toEqual(['started', 'candidate_created', 'warmed_up', 'switched']);
    const candidate = switched.candidate_deployment_id as string;
    expect(await deployment(candidate)).toMatchObject({ stage: 'production' });
    expect(await deployment(stable)).toMatchObject({ stage: 'archived' });
    expect((await c().post(`${M}/strategies/${id}/rollback`)).status).toBe(202);
    const rolled = await settled(id, ['rolled_back']);
    expect(rolled.reason).toBe('Rolled back by a user');
    expect(await deployment(stable)).toMatchObject({ stage: 'production', is_active: true });
    expect(await deployment(candidate)).toMatchObject({ stage: 'archived' });
    expect((await history(stable))[0]).toMatchObject({ from_stage: 'archived', to_stage: 'production' });

    // A window that ends: the switch stays and the rollout completes.
    const quick = await c().post(`${M}/deployments/${stable}/blue-green`, { model_id: gbm, keep_previous_secs: 1 });
    const completed = await settled(quick.body.id, ['completed', 'failed']);
    expect(completed.state).toBe('completed');
    expect(await deployment(completed.candidate_deployment_id)).toMatchObject({ stage: 'production' });
    prod = completed.candidate_deployment_id;
  });

  it('a shadow answers mirrored requests after the stable answered, unchanged, and compares the two', async () => {
    const stable = prod;
    const sample = rows.slice(0, 30);
    const before = await Promise.all(sample.map((r) => c().post(`${M}/deployments/${stable}/predict`, { inputs: r })));
    const started = await c().post(`${M}/deployments/${stable}/shadow`, { model_id: glm, sample_percent: 100 });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    const shadowId = (await eventually(async () => (await rollout(id)).candidate_deployment_id)) as string;
    // The API's serving cache learns of the shadow within seconds.
    await eventually(async () => (await c().get(`${M}/deployments/${stable}/traffic`)).body.split.shadow?.deployment_id === shadowId);
    await new Promise((r) => setTimeout(r, 5_500));
    const after: { body: { predictions: unknown } }[] = [];
    for (let i = 0; i < sample.length; i++) after.push(await c().post(`${M}/deployments/${stable}/predict`, { inputs: sample[i] }, { headers: { 'x-request-id': `shadow-${i}` } }));
    expect(after.map((r) => r.body)).toEqual(before.map((r) => r.body));
    const comparison = await eventually(async () => {
      const r = await c().get(`${M}/deployments/${stable}/shadow`);
      expect(r.status).toBe(200);
      return r.body.compared >= sample.length ? r.body : undefined;
    });
    expect(comparison).toMatchObject({ deployment_id: stable, shadow_deployment_id: shadowId, rollout_id: id, errors: 0 });
    fits(shadowComparisonSchema, comparison);
    expect(comparison.agreement_rate).toBeGreaterThan(0.5);
    expect(comparison.agreement_rate).toBeLessThanOrEqual(1);
    expect(comparison.latency_ms.stable.p50).toEqual(expect.any(Number));
    expect(comparison.latency_ms.shadow.p50).toEqual(expect.any(Number));
    // The shadow's own log holds its answers under the same request ids; it took none of the stable's traffic.
    const shadowLogs = (await c().get(`${M}/deployments/${shadowId}/inference-logs?limit=500`)).body.items as { request_id: string }[];
    expect(shadowLogs.map((l) => l.request_id)).toEqual(expect.arrayContaining(['shadow-0', 'shadow-29']));
    expect((await c().get(`${M}/deployments/${stable}/shadow?tolerance=-1`)).status).toBe(422);
    expect((await c().post(`${M}/strategies/${id}/rollback`)).status).toBe(409);
    expect((await c().post(`${M}/strategies/${id}/abort`)).status).toBe(202);
    await settled(id, ['aborted']);
    expect(await deployment(shadowId)).toMatchObject({ stage: 'archived' });
    expect(await deployment(stable)).toMatchObject({ stage: 'production' });
    expect((await stranger.client.get(`${M}/deployments/${stable}/shadow`)).status).toBe(404);
  });
});
