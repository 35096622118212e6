import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProject, eventually, signUp } from './support/client';
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

/** Requests the receiver got; the first one is held open until the worker that made it is dead. */
const received: { key: string; type: string }[] = [];
let holdFirst: (() => void) | undefined;
let receiver: http.Server;
let receiverUrl = '';

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string };
      received.push({ key: String(req.headers['idempotency-key']), type: body.type });
      if (received.length === 1)
        holdFirst = () => {
          holdFirst = undefined;
          // The worker that asked is gone: its connection may be closed already.
          if (!res.headersSent && !res.destroyed) res.writeHead(200).end('late');
        };
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The API in the test process; evaluation and delivery in a worker process of their own, which the test kills.
  stack = await startStack({ workers: [], env: { ALERT_EVAL_INTERVAL_SECS: '2' } });
  worker = spawnWorkerProcess(stack, ['io']);
}, 120_000);

afterAll(async () => {
  if (worker) await killHard(worker);
  holdFirst?.();
  await stack?.stop();
  await new Promise((r) => receiver?.close(r));
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
    await eventually(async () => received.length === 1, 60_000, 100);
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
    const firing = received.filter((r) => r.type === 'alert.firing');
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
    expect(new Set(received.map((r) => r.key)).size).toBe(1);
    expect((await client.get(`${M}/projects/${projectId}/alerts`)).body.items[0].notification_count).toBe(1);
  }, 300_000);
});
