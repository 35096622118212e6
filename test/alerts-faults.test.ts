import type { ChildProcess } from 'node:child_process';
import { createProject, eventually, signUp } from './support/client';
import { startReceiver, type Receiver } from './support/http-receiver';
import { killHard } from './support/killable';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';

/**
 * The worker that runs alert evaluation and delivery killed (SIGKILL, as a crash or the OOM killer does) while a
 * webhook delivery waits on the receiver: Temporal retries the delivery on the next worker, the receiver sees the same
 * Idempotency-Key again (so it can tell the repeat from a new alert), and the alert counts one notification, no more
 * and none lost.
 */
let stack: TestStack;
let worker: ChildProcess | undefined;
const M = '/api/mlops';

/** The receiver holds its first request open until the worker that made it is dead; later ones get 200. */
let holdFirst: (() => void) | undefined;
let receiver: Receiver;
let receiverUrl = '';
/** What each request delivered: its idempotency key and event type. */
const deliveries = () => receiver.received.map((r) => ({ key: String(r.headers['idempotency-key']), type: (JSON.parse(r.raw) as { type: string }).type }));

beforeAll(async () => {
  receiver = await startReceiver((_r, res) => {
    if (receiver.received.length > 1) return void res.writeHead(200).end('ok');
    holdFirst = () => {
      holdFirst = undefined;
      // The worker that asked is gone: its connection may be closed already.
      if (!res.headersSent && !res.destroyed) res.writeHead(200).end('late');
    };
  });
  receiverUrl = `${receiver.url}/hook`;
  // The API in the test process; evaluation and delivery in a worker process of their own, which the test kills.
  stack = await startStack({ workers: [], env: { ALERT_EVAL_INTERVAL_SECS: '2' } });
  worker = spawnWorkerProcess(stack, ['io']);
}, 120_000);

afterAll(async () => {
  if (worker) await killHard(worker);
  holdFirst?.();
  await stack?.stop();
  await receiver?.close();
});

describe('alert delivery survives a killed worker', () => {
  it('delivers once more with the same idempotency key; the alert is notified once', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Crash-tested alerts');
    await stack.ds.query(`INSERT INTO jobs (id, project_id, kind, status, workflow_id, task_queue, finished_at) VALUES (gen_random_uuid(), $1, 'drift_compute', 'failed', 'wf-failed', 'q', now())`, [
      projectId,
    ]);
    const hook = await client.post(`${M}/projects/${projectId}/channels`, { name: 'receiver', type: 'webhook', config: { url: receiverUrl } });
    expect(hook.status).toBe(201);
    const rule = await client.post(`${M}/projects/${projectId}/alert-rules`, {
      name: 'Jobs failing',
      metric: 'job_failures',
      operator: 'gt',
      threshold: 0,
      window_minutes: 60,
      channel_ids: [hook.body.id],
    });
    expect(rule.status).toBe(201);

    // The first delivery reaches the receiver, which does not answer; the worker dies with the attempt open.
    await eventually(async () => receiver.received.length === 1, 60_000, 100);
    await killHard(worker!);
    holdFirst?.();
    worker = spawnWorkerProcess(stack, ['io']);

    // The retried attempt (after the attempt's timeout) carries the same key; the notification is delivered once.
    await eventually(
      async () => {
        const [n]: { status: string }[] = await stack.ds.query(`SELECT status FROM alert_notifications WHERE project_id = $1`, [projectId]);
        return n?.status === 'delivered';
      },
      120_000,
      500,
    );
    const firing = deliveries().filter((r) => r.type === 'alert.firing');
    expect(firing.length).toBeGreaterThanOrEqual(2);
    expect(new Set(firing.map((r) => r.key)).size).toBe(1);
    const alerts = (await client.get(`${M}/projects/${projectId}/alerts`)).body.items;
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ state: 'firing', notification_count: 1 });
    const history = (await client.get(`${M}/alerts/history?project_id=${projectId}`)).body.items.map((h: { event: string }) => h.event);
    expect(history.filter((e: string) => e === 'notified')).toHaveLength(1);
    expect(history.filter((e: string) => e === 'fired')).toHaveLength(1);
    // Later cycles keep evaluating on the new worker without a second notification.
    await new Promise((r) => setTimeout(r, 5000));
    expect(new Set(deliveries().map((r) => r.key)).size).toBe(1);
    expect((await client.get(`${M}/projects/${projectId}/alerts`)).body.items[0].notification_count).toBe(1);
  }, 300_000);

  it('cycles killed at random moments lose no alert and notify none twice', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Chaos-tested alerts');
    await stack.ds.query(`INSERT INTO jobs (id, project_id, kind, status, workflow_id, task_queue, finished_at) VALUES (gen_random_uuid(), $1, 'drift_compute', 'failed', 'wf-chaos', 'q', now())`, [
      projectId,
    ]);
    const hook = await client.post(`${M}/projects/${projectId}/channels`, { name: 'receiver', type: 'webhook', config: { url: receiverUrl } });
    expect(hook.status).toBe(201);
    // Enough rules that a cycle takes a while (one transaction each), so kills land inside evaluations too.
    const RULES = 150;
    await stack.ds.query(
      `INSERT INTO alert_rules (project_id, name, metric, operator, threshold, window_minutes, min_samples, severity, channel_ids, cooldown_minutes)
       SELECT $1, 'rule ' || g, 'job_failures', 'gt', 0, 60, 1, 'warning', ARRAY[$2::uuid], 60 FROM generate_series(2, $3) g`,
      [projectId, hook.body.id, RULES],
    );
    const ofProject = () => receiver.received.filter((r) => (JSON.parse(r.raw) as { data: { project: { id: string } } }).data.project.id === projectId);
    // The last rule through the API: its create starts the project's schedule.
    expect((await client.post(`${M}/projects/${projectId}/alert-rules`, { name: 'rule 1', metric: 'job_failures', operator: 'gt', threshold: 0, channel_ids: [hook.body.id] })).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      await eventually(async () => (await stack.ds.query(`SELECT 1 FROM alert_rules WHERE project_id = $1 AND last_evaluated_at IS NOT NULL LIMIT 1`, [projectId])).length > 0 || i > 0, 60_000, 50);
      await new Promise((r) => setTimeout(r, 200 + ((i * 397) % 900)));
      await killHard(worker!);
      worker = spawnWorkerProcess(stack, ['io']);
    }
    await eventually(
      async () => {
        const [n]: { delivered: number }[] = await stack.ds.query(`SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered FROM alert_notifications WHERE project_id = $1`, [projectId]);
        return n.delivered >= RULES;
      },
      240_000,
      1000,
    );
    const [counts]: { alerts: number; notifications: number; fired: number; notified: number; max_count: number }[] = await stack.ds.query(
      `SELECT (SELECT count(*)::int FROM alerts WHERE project_id = $1) AS alerts,
              (SELECT count(*)::int FROM alert_notifications WHERE project_id = $1) AS notifications,
              (SELECT count(*)::int FROM alert_events WHERE project_id = $1 AND event = 'fired') AS fired,
              (SELECT count(*)::int FROM alert_events WHERE project_id = $1 AND event = 'notified') AS notified,
              (SELECT max(notification_count)::int FROM alerts WHERE project_id = $1) AS max_count`,
      [projectId],
    );
    expect(counts).toEqual({ alerts: RULES, notifications: RULES, fired: RULES, notified: RULES, max_count: 1 });
    // Every notification reached the receiver under its own key; a repeat (an attempt cut by a kill) reuses its key.
    const keys = new Set(ofProject().map((r) => String(r.headers['idempotency-key'])));
    expect(keys.size).toBe(RULES);
  }, 600_000);
});
