import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import type { AlertsEvaluateActivities, DeliveryOutcome } from '../../activities/alerts-evaluate';
import { type alertDeliveryWorkflow, type alertsEvaluateWorkflow, deliveryWorkflowId, STALE_NOTIFICATION_MS } from '../../workflows/alerts-evaluate';
import { createWorker, maybeRecordHistory, recording, replaySavedHistories, startTimeSkipping, waitFor } from './support/time-skipping';

/**
 * The alert evaluation cycle with mocked activities: the evaluation, the pickup of notifications a crashed cycle left
 * pending, and each notification's delivery (a workflow of its own, left running when the cycle ends) with its retries,
 * backoff and giving up. The evaluation itself is tested against the database (test/alerts-evaluate.test.ts).
 */

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundle;

beforeAll(async () => {
  ({ env, bundle } = await startTimeSkipping());
});

afterAll(async () => {
  await env?.teardown();
});

function mocks(overrides: Partial<AlertsEvaluateActivities> = {}): AlertsEvaluateActivities {
  return {
    async evaluateAlerts() {
      return { notificationIds: [], rules: 1 };
    },
    async pendingNotifications() {
      return [];
    },
    async deliverNotification() {
      return { status: 'delivered' };
    },
    async abandonNotification() {},
    ...overrides,
  };
}

/** Runs one cycle on a fresh io queue; `after` runs while the worker still serves the deliveries the cycle started. */
async function runCycle(activities: AlertsEvaluateActivities, after?: (cycle: Awaited<ReturnType<typeof start>>) => Promise<void>) {
  const taskQueue = `wf-test-${randomUUID()}-io`;
  const projectId = randomUUID();
  const worker = await createWorker(env, { taskQueue, activities, bundle });
  return worker.runUntil(async () => {
    const cycle = await start(taskQueue, projectId);
    const value = await cycle.result();
    await after?.(cycle);
    return { projectId, value };
  });
}

function start(taskQueue: string, projectId: string) {
  return env.client.workflow.start<typeof alertsEvaluateWorkflow>('alertsEvaluateWorkflow', {
    taskQueue,
    workflowId: `alerts-${projectId}-cycle-${randomUUID()}`,
    args: [{ projectId }],
    workflowExecutionTimeout: '1 hour',
  });
}

/** The outcome of a notification's delivery workflow (time skips while it retries). */
function delivered(id: string): Promise<DeliveryOutcome> {
  return env.client.workflow.getHandle<typeof alertDeliveryWorkflow>(deliveryWorkflowId(id)).result();
}

describe('alertsEvaluateWorkflow', () => {
  // First: after a test whose delivery retried and then succeeded, the Java test server stops skipping time for later
  // tests of the file (its eight backoffs, 10 minutes of workflow time, would then be waited in real time).
  it('gives a notification up once its retries are spent, with the last error', async () => {
    const rec = recording(
      mocks({
        async evaluateAlerts() {
          return { notificationIds: ['n-down'], rules: 1 };
        },
        async deliverNotification() {
          throw ApplicationFailure.retryable('connect ECONNREFUSED', 'DeliveryFailed');
        },
      }),
    );
    await runCycle(rec.activities, async () => {
      expect(await delivered('n-down')).toEqual({ status: 'failed' });
      await maybeRecordHistory(env.client.workflow.getHandle(deliveryWorkflowId('n-down')), 'alerts-evaluate-delivery-gave-up');
    });

    expect(rec.argsOf('deliverNotification')).toHaveLength(8);
    expect(rec.argsOf('abandonNotification')).toEqual([['n-down', 'connect ECONNREFUSED']]);
  });

  it('does not retry a notification whose channel is gone', async () => {
    const rec = recording(
      mocks({
        async evaluateAlerts() {
          return { notificationIds: ['n-gone'], rules: 1 };
        },
        async deliverNotification() {
          throw ApplicationFailure.nonRetryable('The channel was deleted', 'ChannelUnavailable');
        },
      }),
    );
    await runCycle(rec.activities, async () => {
      expect(await delivered('n-gone')).toEqual({ status: 'failed' });
    });

    expect(rec.argsOf('deliverNotification')).toHaveLength(1);
    expect(rec.argsOf('abandonNotification')).toEqual([['n-gone', 'The channel was deleted']]);
  });

  it('evaluates at the workflow time, then delivers what it owes and what a crashed cycle left pending, each once', async () => {
    const rec = recording(
      mocks({
        async evaluateAlerts() {
          return { notificationIds: ['n-1', 'n-2'], rules: 2 };
        },
        async pendingNotifications() {
          // n-2 is both owed now and (by a slow clock) pending: delivered once.
          return ['n-0', 'n-2'];
        },
      }),
    );
    const { projectId, value } = await runCycle(rec.activities, async (cycle) => {
      expect(await Promise.all(['n-0', 'n-1', 'n-2'].map(delivered))).toEqual([{ status: 'delivered' }, { status: 'delivered' }, { status: 'delivered' }]);
      await maybeRecordHistory(cycle, 'alerts-evaluate-delivered');
    });

    expect(value).toEqual({ rules: 2, notifications: 3 });
    const [[evaluatedProject, now]] = rec.argsOf('evaluateAlerts') as [string, string][];
    expect(evaluatedProject).toBe(projectId);
    const [[pendingProject, before]] = rec.argsOf('pendingNotifications') as [string, string][];
    expect(pendingProject).toBe(projectId);
    expect(new Date(now).getTime() - new Date(before).getTime()).toBe(STALE_NOTIFICATION_MS);
    expect(
      rec
        .argsOf('deliverNotification')
        .map((a) => a[0])
        .sort(),
    ).toEqual(['n-0', 'n-1', 'n-2']);
    expect(rec.argsOf('abandonNotification')).toEqual([]);
  });

  it('retries a failed delivery with backoff until the receiver takes it', async () => {
    let attempts = 0;
    const rec = recording(
      mocks({
        async evaluateAlerts() {
          return { notificationIds: ['n-retry'], rules: 1 };
        },
        async deliverNotification() {
          if (++attempts < 3) throw ApplicationFailure.retryable('HTTP 503', 'DeliveryFailed');
          return { status: 'delivered' };
        },
      }),
    );
    await runCycle(rec.activities, async () => {
      expect(await delivered('n-retry')).toEqual({ status: 'delivered' });
    });

    expect(attempts).toBe(3);
    expect(rec.argsOf('abandonNotification')).toEqual([]);
  });

  it('a notification still being delivered by an earlier cycle is not started twice', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let calls = 0;
    const id = `n-slow-${randomUUID()}`;
    const rec = recording(
      mocks({
        async evaluateAlerts() {
          return { notificationIds: calls === 0 ? [id] : [], rules: 1 };
        },
        async pendingNotifications() {
          return calls > 0 ? [id] : [];
        },
        async deliverNotification() {
          calls++;
          await held;
          return { status: 'delivered' };
        },
      }),
    );
    const taskQueue = `wf-test-${randomUUID()}-io`;
    const worker = await createWorker(env, { taskQueue, activities: rec.activities, bundle });
    await worker.runUntil(async () => {
      expect(await (await start(taskQueue, randomUUID())).result()).toEqual({ rules: 1, notifications: 1 });
      await waitFor(() => calls === 1, 'the first delivery to start');
      // The next cycle finds it pending (still in flight): the delivery already running is left alone.
      expect(await (await start(taskQueue, randomUUID())).result()).toEqual({ rules: 1, notifications: 1 });
      release();
      expect(await delivered(id)).toEqual({ status: 'delivered' });
    });
    expect(calls).toBe(1);
  });

  it('replays the saved histories with the current workflow code', async () => {
    expect(await replaySavedHistories(bundle, 'alerts-evaluate-')).toEqual(['alerts-evaluate-delivered.json', 'alerts-evaluate-delivery-gave-up.json']);
  });
});
