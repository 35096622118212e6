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
});
