import { createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, toCsv } from './support/trained-models';

/**
 * The closed loop of issue 31, end to end through HTTP on the real stack: a champion in production; its inputs drift
 * (a drift_psi alert fires); a drift run above the policy's threshold starts a retraining on the new dataset version;
 * the challenger beats the champion on the holdout of that version; a canary rollout passes its gates and promotes it;
 * the registry events, the rollback history and the alert history tell the story. Then a second run whose challenger
 * does not beat the new champion by the gate ends `rejected`, production untouched.
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let projectId: string;

const M = '/api/mlops';
const TINY = { max_models: 1, nfolds: 2, seed: 1, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GBM'] };

/**
 * The new regime: shifted inputs (x1 moved, most colors blue) whose label follows x2 alone. A model of the old regime
 * (the label follows x1 and color) ranks it near chance; one trained on it ranks it well.
 */
function newRegimeRows(n: number): Record<string, number | string>[] {
  let s = 12345;
  const rnd = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return syntheticRows(n, 31, 2).map((r) => ({ ...r, y: Number(r.x2) + (rnd() - 0.5) * 2 > 5 ? 'pos' : 'neg' }));
}

beforeAll(async () => {
  stack = await startStack({ env: { ALERT_EVAL_INTERVAL_SECS: '2', RATE_LIMIT_PREDICT: '100000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Closed loop');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function production() {
  const r = await owner.client.get(`${M}/projects/${projectId}/deployments?limit=200`);
  return (r.body.items as { id: string; model_id: string; stage: string; is_active: boolean }[]).find((d) => d.stage === 'production' && d.is_active);
}

async function predict(deploymentId: string, rows: Record<string, unknown>[]): Promise<void> {
  const r = await owner.client.post(`${M}/deployments/${deploymentId}/predict`, { inputs: rows.map(({ y: _y, ...x }) => x), options: { store_payload: true } });
  expect(r.status).toBe(200);
}

async function retrainingJob(id: string, until: (j: Record<string, unknown>) => boolean, timeoutMs = 240_000) {
  return eventually(
    async () => {
      const j = (await owner.client.get(`${M}/retraining-jobs/${id}`)).body;
      return until(j) ? j : undefined;
    },
    timeoutMs,
    500,
  );
}

it('drift → retraining on the new version → a challenger better on the holdout → a canary that promotes it; a worse one is rejected', async () => {
  // A champion in production, registered and aliased.
  const up = await owner.client.upload('/api/datasets/upload', { project_id: projectId, name: 'customers' }, { name: 'customers.csv', data: toCsv(syntheticRows(400)) });
  expect(up.status).toBe(201);
  const exp = await owner.client.post('/api/experiments', {
    project_id: projectId,
    dataset_version_id: up.body.dataset_version_id,
    name: 'v0',
    target_column: 'y',
    problem_type: 'binary',
    config: TINY,
  });
  expect(exp.status).toBe(201);
  await eventually(async () => (await owner.client.get(`/api/experiments/${exp.body.id}/status`)).body.status === 'succeeded', 240_000, 500);
  const championModel = (await owner.client.get(`/api/experiments/${exp.body.id}`)).body.models[0].id as string;
  const rm = (await owner.client.post(`${M}/projects/${projectId}/registry`, { name: 'customers churn' })).body;
  const v1 = (await owner.client.post(`${M}/registry/${rm.id}/versions`, { model_id: championModel })).body;
  expect((await owner.client.put(`${M}/registry/${rm.id}/aliases/champion`, { version_id: v1.id })).status).toBeLessThan(300);
  const stable = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: championModel, name: 'churn', stage: 'production' });
  expect(stable.status).toBe(201);
  const stableId = stable.body.id as string;

  // Watching it: an alert on drift, and the policy (drift trigger, canary outcome).
  const rule = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, {
    name: 'inputs drift',
    deployment_id: stableId,
    metric: 'drift_psi',
    operator: 'gt',
    threshold: 0.2,
    window_minutes: 60,
    min_samples: 20,
  });
  expect(rule.status).toBe(201);
  const policy = await owner.client.post(`${M}/retraining-policies`, {
    project_id: projectId,
    registered_model_id: rm.id,
    name: 'retrain on drift',
    triggers: { drift: { threshold: 0.2, consecutive: 1 } },
    experiment: TINY,
    gate: { min_improvement: 0.05 },
    outcome: 'canary',
    canary: { steps: [{ traffic_percent: 50, pause_secs: 6, gates: [{ metric: 'error_rate', op: 'lte', threshold: 0.1, min_samples: 5 }] }], gate_interval_secs: 5 },
    cooldown_secs: 0,
  });
  expect(policy.status).toBe(201);

  // The world changes: a new labelled version of the data, and the production inputs drift.
  const newVersion = await owner.client.upload(`/api/datasets/${up.body.dataset_id}/versions`, { description: 'the new regime' }, { name: 'customers-v1.csv', data: toCsv(newRegimeRows(400)) });
  expect(newVersion.status).toBe(201);
  await predict(stableId, newRegimeRows(200));
  await eventually(async () => (await owner.client.get(`${M}/projects/${projectId}/alerts?rule_id=${rule.body.id}`)).body.items?.some((a: { state: string }) => a.state === 'firing'), 60_000, 500);

  // Drift computed: above the threshold, so the policy starts a retraining on the new version.
  const drift = await owner.client.post(`${M}/deployments/${stableId}/drift/run`);
  expect(drift.status).toBe(200);
  const [started] = await eventually(async () => {
    const items = (await owner.client.get(`${M}/retraining-jobs?policy_id=${policy.body.id}`)).body.items as { id: string }[];
    return items.length ? items : undefined;
  }, 120_000);
  const during = await retrainingJob(started.id, (j) => Boolean(j.rollout_id) || ['rejected', 'failed', 'promoted'].includes(j.state as string));
  expect(during).toMatchObject({ trigger: { kind: 'drift' }, dataset_version_id: newVersion.body.dataset_version_id, champion_version_id: v1.id });
  expect(during.evaluation).toMatchObject({ metric: 'AUC', passed: true });
  const evaluation = during.evaluation as { champion: number; challenger: number; improvement: number };
  expect(evaluation.challenger).toBeGreaterThan(evaluation.champion + 0.05);

  // The canary: traffic reaches the candidate, its gate passes, it is promoted.
  const rolloutId = during.rollout_id as string;
  let promoted: Record<string, unknown> | undefined;
  for (let i = 0; i < 120 && !promoted; i++) {
    const prod = await production();
    if (prod) await predict(prod.id, newRegimeRows(20));
    const j = (await owner.client.get(`${M}/retraining-jobs/${started.id}`)).body;
    if (!['evaluating'].includes(j.state)) promoted = j;
    else await new Promise((r) => setTimeout(r, 1000));
  }
  expect(promoted).toMatchObject({ state: 'promoted', rollout_id: rolloutId });
  const rollout = (await owner.client.get(`${M}/strategies/${rolloutId}`)).body;
  expect(rollout).toMatchObject({ kind: 'canary', state: 'promoted' });
  const challenger = (await owner.client.get(`${M}/versions/${promoted!.challenger_version_id}`)).body;
  const prod = await production();
  expect(prod?.model_id).toBe(challenger.model_id);
  expect(prod?.id).not.toBe(stableId);
  const registered = (await owner.client.get(`${M}/registry/${rm.id}`)).body;
  expect(registered.aliases).toMatchObject({ champion: challenger.version });

  // The story: registry events, the rollback history, the alert history.
  const events = ((await owner.client.get(`${M}/registry/${rm.id}/events?limit=200`)).body.items as { kind: string }[]).map((e) => e.kind).reverse();
  for (const kind of ['version_created', 'alias_moved', 'retraining_started', 'retraining_rollout_started', 'retraining_promoted']) expect(events).toContain(kind);
  expect(events.indexOf('retraining_started')).toBeLessThan(events.lastIndexOf('retraining_promoted'));
  const history = (await owner.client.get(`${M}/deployments/${stableId}/rollback-history`)).body.items as { to_stage: string }[];
  expect(history.map((h) => h.to_stage)).toContain('archived');
  const promotedHistory = (await owner.client.get(`${M}/deployments/${prod!.id}/rollback-history`)).body.items as { to_stage: string }[];
  expect(promotedHistory.map((h) => h.to_stage)).toContain('production');
  const alertHistory = (await owner.client.get(`${M}/alerts/history?project_id=${projectId}`)).body.items as { event: string }[];
  expect(alertHistory.map((h) => h.event)).toContain('fired');

  // A second run: the new champion already fits the data, so a challenger cannot beat it by 0.05: rejected.
  const second = await owner.client.post(`${M}/retraining-policies/${policy.body.id}/run`, {});
  expect(second.status).toBe(201);
  expect(second.body.champion_version_id).toBe(challenger.id);
  const rejected = await retrainingJob(second.body.id, (j) => !['queued', 'training', 'evaluating'].includes(j.state as string));
  expect(rejected.state).toBe('rejected');
  expect(rejected.rollout_id).toBeNull();
  expect(await production()).toEqual(prod);
  expect((await owner.client.get(`${M}/registry/${rm.id}`)).body.aliases).toMatchObject({ champion: challenger.version });
}, 600_000);
