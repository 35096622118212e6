import { createHmac, randomUUID } from 'node:crypto';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { AlertRule, Deployment } from '../entities';
import { evaluateProject, type EvaluationDeps } from '../activities/alerts-evaluate/evaluate';
import { measureRule, type Measurement, watchedDeployments } from '../activities/alerts-evaluate/metrics';
import { createLogger } from '../platform/logger';
import { createMailer } from '../platform/mail';
import { TemporalGateway } from '../platform/temporal-client';
import { alertScheduleId, reconcileAlertSchedules } from '../services/alerts/schedule';
import { driftScheduleId, reconcileDriftSchedules } from '../services/drift-schedule';
import { createServices } from '../services';
import { createProject, eventually, signUp } from './support/client';
import { startReceiver, type Receiver, type ReceivedRequest } from './support/http-receiver';
import { startStack, TestStack } from './support/stack';
import { syntheticRows, trainQuickModels } from './support/trained-models';

/**
 * Alert evaluation: end to end through HTTP on the real stack (a Temporal Schedule per project evaluating every 2 s,
 * deliveries to a local webhook receiver and the SMTP sink), then the metrics and the state machine against the
 * database with seeded inference logs and an injected clock.
 */

let stack: TestStack;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let projectId: string;
let glm: string;

const M = '/api/mlops';

/** A local webhook receiver: every request's headers and raw body, answered 200. */
interface Delivered {
  id: string;
  type: string;
  created_at: string;
  data: { reason: string; rule: { id: string }; alert: Record<string, unknown> };
}
let receiver: Receiver;
let received: ReceivedRequest[];
let receiverUrl: string;
const bodyOf = (r: ReceivedRequest) => JSON.parse(r.raw) as Delivered;

beforeAll(async () => {
  receiver = await startReceiver();
  received = receiver.received;
  receiverUrl = `${receiver.url}/hooks/alerts`;
  stack = await startStack({ env: { ALERT_EVAL_INTERVAL_SECS: '2', RATE_LIMIT_PREDICT: '100000' } });
  owner = await signUp(stack.baseUrl, stack.mail);
  stranger = await signUp(stack.baseUrl, stack.mail);
  projectId = await createProject(owner.client, 'Alerts');
  glm = (await trainQuickModels(owner.client, projectId, ['GLM'])).models.GLM;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** Predicts `rows` in requests of 50 under request ids `<tag>-<n>`; the predicted labels by request id. */
async function send(deploymentId: string, rows: Record<string, unknown>[], tag: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < rows.length; i += 50) {
    const requestId = `${tag}-${i / 50}`;
    const r = await owner.client.post(
      `${M}/deployments/${deploymentId}/predict`,
      { inputs: rows.slice(i, i + 50).map(({ y: _y, ...x }) => x), options: { store_payload: true } },
      { headers: { 'x-request-id': requestId } },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe(requestId);
    out.set(
      requestId,
      (r.body.predictions as { prediction: string }[]).map((p) => p.prediction),
    );
  }
  return out;
}

async function alertsOf(ruleId: string) {
  const r = await owner.client.get(`${M}/projects/${projectId}/alerts?rule_id=${ruleId}`);
  expect(r.status).toBe(200);
  return r.body.items as Record<string, unknown>[];
}

/** The deliveries of one rule, each with its parsed body. */
const forRule = (ruleId: string) => received.map((r) => ({ ...r, body: bodyOf(r) })).filter((r) => r.body.data.rule.id === ruleId);

function signatureOk(r: ReceivedRequest, secret: string): boolean {
  const ts = String(r.headers['x-mlsvc-timestamp']);
  const expected = `sha256=${createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex')}`;
  return r.headers['x-mlsvc-signature'] === expected;
}

describe('ground truth: POST /deployments/{id}/feedback', () => {
  let deploymentId: string;
  beforeAll(async () => {
    const d = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: glm, name: 'feedback', stage: 'staging', store_payload: true });
    expect(d.status).toBe(201);
    deploymentId = d.body.id;
    await send(deploymentId, syntheticRows(100, 5), 'fb');
  });

  it('stores one outcome or a batch, replaces on a repeat (idempotent) and lists unknown request ids', async () => {
    const one = await owner.client.post(`${M}/deployments/${deploymentId}/feedback`, { request_id: 'fb-0', actual: Array(50).fill('pos') });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ accepted: 1, updated: 0, unknown_request_ids: [] });
    const batch = await owner.client.post(`${M}/deployments/${deploymentId}/feedback`, {
      items: [
        { request_id: 'fb-0', actual: Array(50).fill('neg') },
        { request_id: 'fb-1', actual: Array(50).fill('pos') },
        { request_id: 'nobody-asked', actual: 'pos' },
      ],
    });
    expect(batch.body).toEqual({ accepted: 2, updated: 1, unknown_request_ids: ['nobody-asked'] });
    const rows: { request_id: string; actual: unknown }[] = await stack.ds.query(`SELECT request_id, actual FROM inference_feedback WHERE deployment_id = $1 ORDER BY request_id`, [deploymentId]);
    expect(rows.map((r) => r.request_id)).toEqual(['fb-0', 'fb-1']);
    expect((rows[0].actual as string[])[0]).toBe('neg');
  });

  it('422 for bodies it cannot take, 404 for another user', async () => {
    for (const body of [
      {},
      { request_id: 'fb-0' },
      { request_id: 'bad id!', actual: 1 },
      { items: [] },
      { request_id: 'fb-0', actual: { nested: true } },
      { items: [{ request_id: 'fb-0', actual: 1 }], extra: 1 },
    ]) {
      const r = await owner.client.post(`${M}/deployments/${deploymentId}/feedback`, body);
      expect([r.status, body]).toEqual([422, body]);
    }
    const other = await stranger.client.post(`${M}/deployments/${deploymentId}/feedback`, { request_id: 'fb-0', actual: 'pos' });
    expect(other.status).toBe(404);
    expect((await owner.client.post(`${M}/deployments/${randomUUID()}/feedback`, { request_id: 'fb-0', actual: 'pos' })).status).toBe(404);
  });
});

describe('alerts end to end: the schedule evaluates, notifies, escalates, is silenced, resolves', () => {
  let deploymentId: string;
  let webhook: { id: string; secret: string };
  let driftRule: string;
  let predicted: Map<string, string[]>;

  beforeAll(async () => {
    const d = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: glm, name: 'watched', stage: 'production', store_payload: true });
    expect(d.status).toBe(201);
    deploymentId = d.body.id;
    const hook = await owner.client.post(`${M}/projects/${projectId}/channels`, { name: 'receiver', type: 'webhook', config: { url: receiverUrl } });
    expect(hook.status).toBe(201);
    webhook = { id: hook.body.id, secret: hook.body.secret };
    const mail = await owner.client.post(`${M}/projects/${projectId}/channels`, { name: 'on call', type: 'email', config: { recipients: ['oncall@example.test'] } });
    expect(mail.status).toBe(201);
    // Inputs that drift: x1 moved by 2.5 and most colors blue.
    predicted = await send(deploymentId, syntheticRows(300, 11, 2.5), 'drifted');
    const rule = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, {
      name: 'Inputs drift',
      deployment_id: deploymentId,
      metric: 'drift_psi',
      operator: 'gt',
      threshold: 0.25,
      window_minutes: 2,
      min_samples: 50,
      severity: 'warning',
      channel_ids: [webhook.id, mail.body.id],
      cooldown_minutes: 60,
      escalation_minutes: 5,
      escalation_severity: 'critical',
    });
    expect(rule.status).toBe(201);
    driftRule = rule.body.id;
  }, 120_000);

  it('a drift_psi alert fires once: one signed webhook and one email', async () => {
    const [alert] = await eventually(async () => {
      const a = await alertsOf(driftRule);
      return a.length && a[0].notification_count === 2 ? a : undefined;
    }, 90_000);
    expect(alert).toMatchObject({ state: 'firing', severity: 'warning', metric: 'drift_psi', deployment_id: deploymentId, silenced: false, estimated: false });
    expect(alert.value as number).toBeGreaterThan(0.25);
    const hooks = await eventually(async () => (forRule(driftRule).length ? forRule(driftRule) : undefined));
    expect(hooks).toHaveLength(1);
    expect(hooks[0].body).toMatchObject({ type: 'alert.firing', data: { reason: 'firing', alert: { id: alert.id, state: 'firing' } } });
    expect(hooks[0].headers['idempotency-key']).toBe(hooks[0].body.id);
    expect(signatureOk(hooks[0], webhook.secret)).toBe(true);
    expect(signatureOk({ ...hooks[0], raw: hooks[0].raw.replace('firing', 'FIRING') }, webhook.secret)).toBe(false);
    const mail = await stack.mail.waitFor('oncall@example.test', /drift_psi/);
    expect(mail.raw).toMatch(/Subject: \[WARNING\] Inputs drift firing \(Alerts\)/);
    // Later cycles see it again without notifying again.
    const evaluatedAt = (await owner.client.get(`${M}/alerts/rules/${driftRule}`)).body.last_evaluated_at;
    await eventually(async () => (await owner.client.get(`${M}/alerts/rules/${driftRule}`)).body.last_evaluated_at > evaluatedAt && true, 30_000);
    expect(forRule(driftRule)).toHaveLength(1);
    expect(stack.mail.mails.filter((m) => m.to.includes('oncall@example.test'))).toHaveLength(1);
  });

  it('escalates after its minutes: severity critical, notified again', async () => {
    // Five minutes of firing, without waiting them: the turn began earlier.
    await stack.ds.query(`UPDATE alerts SET first_seen_at = first_seen_at - interval '6 minutes' WHERE rule_id = $1`, [driftRule]);
    const [alert] = await eventually(async () => {
      const a = await alertsOf(driftRule);
      return a[0]?.escalated_at ? a : undefined;
    }, 60_000);
    expect(alert).toMatchObject({ state: 'firing', severity: 'critical' });
    const escalated = await eventually(async () => forRule(driftRule).find((h) => h.body.type === 'alert.escalated'));
    expect(signatureOk(escalated, webhook.secret)).toBe(true);
    expect(escalated.body.data.alert).toMatchObject({ severity: 'critical' });
  });

  it('a suppression silences a second rule: its alert changes state, nobody is notified, the history says so', async () => {
    const silence = await owner.client.post(`${M}/alerts/suppressions`, { project_id: projectId, comment: 'maintenance', matchers: { labels: { team: 'quiet' } } });
    expect(silence.status).toBe(201);
    const rule = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, {
      name: 'Any traffic',
      deployment_id: deploymentId,
      metric: 'request_volume',
      operator: 'gt',
      threshold: 0,
      window_minutes: 60,
      channel_ids: [webhook.id],
      labels: { team: 'quiet' },
    });
    expect(rule.status).toBe(201);
    const [alert] = await eventually(async () => {
      const a = await alertsOf(rule.body.id);
      return a.length ? a : undefined;
    });
    expect(alert).toMatchObject({ state: 'firing', silenced: true, labels: { team: 'quiet' } });
    const history = await owner.client.get(`${M}/alerts/${alert.id}/history`);
    expect(history.body.items.map((e: { event: string }) => e.event).sort()).toEqual(['fired', 'silenced']);
    expect(history.body.items.find((e: { event: string }) => e.event === 'silenced').detail).toMatchObject({ suppression_id: silence.body.id });
    await new Promise((r) => setTimeout(r, 5_000));
    expect(forRule(rule.body.id)).toHaveLength(0);
    expect((await alertsOf(rule.body.id))[0].notification_count).toBe(0);
    // Not to be seen again below.
    expect((await owner.client.patch(`${M}/alerts/rules/${rule.body.id}`, { is_enabled: false })).status).toBe(200);
  });

  it('feedback with wrong labels fires accuracy_degradation (measured, not estimated)', async () => {
    const flipped = [...predicted].map(([request_id, labels]) => ({ request_id, actual: labels.map((l) => (l === 'pos' ? 'neg' : 'pos')) }));
    const fb = await owner.client.post(`${M}/deployments/${deploymentId}/feedback`, { items: flipped });
    expect(fb.body).toEqual({ accepted: flipped.length, updated: 0, unknown_request_ids: [] });
    const rule = await owner.client.post(`${M}/projects/${projectId}/alert-rules`, {
      name: 'Accuracy dropped',
      deployment_id: deploymentId,
      metric: 'accuracy_degradation',
      operator: 'gt',
      threshold: 0.3,
      window_minutes: 60,
      min_samples: 100,
      severity: 'critical',
      channel_ids: [webhook.id],
    });
    expect(rule.status).toBe(201);
    const [alert] = await eventually(async () => {
      const a = await alertsOf(rule.body.id);
      return a.length ? a : undefined;
    });
    expect(alert).toMatchObject({ state: 'firing', estimated: false, samples: 300 });
    expect(alert.value as number).toBeGreaterThan(0.5);
    await eventually(async () => forRule(rule.body.id).find((h) => h.body.type === 'alert.firing'));
    expect((await owner.client.patch(`${M}/alerts/rules/${rule.body.id}`, { is_enabled: false })).status).toBe(200);
  });

  it('resolves when the inputs return to normal, and says so to those it told', async () => {
    // The drifted requests leave the rule's two-minute window (without waiting the minutes), normal ones arrive.
    await stack.ds.query(`UPDATE inference_logs SET created_at = created_at - interval '3 minutes' WHERE deployment_id = $1`, [deploymentId]);
    await send(deploymentId, syntheticRows(300, 23), 'normal');
    const [alert] = await eventually(async () => {
      const a = await alertsOf(driftRule);
      return a[0]?.state === 'resolved' ? a : undefined;
    }, 60_000);
    expect(alert).toMatchObject({ resolved_by: null, resolved_at: expect.any(String) });
    expect(alert.value as number).toBeLessThan(0.25);
    const resolved = await eventually(async () => forRule(driftRule).find((h) => h.body.type === 'alert.resolved'));
    expect(signatureOk(resolved, webhook.secret)).toBe(true);
    // Every webhook delivery has its own idempotency key: none was sent twice.
    const keys = received.map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(keys.length);
    const history = await owner.client.get(`${M}/alerts/history?project_id=${projectId}&alert_id=${alert.id}`);
    expect(history.body.items.map((e: { event: string }) => e.event)).toEqual(expect.arrayContaining(['fired', 'notified', 'escalated', 'auto_resolved']));
  });
});

describe('metrics and the state machine against the database (seeded inference logs, injected clock)', () => {
  let deps: EvaluationDeps;
  let seededProject: string;
  let deployment: Deployment;
  const T0 = new Date('2031-03-01T12:00:00Z');
  const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

  beforeAll(async () => {
    const log = createLogger('silent', 'test');
    const services = createServices({
      ds: stack.ds,
      store: stack.store,
      config: stack.config,
      log,
      temporal: new TemporalGateway(stack.info.temporalAddress, 'default'),
      mailer: createMailer(stack.config.mail, log),
    });
    deps = { ds: stack.ds, serving: services.serving, datasetVersions: services.datasetVersions, log, appBaseUrl: 'http://app.test' };
    // A project of its own, without a schedule (rules written here, not through the API): only the test evaluates it.
    seededProject = await createProject(owner.client, 'Seeded');
    const [row]: { id: string }[] = await stack.ds.query(
      `INSERT INTO deployments (id, project_id, model_id, name, stage, is_active, traffic_percent, config) VALUES (gen_random_uuid(), $1, $2, 'seeded', 'staging', true, 100, '{}') RETURNING id`,
      [seededProject, glm],
    );
    [deployment] = (await watchedDeployments(stack.ds, seededProject)).filter((d) => d.id === row.id);
  });

  async function seed(at: Date, rows: { status?: number; latency?: number; prediction?: unknown; inputs?: unknown; requestId?: string }[]): Promise<void> {
    for (const r of rows) {
      await stack.ds.query(
        `INSERT INTO inference_logs (deployment_id, requested_deployment_id, model_id, project_id, request_id, latency_ms, status_code, prediction, inputs, created_at)
         VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          deployment.id,
          glm,
          seededProject,
          r.requestId ?? randomUUID(),
          r.latency ?? 10,
          r.status ?? 200,
          r.prediction === undefined ? null : JSON.stringify(r.prediction),
          r.inputs ? JSON.stringify(r.inputs) : null,
          at,
        ],
      );
    }
  }

  async function rule(fields: Partial<AlertRule>): Promise<AlertRule> {
    const repo = stack.ds.getRepository<AlertRule>('AlertRule');
    return repo.save(
      repo.create({
        projectId: seededProject,
        deploymentId: deployment.id,
        name: 'seeded',
        operator: 'gt',
        threshold: 0,
        windowMinutes: 60,
        minSamples: 1,
        severity: 'warning',
        channelIds: [],
        cooldownMinutes: 60,
        labels: {},
        isEnabled: true,
        metric: 'error_rate',
        ...fields,
      }),
    );
  }

  const measure = async (r: AlertRule, now: Date): Promise<Measurement> => (await measureRule(deps, r, [deployment], now))[0];

  it('traffic metrics read the window only: error rate, p95/p99 latency, request volume', async () => {
    await seed(minutes(-30), [...Array.from({ length: 15 }, (_, i) => ({ latency: i + 1 })), ...Array.from({ length: 5 }, () => ({ status: 500, latency: 100 }))]);
    await seed(minutes(-120), [{ status: 500 }, { status: 500 }]); // outside the hour
    await seed(minutes(1), [{ status: 500 }]); // after now
    const latencies = [...Array.from({ length: 15 }, (_, i) => i + 1), 100, 100, 100, 100, 100].sort((a, b) => a - b);
    const pct = (q: number) => {
      const pos = (latencies.length - 1) * q;
      return latencies[Math.floor(pos)] + (latencies[Math.ceil(pos)] - latencies[Math.floor(pos)]) * (pos - Math.floor(pos));
    };
    expect(await measure(await rule({ metric: 'error_rate', minSamples: 20 }), T0)).toMatchObject({ value: 0.25, samples: 20, sufficient: true, estimated: false });
    expect(await measure(await rule({ metric: 'error_rate', minSamples: 21 }), T0)).toMatchObject({ value: 0.25, sufficient: false });
    expect((await measure(await rule({ metric: 'latency_p95' }), T0)).value).toBeCloseTo(pct(0.95), 6);
    expect((await measure(await rule({ metric: 'latency_p99' }), T0)).value).toBeCloseTo(pct(0.99), 6);
    expect(await measure(await rule({ metric: 'request_volume', windowMinutes: 10 }), T0)).toMatchObject({ value: 0, sufficient: true });
    expect(await measure(await rule({ metric: 'request_volume' }), T0)).toMatchObject({ value: 20 });
    await stack.ds.query(`DELETE FROM alert_rules WHERE project_id = $1`, [seededProject]);
  });

  it('job_failures counts the project failed jobs of the window; model_staleness is days since training', async () => {
    await stack.ds.query(
      `INSERT INTO jobs (id, project_id, kind, status, workflow_id, task_queue, finished_at) VALUES (gen_random_uuid(), $1, 'drift_compute', 'failed', $2, 'q', $3), (gen_random_uuid(), $1, 'drift_compute', 'failed', $4, 'q', $5)`,
      [seededProject, `wf-${randomUUID()}`, minutes(-5), `wf-${randomUUID()}`, minutes(-300)],
    );
    const jobs = await measureRule(deps, await rule({ metric: 'job_failures' }), [deployment], T0);
    expect(jobs).toEqual([{ deploymentId: null, value: 1, samples: 1, estimated: false, sufficient: true, labels: {} }]);
    const stale = await measure(await rule({ metric: 'model_staleness' }), T0);
    expect(stale.value as number).toBeGreaterThan(365 * 4);
    expect(stale.labels).toEqual({});
    await stack.ds.query(`DELETE FROM alert_rules WHERE project_id = $1`, [seededProject]);
  });

  it('accuracy_degradation on labels, and estimated from probabilities (CBPE) where too few arrived', async () => {
    const rows = syntheticRows(60, 3).map(({ y: _y, ...x }) => x);
    const at = minutes(-10);
    for (let i = 0; i < 3; i++) await seed(at, [{ requestId: `acc-${i}`, prediction: Array(20).fill('pos'), inputs: rows.slice(i * 20, i * 20 + 20) }]);
    await stack.ds.query(`INSERT INTO inference_feedback (deployment_id, request_id, project_id, actual) VALUES ($1, 'acc-0', $2, $3), ($1, 'acc-1', $2, $4)`, [
      deployment.id,
      seededProject,
      JSON.stringify(Array(20).fill('pos')),
      JSON.stringify([...Array(10).fill('pos'), ...Array(10).fill('neg')]),
    ]);
    const [model]: { metrics: { accuracy: number } }[] = await stack.ds.query(`SELECT metrics FROM models WHERE id = $1`, [glm]);
    const measured = await measure(await rule({ metric: 'accuracy_degradation', minSamples: 40 }), T0);
    expect(measured).toMatchObject({ samples: 40, estimated: false, sufficient: true });
    expect(measured.value).toBeCloseTo(model.metrics.accuracy - 30 / 40, 9);
    const estimated = await measure(await rule({ metric: 'accuracy_degradation', minSamples: 41 }), T0);
    expect(estimated).toMatchObject({ samples: 60, estimated: true, sufficient: true });
    // Validation accuracy less the mean probability of each row's predicted class.
    expect(estimated.value as number).toBeGreaterThan(model.metrics.accuracy - 1);
    expect(estimated.value as number).toBeLessThan(model.metrics.accuracy);
    const anomaly = await measure(await rule({ metric: 'prediction_anomaly' }), T0);
    // Every prediction `pos`, against a validation mix of both classes: a large shift.
    expect(anomaly).toMatchObject({ samples: 60, sufficient: true });
    expect(anomaly.value as number).toBeGreaterThan(0.25);
    await stack.ds.query(`DELETE FROM alert_rules WHERE project_id = $1`, [seededProject]);
    await stack.ds.query(`DELETE FROM inference_logs WHERE deployment_id = $1`, [deployment.id]);
  });

  it('the state machine: fires once, cooldown on a flap, escalates, silenced changes notify nobody, auto-resolves', async () => {
    const [channel]: { id: string }[] = await stack.ds.query(
      `INSERT INTO alert_channels (project_id, name, type, config, secret) VALUES ($1, 'hook', 'webhook', $2, 'a-secret-of-enough-length') RETURNING id`,
      [seededProject, JSON.stringify({ url: receiverUrl })],
    );
    const r = await rule({
      metric: 'error_rate',
      threshold: 0.5,
      windowMinutes: 5,
      minSamples: 4,
      channelIds: [channel.id],
      cooldownMinutes: 30,
      escalationMinutes: 10,
      escalationSeverity: 'critical',
      labels: { team: 'ml' },
    });
    const errors = (at: Date) => seed(at, [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }]);
    const fine = (at: Date) =>
      seed(
        at,
        Array.from({ length: 8 }, () => ({})),
      );
    const alertNow = async () => (await stack.ds.query(`SELECT * FROM alerts WHERE rule_id = $1`, [r.id]))[0];
    const events = async () => ((await stack.ds.query(`SELECT event FROM alert_events WHERE rule_id = $1 ORDER BY id`, [r.id])) as { event: string }[]).map((e) => e.event);

    expect((await evaluateProject(deps, seededProject, T0)).notificationIds).toEqual([]); // no data: nothing
    await errors(minutes(1));
    const fired = await evaluateProject(deps, seededProject, minutes(2));
    expect(fired.notificationIds).toHaveLength(1);
    expect(await alertNow()).toMatchObject({ state: 'firing', severity: 'warning', samples: 4, notification_count: 0 });
    expect((await evaluateProject(deps, seededProject, minutes(3))).notificationIds).toEqual([]); // still firing: no repeat
    const [owed] = await stack.ds.query(`SELECT payload FROM alert_notifications WHERE id = $1`, [fired.notificationIds[0]]);
    expect(owed.payload).toMatchObject({ reason: 'firing', rule: { id: r.id }, alert: { state: 'firing', labels: { team: 'ml' } }, url: expect.stringContaining('http://app.test/') });

    // Escalation after ten minutes of firing (the errors keep coming).
    await errors(minutes(11));
    const escalated = await evaluateProject(deps, seededProject, minutes(12));
    expect(escalated.notificationIds).toHaveLength(1);
    expect(await alertNow()).toMatchObject({ state: 'firing', severity: 'critical' });
    expect((await evaluateProject(deps, seededProject, minutes(13))).notificationIds).toEqual([]); // escalates once

    // Clears: resolved, and the resolution told to those told of the firing.
    await fine(minutes(14));
    const cleared = await evaluateProject(deps, seededProject, minutes(18));
    expect(cleared.notificationIds).toHaveLength(1);
    expect(await alertNow()).toMatchObject({ state: 'resolved', resolved_by: null });

    // Fires again within the cooldown after a delivered notification: a new turn, nobody told again.
    await stack.ds.query(`UPDATE alerts SET last_notified_at = $2 WHERE rule_id = $1`, [r.id, minutes(18)]);
    await errors(minutes(19));
    expect((await evaluateProject(deps, seededProject, minutes(20))).notificationIds).toEqual([]);
    expect(await alertNow()).toMatchObject({ state: 'firing', severity: 'warning', escalated_at: null });
    // ... and its resolution, since nobody heard of that turn, tells nobody either.
    await fine(minutes(22));
    expect((await evaluateProject(deps, seededProject, minutes(26))).notificationIds).toEqual([]);

    // A silence: the next turn fires (past the cooldown) but notifies nobody, and the history says so.
    await stack.ds.query(`INSERT INTO alert_suppressions (project_id, matchers, starts_at) VALUES ($1, $2, $3)`, [seededProject, JSON.stringify({ rule_id: r.id }), minutes(0)]);
    await errors(minutes(60));
    expect((await evaluateProject(deps, seededProject, minutes(61))).notificationIds).toEqual([]);
    expect(await alertNow()).toMatchObject({ state: 'firing', silenced: true });

    expect(await events()).toEqual(['fired', 'escalated', 'auto_resolved', 'refired', 'auto_resolved', 'refired', 'silenced']);
    const [r1]: { last_evaluated_at: Date }[] = await stack.ds.query(`SELECT last_evaluated_at FROM alert_rules WHERE id = $1`, [r.id]);
    expect(new Date(r1.last_evaluated_at)).toEqual(minutes(61));
  });

  it('two evaluations at once notify once (the alert row is locked)', async () => {
    await stack.ds.query(`DELETE FROM alert_rules WHERE project_id = $1`, [seededProject]);
    await stack.ds.query(`DELETE FROM alert_suppressions WHERE project_id = $1`, [seededProject]);
    const [channel]: { id: string }[] = await stack.ds.query(`SELECT id FROM alert_channels WHERE project_id = $1`, [seededProject]);
    await rule({ metric: 'request_volume', threshold: 0, windowMinutes: 5, channelIds: [channel.id] });
    await seed(minutes(99), [{}]);
    const both = await Promise.all([evaluateProject(deps, seededProject, minutes(100)), evaluateProject(deps, seededProject, minutes(100))]);
    expect(both.flatMap((b) => b.notificationIds)).toHaveLength(1);
  });
});

describe('the schedules follow the rules', () => {
  it('the reconciler recreates a schedule Temporal lost and removes the one of a project whose rules are gone', async () => {
    const temporal = new TemporalGateway(stack.info.temporalAddress, stack.config.temporal.namespace);
    const deps = { ds: stack.ds, temporal, config: stack.config };
    const client = await temporal.get();
    const exists = (project: string) =>
      client.schedule
        .getHandle(alertScheduleId(stack.config, project))
        .describe()
        .then(
          () => true,
          () => false,
        );
    const watched = await createProject(owner.client, 'Reconciled');
    const rule = await owner.client.post(`${M}/projects/${watched}/alert-rules`, { name: 'jobs', metric: 'job_failures', operator: 'gt', threshold: 0 });
    expect(rule.status).toBe(201);
    expect(await exists(watched)).toBe(true);
    // Temporal loses it (a dev server restarted without its state): the reconciler makes it again.
    await client.schedule.getHandle(alertScheduleId(stack.config, watched)).delete();
    expect(await exists(watched)).toBe(false);
    await eventually(async () => (await reconcileAlertSchedules(deps)).created >= 1 || (await exists(watched)), 30_000, 500);
    expect(await exists(watched)).toBe(true);
    // The project goes with its rules (no rule service call): the reconciler removes its schedule.
    expect((await owner.client.del(`/api/projects/${watched}`)).status).toBeLessThan(300);
    expect(await exists(watched)).toBe(true);
    await eventually(
      async () => {
        await reconcileAlertSchedules(deps);
        return !(await exists(watched));
      },
      30_000,
      500,
    );
    await temporal.close();
  });
});

describe('a deployment drift schedule (drift_schedule): a Temporal Schedule that queues drift jobs', () => {
  it('is set, run, shown, refused when invalid, and removed with the schedule', async () => {
    const d = await owner.client.post(`${M}/projects/${projectId}/deployments`, { model_id: glm, name: 'scheduled drift', stage: 'staging', store_payload: true });
    expect(d.status).toBe(201);
    const path = `${M}/deployments/${d.body.id}/drift-schedule`;
    expect((await owner.client.get(path)).body).toEqual({ deployment_id: d.body.id, drift_schedule: null });
    for (const bad of [
      {},
      { interval_minutes: 0 },
      { interval_minutes: 10081 },
      { interval_minutes: 2 ** 31 },
      { interval_minutes: 1.5 },
      { interval_minutes: '5' },
      { interval_minutes: 5, extra: 1 },
    ]) {
      expect((await owner.client.put(path, bad)).status).toBe(422);
    }
    expect((await stranger.client.put(path, { interval_minutes: 5 })).status).toBe(404);
    expect((await stranger.client.get(path)).status).toBe(404);

    const set = await owner.client.put(path, { interval_minutes: 5 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ deployment_id: d.body.id, drift_schedule: { interval_minutes: 5 } });
    expect((await owner.client.get(`${M}/deployments/${d.body.id}`)).body.deployment.config.drift_schedule).toEqual({ interval_minutes: 5 });
    const temporal = new TemporalGateway(stack.info.temporalAddress, stack.config.temporal.namespace);
    const client = await temporal.get();
    const handle = client.schedule.getHandle(driftScheduleId(stack.config, d.body.id));
    const described = await handle.describe();
    expect(described.spec.intervals?.[0].every).toBe(5 * 60_000);

    // A run with nothing logged queues nothing; once predictions are logged with their inputs, a run queues a drift job
    // that completes. Triggered with ALLOW_ALL: the schedule's own policy (SKIP) may count the last run as running a while.
    const driftJobs = async () =>
      ((await owner.client.get(`/api/jobs?kind=drift_compute&limit=100`)).body.items as { id: string; entity_id: string; status: string }[]).filter((j) => j.entity_id === d.body.id);
    // A trigger only asks the schedule to start a run: the run is awaited, or it could read the predictions sent next.
    await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
    const firstRun = await eventually(async () => (await handle.describe()).info.recentActions[0]?.action.workflow, 30_000, 200);
    await client.workflow.getHandle(firstRun.workflowId, firstRun.firstExecutionRunId).result();
    await send(d.body.id, syntheticRows(60, 3, 0), 'scheduled');
    await eventually(async () => (await stack.ds.query(`SELECT 1 FROM inference_logs WHERE deployment_id = $1 AND inputs IS NOT NULL`, [d.body.id])).length > 0, 30_000, 200);
    expect(await driftJobs()).toEqual([]);
    await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
    const [{ id: jobId }] = await eventually(async () => ((await driftJobs()).length ? driftJobs() : undefined), 60_000, 500);
    let last = '';
    await eventually(async () => (last = (await owner.client.get(`/api/jobs/${jobId}`)).body.job.status) === 'succeeded', 120_000, 1000).catch((err: Error) => {
      throw new Error(`${err.message}: the scheduled drift job is ${last}`);
    });
    expect(await driftJobs()).toHaveLength(1);
    expect((await owner.client.get(`${M}/deployments/${d.body.id}/drift`)).status).toBe(200);

    const removed = await owner.client.del(path);
    expect(removed.body).toEqual({ deployment_id: d.body.id, drift_schedule: null });
    await expect(handle.describe()).rejects.toThrow();

    // Set again, then the deployment is archived: the reconciler removes its schedule.
    expect((await owner.client.put(path, { interval_minutes: 60 })).status).toBe(200);
    await handle.describe();
    expect((await owner.client.post(`${M}/deployments/${d.body.id}/deactivate`, { reason: 'done' })).status).toBe(200);
    await reconcileDriftSchedules({ ds: stack.ds, temporal, config: stack.config });
    await expect(handle.describe()).rejects.toThrow();
    await temporal.close();
  }, 300_000);
});
