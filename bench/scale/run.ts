/**
 * AutoML on the fleet: one experiment's 20 models (titanic, no ensembles) trained by 1 and by 2 worker processes, each
 * pinned to one core with `taskset`, against the real stack the tests use (PostgreSQL, the Temporal dev server, the
 * API in this process). Reports the wall time of each run and, from the workflow history, Temporal's overhead per
 * model activity: schedule-to-start, start-to-close minus the engine's training time, and the gap between a model's
 * completion and the next model's scheduling (a workflow task round trip).
 *
 *   npm run build && node dist/bench/scale/run.js [models=20] [nfolds=5]
 *
 * Writes bench/results/scale.json. Never part of `npm test`.
 */
import { ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import globalSetup from '../../test/support/global-setup';
import globalTeardown from '../../test/support/global-teardown';
import { ApiClient, createProject, eventually, signUp } from '../../test/support/client';
import { datasetFile } from '../../test/support/datasets';
import { startStack, TestStack } from '../../test/support/stack';
import { TemporalGateway } from '../../platform/temporal-client';
import { writeResults } from '../support/serving';

const EventType = temporal.api.enums.v1.EventType;

interface Run {
  workers: number;
  parallelism: number;
  wall_s: number;
  models: number;
  /** Per trainModel activity (ms): medians and means over the run's models. */
  schedule_to_start_ms: Stats;
  start_to_close_ms: Stats;
  training_ms: Stats;
  /** start-to-close minus the engine's own training time (reading the cached data, ONNX export, SHAP summary, recording). */
  activity_overhead_ms: Stats;
  /** A model's completion to the next model's scheduling in the history (the workflow task that decides it). */
  completion_to_next_schedule_ms: Stats;
  /** Sum of training times over the wall time: how busy the workers' training slots were. */
  slot_utilization: number;
  loadavg_before: number[];
  loadavg_after: number[];
  /** Start-to-close of each model activity, in plan order (ms). */
  model_ms: number[];
}

interface Stats {
  median: number;
  mean: number;
  max: number;
}

function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { median: r(s.length ? s[Math.floor((s.length - 1) / 2)] : NaN), mean: r(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)), max: r(s.at(-1) ?? NaN) };
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/** A worker process (io and cpu families, one training slot) pinned to `core`. */
function startWorker(stack: TestStack, core: number): ChildProcess {
  const script = path.join(__dirname, '..', '..', 'workers', 'run-workers.js');
  return spawn('taskset', ['-c', String(core), process.execPath, script, 'io', 'cpu'], {
    env: { ...process.env, ...stack.workerEnv, TRAINING_SLOTS: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopWorker(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const gone = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  await gone;
}

async function run(workers: number, parallelism: number, modelCount: number, nfolds: number): Promise<Run> {
  const stack = await startStack({ workers: [], env: { RATE_LIMIT_TRAIN: '1000', TRAINING_PARALLELISM: String(parallelism) } });
  const procs = Array.from({ length: workers }, (_, i) => startWorker(stack, i % os.cpus().length));
  const gateway = new TemporalGateway(stack.info.temporalAddress, 'default');
  try {
    const client = await gateway.get();
    // Every worker polls the training queue before the clock starts.
    await eventually(
      async () => {
        const d = await client.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name: stack.config.training.taskQueue },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
        });
        return (d.pollers?.length ?? 0) >= workers;
      },
      120_000,
      250,
    );
    const { client: api } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(api, 'scale');
    const up = await api.upload('/api/datasets/upload', { project_id: projectId, name: 'titanic' }, datasetFile('titanic.csv'));
    const loadavgBefore = os.loadavg();
    const t0 = Date.now();
    const exp = await api.post('/api/experiments', {
      project_id: projectId,
      dataset_version_id: up.body.dataset_version_id,
      name: `scale ${workers}w`,
      target_column: 'survived',
      problem_type: 'classification',
      config: { max_models: modelCount, nfolds, seed: 7, max_runtime_secs: 3600, exclude_algos: ['StackedEnsemble'] },
    });
    if (exp.status !== 201) throw new Error(`experiment: ${exp.status} ${JSON.stringify(exp.body)}`);
    const done = await waitDone(api, exp.body.id as string);
    const wall = (Date.now() - t0) / 1000;
    if (done !== 'succeeded') throw new Error(`experiment ended ${done}`);

    const history = await client.workflow.getHandle(`job-${exp.body.job_id}`).fetchHistory();
    const trainingMs = new Map<string, number>(
      ((await stack.ds.query('SELECT name, training_time_ms FROM models WHERE experiment_id = $1', [exp.body.id])) as { name: string; training_time_ms: number }[]).map((r) => [
        r.name,
        r.training_time_ms,
      ]),
    );
    const scheduled = new Map<string, { at: number; name: string }>();
    const started = new Map<string, number>();
    const s2s: number[] = [];
    const s2c: number[] = [];
    const train: number[] = [];
    const overhead: number[] = [];
    const gaps: number[] = [];
    const completions: number[] = [];
    const schedules: number[] = [];
    const byOrder: { order: number; ms: number }[] = [];
    for (const e of history.events ?? []) {
      const at = ms(e.eventTime);
      const id = String(e.eventId);
      if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED && e.activityTaskScheduledEventAttributes?.activityType?.name === 'trainModel') {
        const payload = e.activityTaskScheduledEventAttributes.input?.payloads?.[0]?.data;
        const input = payload ? (JSON.parse(Buffer.from(payload).toString('utf8')) as { spec: { name: string } }) : undefined;
        scheduled.set(id, { at, name: input?.spec.name ?? '?' });
        schedules.push(at);
      } else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
        const sid = String(e.activityTaskStartedEventAttributes?.scheduledEventId);
        // With Temporal's eager recording the started event is written at completion; its time is still the start.
        if (scheduled.has(sid)) started.set(sid, at);
      } else if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) {
        const sid = String(e.activityTaskCompletedEventAttributes?.scheduledEventId);
        const s = scheduled.get(sid);
        const st = started.get(sid);
        if (!s || st === undefined) continue;
        s2s.push(st - s.at);
        s2c.push(at - st);
        byOrder.push({ order: Number(sid), ms: at - st });
        const t = trainingMs.get(s.name);
        if (t !== undefined) {
          train.push(t);
          overhead.push(at - st - t);
        }
        completions.push(at);
      }
    }
    for (const c of completions) {
      const next = schedules.find((s) => s >= c);
      if (next !== undefined) gaps.push(next - c);
    }
    const result: Run = {
      workers,
      parallelism,
      wall_s: Math.round(wall * 10) / 10,
      models: trainingMs.size,
      schedule_to_start_ms: stats(s2s),
      start_to_close_ms: stats(s2c),
      training_ms: stats(train),
      activity_overhead_ms: stats(overhead),
      completion_to_next_schedule_ms: stats(gaps),
      slot_utilization: Math.round((train.reduce((a, b) => a + b, 0) / 1000 / wall / workers) * 100) / 100,
      loadavg_before: loadavgBefore.map((x) => Math.round(x * 100) / 100),
      loadavg_after: os.loadavg().map((x) => Math.round(x * 100) / 100),
      model_ms: byOrder.sort((a, b) => a.order - b.order).map((m) => Math.round(m.ms)),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await Promise.all(procs.map(stopWorker));
    await gateway.close();
    await stack.stop();
  }
}

/**
 * The wall time `k` one-slot workers would take for the same models, on paper: the 1-worker run's model durations
 * started in plan order on the first free worker (what the workflow does), each paying the measured dispatch cost
 * (schedule-to-start plus the workflow task that schedules it), plus the part of the run that is not model training
 * (preparing the data, choosing the leader), which does not shrink with workers.
 */
function simulate(one: Run, k: number): number {
  const dispatch = one.schedule_to_start_ms.median + one.completion_to_next_schedule_ms.median;
  const serial = one.model_ms.reduce((a, b) => a + b + dispatch, 0);
  const fixed = one.wall_s * 1000 - serial;
  const free = new Array<number>(k).fill(0);
  for (const d of one.model_ms) {
    const i = free.indexOf(Math.min(...free));
    free[i] += dispatch + d;
  }
  return Math.round((fixed + Math.max(...free)) / 100) / 10;
}

async function waitDone(api: ApiClient, id: string): Promise<string> {
  return eventually(
    async () => {
      const s = (await api.get(`/api/experiments/${id}/status`)).body as { status: string };
      return ['succeeded', 'failed', 'canceled'].includes(s.status) ? s.status : undefined;
    },
    3_600_000,
    250,
  );
}

async function main(): Promise<void> {
  const modelCount = Number(process.argv[2] ?? 20);
  const nfolds = Number(process.argv[3] ?? 5);
  await globalSetup();
  try {
    const runs: Run[] = [];
    runs.push(await run(1, 1, modelCount, nfolds));
    runs.push(await run(2, 2, modelCount, nfolds));
    const [one, two] = runs;
    const speedup = Math.round((one.wall_s / two.wall_s) * 100) / 100;
    console.log(`1 worker: ${one.wall_s}s, 2 workers: ${two.wall_s}s, speedup ${speedup}x`);
    const simulated = Object.fromEntries([1, 2, 4, 8].map((k) => [k, simulate(one, k)]));
    console.log(`on paper, from the 1-worker run's model times: ${JSON.stringify(simulated)} (seconds by workers)`);
    writeResults('scale', { cores: os.cpus().length, models: modelCount, nfolds, runs, speedup, simulated_wall_s: simulated });
  } finally {
    await globalTeardown();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
