import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { TemporalGateway } from '../platform/temporal-client';
import { retrainingScheduleId } from '../services/retraining';
import { addMember, type ApiClient, createProject, eventually, signUp } from './support/client';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, toCsv, trainQuickModels } from './support/trained-models';

/**
 * Retraining through HTTP on the real stack: policy CRUD with its refusals, a manual run that trains on the champion's
 * data less a holdout, scores both models on it and awaits approval (approved: the challenger in production, the
 * alias champion moved), a worse challenger rejected with production untouched, and a drift trigger that starts a run
 * whose next trigger the cooldown skips. Experiments are one GLM with 2-fold CV on 400 rows.
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let editor: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let registeredModelId: string;
let championVersionId: string;
let productionId: string;
let datasetId: string;

const M = '/api/mlops';
/** The tiniest experiment: one GLM, 2-fold cross-validation. */
const TINY = { max_models: 1, nfolds: 2, exclude_algos: ['XGBoost', 'DRF', 'DeepLearning', 'StackedEnsemble', 'GBM'] };

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_PREDICT: '100000', ALERT_EVAL_INTERVAL_SECS: '2' } });
  [owner, editor, viewer, stranger] = [
    await signUp(stack.baseUrl, stack.mail),
    await signUp(stack.baseUrl, stack.mail),
    await signUp(stack.baseUrl, stack.mail),
    await signUp(stack.baseUrl, stack.mail),
  ];
  projectId = await createProject(owner.client, 'Retraining');
  await addMember(owner.client, editor, projectId, 'editor');
  await addMember(owner.client, viewer, projectId, 'viewer');
  const { models, datasetId: uploaded } = await trainQuickModels(owner.client, projectId, ['GLM']);
  datasetId = uploaded;
  const rm = await owner.client.post(`${M}/projects/${projectId}/registry`, { name: 'churn' });
  expect(rm.status).toBe(201);
  registeredModelId = rm.body.id;
  const v = await owner.client.post(`${M}/registry/${registeredModelId}/versions`, { model_id: models.GLM });
  expect(v.status).toBe(201);
  championVersionId = v.body.id;
  expect((await owner.client.put(`${M}/registry/${registeredModelId}/aliases/champion`, { version_id: championVersionId })).status).toBeLessThan(300);
  const d = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'churn prod', stage: 'production' });
  expect(d.status).toBe(201);
  productionId = d.body.id;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

async function newPolicy(client: ApiClient, body: Record<string, unknown>) {
  return client.post(`${M}/retraining-policies`, { project_id: projectId, registered_model_id: registeredModelId, experiment: TINY, ...body });
}

/** Waits for a retraining job to leave the open states it is not expected to stay in. */
async function settled(id: string, until: string[] = ['awaiting_approval', 'promoted', 'rejected', 'registered', 'failed']) {
  return eventually(
    async () => {
      const r = await owner.client.get(`${M}/retraining-jobs/${id}`);
      return until.includes(r.body.state) ? r.body : undefined;
    },
    240_000,
    500,
  );
}

async function production() {
  const r = await owner.client.get(`${M}/projects/${projectId}/deployments?limit=200`);
  return (r.body.items as { id: string; model_id: string; stage: string; is_active: boolean }[]).find((d) => d.stage === 'production' && d.is_active);
}

describe('policies', () => {
  it('are created with defaults, read, listed, changed and deleted', async () => {
    const c = await newPolicy(editor.client, { name: 'nightly', triggers: { schedule_cron: '0 3 * * *' } });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      project_id: projectId,
      registered_model_id: registeredModelId,
      name: 'nightly',
      enabled: true,
      triggers: { schedule_cron: '0 3 * * *', drift: null, new_dataset_version: false, alert_rule_ids: [] },
      experiment: TINY,
      gate: { metric: null, min_improvement: 0 },
      outcome: 'approval',
      canary: null,
      cooldown_secs: 3600,
    });
    const id = c.body.id;
    expect((await viewer.client.get(`${M}/retraining-policies/${id}`)).body.name).toBe('nightly');
    const list = await viewer.client.get(`${M}/retraining-policies?project_id=${projectId}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: { id: string }) => p.id)).toContain(id);
    const p = await editor.client.patch(`${M}/retraining-policies/${id}`, { enabled: false, triggers: { drift: { threshold: 0.3 } }, cooldown_secs: 60 });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ enabled: false, triggers: { schedule_cron: null, drift: { threshold: 0.3, consecutive: 1 } }, cooldown_secs: 60, name: 'nightly' });
    expect((await editor.client.del(`${M}/retraining-policies/${id}`)).status).toBe(204);
    expect((await owner.client.get(`${M}/retraining-policies/${id}`)).status).toBe(404);
  });

  it('refuse invalid fields (422), strangers (404) and viewers (403)', async () => {
    for (const bad of [
      { name: 'x', triggers: { schedule_cron: '61 * * * *' } },
      { name: 'x', triggers: { schedule_cron: 'every day' } },
      { name: 'x', experiment: { max_modelz: 1 } },
      { name: 'x', triggers: { drift: { consecutive: 21 } } },
      { name: 'x', outcome: 'canary' },
      { name: '  ' },
      { name: 'x', cooldown_secs: 2 ** 40 },
      { name: 'x\u0000' },
    ]) {
      const r = await newPolicy(owner.client, bad);
      expect([r.status, bad]).toEqual([422, bad]);
    }
    expect((await newPolicy(viewer.client, { name: 'v' })).status).toBe(403);
    expect((await newPolicy(stranger.client, { name: 's' })).status).toBe(404);
    const other = await createProject(stranger.client, 'Other');
    const foreign = await stranger.client.post(`${M}/retraining-policies`, { project_id: other, registered_model_id: registeredModelId, name: 'f' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Registered model not found');
    const rule = await newPolicy(owner.client, { name: 'r', triggers: { alert_rule_ids: ['00000000-0000-4000-8000-000000000000'] } });
    expect(rule.status).toBe(404);

    const ok = await newPolicy(owner.client, { name: 'guarded' });
    expect((await stranger.client.get(`${M}/retraining-policies/${ok.body.id}`)).status).toBe(404);
    expect((await stranger.client.patch(`${M}/retraining-policies/${ok.body.id}`, { name: 'mine' })).status).toBe(404);
    expect((await viewer.client.patch(`${M}/retraining-policies/${ok.body.id}`, { name: 'mine' })).status).toBe(403);
    expect((await viewer.client.post(`${M}/retraining-policies/${ok.body.id}/run`, {})).status).toBe(403);
    expect((await stranger.client.get(`${M}/retraining-policies?project_id=${projectId}`)).status).toBe(404);
    expect((await owner.client.get(`${M}/retraining-jobs/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await owner.client.del(`${M}/retraining-policies/${ok.body.id}`)).status).toBe(204);
  });
});

describe('runs', () => {
  it('a manual run trains, evaluates on the holdout and awaits approval; the owner approves and the challenger is promoted', async () => {
    const p = await newPolicy(editor.client, { name: 'manual', gate: { min_improvement: -1 } });
    expect(p.status).toBe(201);
    const run = await editor.client.post(`${M}/retraining-policies/${p.body.id}/run`, {});
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ policy_id: p.body.id, state: 'queued', trigger: { kind: 'manual' }, champion_version_id: championVersionId });
    expect(run.body.job_id).toEqual(expect.any(String));
    // One open job per policy.
    const again = await editor.client.post(`${M}/retraining-policies/${p.body.id}/run`, {});
    expect(again.status).toBe(409);

    const done = await settled(run.body.id);
    expect(done.state).toBe('awaiting_approval');
    expect(done.experiment_id).toEqual(expect.any(String));
    expect(done.training_version_id).toEqual(expect.any(String));
    expect(done.challenger_version_id).toEqual(expect.any(String));
    expect(done.transition_request_id).toEqual(expect.any(String));
    expect(done.evaluation).toMatchObject({ metric: 'AUC', passed: true, holdout_rows: 80 });
    expect(done.evaluation.champion).toBeGreaterThan(0.5);
    expect(done.evaluation.challenger).toBeGreaterThan(0.5);
    // The experiment trained on the slice: the version without the 80 held-out rows.
    const exp = await owner.client.get(`/api/experiments/${done.experiment_id}`);
    expect(exp.body.dataset_version_id ?? exp.body.experiment?.dataset_version_id).toBe(done.training_version_id);
    const challenger = await owner.client.get(`${M}/versions/${done.challenger_version_id}`);
    expect(challenger.body.aliases).toContain('challenger');

    expect((await editor.client.post(`${M}/retraining-jobs/${done.id}/approve`, {})).status).toBe(403);
    expect((await viewer.client.post(`${M}/retraining-jobs/${done.id}/reject`, {})).status).toBe(403);
    expect((await stranger.client.post(`${M}/retraining-jobs/${done.id}/approve`, {})).status).toBe(404);
    const approved = await owner.client.post(`${M}/retraining-jobs/${done.id}/approve`, { comment: 'ship it' });
    expect(approved.status).toBe(200);
    expect(approved.body.state).toBe('promoted');
    expect((await owner.client.post(`${M}/retraining-jobs/${done.id}/approve`, {})).status).toBe(409);

    const prod = await production();
    expect(prod?.model_id).toBe(challenger.body.model_id);
    productionId = prod!.id;
    const rm = await owner.client.get(`${M}/registry/${registeredModelId}`);
    expect(rm.body.aliases.champion).toBe(challenger.body.version);
    championVersionId = done.challenger_version_id;
    const listed = await viewer.client.get(`${M}/retraining-jobs?policy_id=${p.body.id}`);
    expect(listed.body.items.map((j: { id: string }) => j.id)).toEqual([done.id]);
    expect((await owner.client.del(`${M}/retraining-policies/${p.body.id}`)).status).toBe(204);
  }, 300_000);

  it('a rejection leaves production as it was; a request approved in the registry itself promotes the job', async () => {
    const before = await production();
    const p = await newPolicy(owner.client, { name: 'reviewed', gate: { min_improvement: -1 } });
    const first = await settled((await owner.client.post(`${M}/retraining-policies/${p.body.id}/run`, {})).body.id);
    expect(first.state).toBe('awaiting_approval');
    const rejected = await owner.client.post(`${M}/retraining-jobs/${first.id}/reject`, { comment: 'not now' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ state: 'rejected', reason: 'Rejected: not now' });
    expect(await production()).toEqual(before);

    const second = await settled((await owner.client.post(`${M}/retraining-policies/${p.body.id}/run`, {})).body.id);
    expect(second.state).toBe('awaiting_approval');
    const decided = await owner.client.post(`${M}/versions/${second.challenger_version_id}/transitions/${second.transition_request_id}/approve`, {});
    expect(decided.status).toBeLessThan(300);
    const after = (await owner.client.get(`${M}/retraining-jobs/${second.id}`)).body;
    expect(after.state).toBe('promoted');
    const challenger = await owner.client.get(`${M}/versions/${second.challenger_version_id}`);
    expect((await production())?.model_id).toBe(challenger.body.model_id);
    expect((await owner.client.get(`${M}/registry/${registeredModelId}`)).body.aliases.champion).toBe(challenger.body.version);
    championVersionId = second.challenger_version_id;
    productionId = (await production())!.id;
    expect((await owner.client.del(`${M}/retraining-policies/${p.body.id}`)).status).toBe(204);
  }, 300_000);

  it('a challenger that does not beat the champion by the gate ends rejected, production untouched', async () => {
    const before = await production();
    const p = await newPolicy(owner.client, { name: 'strict', gate: { min_improvement: 0.9 }, outcome: 'auto_promote' });
    const run = await owner.client.post(`${M}/retraining-policies/${p.body.id}/run`, {});
    expect(run.status).toBe(201);
    expect(run.body.champion_version_id).toBe(championVersionId);
    const done = await settled(run.body.id);
    expect(done.state).toBe('rejected');
    expect(done.evaluation).toMatchObject({ passed: false });
    expect(done.evaluation.improvement).toBeLessThan(0.9);
    expect(done.reason).toMatch(/does not beat the champion/);
    expect(done.transition_request_id).toBeNull();
    expect(await production()).toEqual(before);
    const rm = await owner.client.get(`${M}/registry/${registeredModelId}`);
    const champion = await owner.client.get(`${M}/versions/${championVersionId}`);
    expect(rm.body.aliases.champion).toBe(champion.body.version);
    expect((await owner.client.post(`${M}/retraining-jobs/${done.id}/approve`, {})).status).toBe(409);
  }, 300_000);

  it('a cron policy has its Temporal Schedule, whose run starts a job; a new version of the dataset starts one too', async () => {
    const p = await newPolicy(owner.client, {
      name: 'scheduled',
      triggers: { schedule_cron: '0 3 * * *', new_dataset_version: true },
      gate: { min_improvement: -1 },
      outcome: 'register',
      cooldown_secs: 0,
    });
    expect(p.status).toBe(201);
    const temporal = new TemporalGateway(stack.info.temporalAddress, stack.config.temporal.namespace);
    const handle = (await temporal.get()).schedule.getHandle(retrainingScheduleId(stack.config, p.body.id));
    await handle.describe();
    const jobsOf = async () => (await owner.client.get(`${M}/retraining-jobs?policy_id=${p.body.id}`)).body.items as { id: string; trigger: { kind: string }; dataset_version_id: string }[];

    await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
    const [scheduled] = await eventually(async () => ((await jobsOf()).length ? jobsOf() : undefined), 60_000, 500);
    expect(scheduled.trigger).toMatchObject({ kind: 'schedule', detail: { cron: '0 3 * * *' } });
    expect((await settled(scheduled.id)).state).toBe('registered');

    // The champion now was trained on a training slice: the trigger follows the slice back to its dataset.
    const up = await owner.client.upload(`/api/datasets/${datasetId}/versions`, { description: 'fresh rows' }, { name: 'fresh.csv', data: toCsv(syntheticRows(300, 5)) });
    expect(up.status).toBe(201);
    const [fresh] = await eventually(async () => {
      const j = await jobsOf();
      return j.length > 1 ? j : undefined;
    });
    expect(fresh.trigger).toMatchObject({ kind: 'new_dataset_version', detail: { dataset_id: datasetId, dataset_version_id: up.body.dataset_version_id } });
    const done = await settled(fresh.id);
    expect(done).toMatchObject({ state: 'registered', dataset_version_id: up.body.dataset_version_id, evaluation: { holdout_rows: 60 } });

    expect((await owner.client.patch(`${M}/retraining-policies/${p.body.id}`, { enabled: false })).status).toBe(200);
    await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await temporal.close();
  }, 300_000);

  it('drift above the threshold for N consecutive results starts a run; the cooldown skips the next trigger', async () => {
    const p = await newPolicy(owner.client, { name: 'drift watch', triggers: { drift: { threshold: 0.1, consecutive: 2 } }, gate: { min_improvement: -1 }, outcome: 'register', cooldown_secs: 3600 });
    expect(p.status).toBe(201);
    const drifted = syntheticRows(200, 99, 2).map(({ y: _y, ...x }) => x);
    const predicted = await owner.client.post(`${M}/deployments/${productionId}/predict`, { inputs: drifted, options: { store_payload: true } });
    expect(predicted.status).toBe(200);
    const drift = async () => {
      const r = await owner.client.post(`${M}/deployments/${productionId}/drift/run`, {});
      expect(r.status).toBe(200);
      const jobId = r.body.job_id;
      await eventually(async () => ['succeeded', 'failed'].includes((await owner.client.get(`/api/jobs/${jobId}`)).body.job?.status), 120_000, 300);
      expect((await owner.client.get(`${M}/deployments/${productionId}/drift`)).body.max_psi).toBeGreaterThan(0.1);
    };
    const jobsOf = async () => (await owner.client.get(`${M}/retraining-jobs?policy_id=${p.body.id}`)).body.items as { id: string; trigger: { kind: string } }[];

    await drift();
    expect(await jobsOf()).toEqual([]);
    await drift();
    const [started] = await eventually(async () => {
      const j = await jobsOf();
      return j.length ? j : undefined;
    });
    expect(started.trigger).toMatchObject({ kind: 'drift', detail: { consecutive: 2, deployment_id: productionId } });
    const done = await settled(started.id);
    expect(done.state).toBe('registered');

    // Two more results above the threshold: the trigger fires again inside the cooldown and is skipped, recorded.
    await drift();
    await drift();
    const triggers = (await owner.client.get(`${M}/retraining-policies/${p.body.id}/triggers`)).body.items as { outcome: string; reason: string | null; kind: string }[];
    expect(triggers[0]).toMatchObject({ kind: 'drift', outcome: 'skipped' });
    expect(triggers[0].reason).toMatch(/cooldown/);
    expect(triggers.at(-1)).toMatchObject({ kind: 'drift', outcome: 'started' });
    expect((await jobsOf()).length).toBe(1);
  }, 400_000);

  it('an accuracy_degradation alert of a listed rule beginning to fire starts a run', async () => {
    const rule = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, {
      name: 'accuracy dropped',
      deployment_id: productionId,
      metric: 'accuracy_degradation',
      operator: 'gt',
      threshold: 0.3,
      window_minutes: 60,
      min_samples: 50,
      is_enabled: false,
    });
    expect(rule.status).toBe(201);
    const p = await newPolicy(owner.client, { name: 'on alert', triggers: { alert_rule_ids: [rule.body.id] }, gate: { min_improvement: -1 }, outcome: 'register', cooldown_secs: 0 });
    expect(p.status).toBe(201);
    const rows = syntheticRows(100, 3).map(({ y: _y, ...x }) => x);
    const answered = await owner.client.post(`${M}/deployments/${productionId}/predict`, { inputs: rows, options: { store_payload: true } }, { headers: { 'x-request-id': 'alert-trigger' } });
    expect(answered.status).toBe(200);
    const flipped = (answered.body.predictions as { prediction: string }[]).map((q) => (q.prediction === 'pos' ? 'neg' : 'pos'));
    expect((await owner.client.post(`${M}/deployments/${productionId}/feedback`, { request_id: 'alert-trigger', actual: flipped })).status).toBeLessThan(300);
    expect((await owner.client.patch(`${M}/alerts/rules/${rule.body.id}`, { is_enabled: true })).status).toBe(200);
    const [started] = await eventually(
      async () => {
        const items = (await owner.client.get(`${M}/retraining-jobs?policy_id=${p.body.id}`)).body.items as { id: string; trigger: { kind: string; detail: { rule_id: string } } }[];
        return items.length ? items : undefined;
      },
      60_000,
      500,
    );
    expect(started.trigger).toMatchObject({ kind: 'alert', detail: { rule_id: rule.body.id } });
    expect((await settled(started.id)).state).toBe('registered');
    expect((await owner.client.patch(`${M}/alerts/rules/${rule.body.id}`, { is_enabled: false })).status).toBe(200);
  }, 300_000);
});
