import type { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptors } from '@temporalio/worker';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createRegistry } from '../platform/metrics';

/** Activity durations (seconds): job-status writes take milliseconds, a model or an export up to hours. */
const DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
/** Waits for a worker (seconds): near zero while the fleet keeps up, the length of a model when it does not. */
const WAIT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

type Labels = 'activity_type' | 'task_queue';

/**
 * A worker process's Prometheus metrics (README "Metrics"), recorded by an activity interceptor, so every activity of
 * every queue is measured the same way and no activity knows about it. Labels are the activity type and the task
 * queue: both bounded by what the worker registers and polls.
 */
export class WorkerMetrics {
  readonly registry: Registry = createRegistry();
  private readonly duration: Histogram<Labels | 'outcome'>;
  private readonly scheduleToStart: Histogram<Labels>;
  private readonly retries: Counter<Labels>;
  private readonly running: Gauge<Labels>;

  constructor() {
    const registers = [this.registry];
    this.duration = new Histogram({
      name: 'mlsvc_activity_duration_seconds',
      help: 'Activity executions (one per attempt) from start to end, by activity type, task queue and outcome (completed, failed, canceled)',
      labelNames: ['activity_type', 'task_queue', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.scheduleToStart = new Histogram({
      name: 'mlsvc_activity_schedule_to_start_seconds',
      help: "Time an activity attempt waited on its task queue before this worker started it (Temporal's schedule-to-start)",
      labelNames: ['activity_type', 'task_queue'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.retries = new Counter({
      name: 'mlsvc_activity_retries_total',
      help: 'Activity attempts after the first (attempt > 1) started here, by activity type and task queue',
      labelNames: ['activity_type', 'task_queue'],
      registers,
    });
    this.running = new Gauge({
      name: 'mlsvc_activities_running',
      help: 'Activities executing in this process now, by activity type and task queue',
      labelNames: ['activity_type', 'task_queue'],
      registers,
    });
  }

  /** The interceptor factory for `WorkerOptions.interceptors.activity`. */
  readonly interceptor = (ctx: Context): ActivityInterceptors => ({
    inbound: {
      execute: async (input, next) => {
        const { info } = ctx;
        const labels = { activity_type: info.activityType, task_queue: info.taskQueue };
        const started = Date.now();
        this.scheduleToStart.observe(labels, Math.max(0, started - info.currentAttemptScheduledTimestampMs) / 1000);
        if (info.attempt > 1) this.retries.inc(labels);
        this.running.inc(labels);
        let outcome = 'completed';
        try {
          return await next(input);
        } catch (err) {
          outcome = err instanceof CancelledFailure || ctx.cancellationSignal.aborted ? 'canceled' : 'failed';
          throw err;
        } finally {
          this.running.dec(labels);
          this.duration.observe({ ...labels, outcome }, (Date.now() - started) / 1000);
        }
      },
    },
  });
}
