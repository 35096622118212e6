import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, LogEntry, Runtime, Worker, WorkerOptions, WorkflowBundle } from '@temporalio/worker';
import { freePort, portOpen } from '../../../platform/temporal-dev';
import { ensureTemporalTestServer } from '../../../platform/temporal-test-server';
import type { JobWorkflowInput } from '../../../workflows/job-input';

/** The compiled workflow entry the service's workers load (tests run from dist/, beside it). */
export const WORKFLOWS_PATH = require.resolve(path.join(__dirname, '..', '..', '..', 'workflows', 'index'));

/** Saved histories stay in the source tree; this file runs from dist/test/workflows/support/. */
export const HISTORIES_DIR = path.join(__dirname, '..', '..', '..', '..', 'test', 'workflows', 'histories');

let runtimeInstalled = false;

/**
 * The SDK logs every worker start and every failed activity attempt (the tests fail activities on purpose), and the
 * native side warns that the test server lacks features we do not use; keep errors only, so a failing test's own
 * output is what a reader sees.
 */
function quietRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger('ERROR', (e: LogEntry) => console.error(`[${e.level}] ${e.message}`, e.meta ?? '')),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } },
  });
}

/**
 * A time-skipping test server (the Java one from Maven Central, see platform/temporal-test-server) and the workflow
 * bundle, once per test file: starting the server takes about a second, bundling a few, so workers share the bundle
 * instead of each bundling `workflowsPath` again.
 */
export async function startTimeSkipping(): Promise<{ env: TestWorkflowEnvironment; bundle: WorkflowBundle }> {
  quietRuntime();
  const launcher = ensureTemporalTestServer((m) => console.log(`[workflow tests] ${m}`));
  const [env, bundle] = await Promise.all([startTestServer(launcher), bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('ERROR') })]);
  return { env, bundle };
}

/** How long the server's JVM may take to listen: minutes on a machine busy with other work, about a second when idle. */
const SERVER_START_MS = 120_000;

/** The SDK's own create (TypeScript-private): an environment over a server that is already listening. */
type CreateEnvironment = (opts: { server: { type: 'existing' }; address: string; namespace: string; supportsTimeSkipping: boolean }) => Promise<TestWorkflowEnvironment>;

/**
 * The test server, started here rather than by the SDK: the SDK gives its JVM a fixed 5 s to listen, which a cold JVM
 * misses on a loaded machine (every test of the file then fails). This waits for the port as long as it takes, then
 * builds the same time-skipping environment over it; its teardown also ends the server process.
 */
async function startTestServer(launcher: string): Promise<TestWorkflowEnvironment> {
  const port = await freePort();
  const server = spawn(launcher, [String(port)], { stdio: 'ignore' });
  let exited: number | null = null;
  server.once('exit', (code) => (exited = code ?? -1));
  const deadline = Date.now() + SERVER_START_MS;
  while (!(await portOpen(port))) {
    if (exited !== null) throw new Error(`the time-skipping test server exited with code ${exited} before listening`);
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error(`the time-skipping test server did not listen within ${SERVER_START_MS / 1000}s`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const create = (TestWorkflowEnvironment as unknown as { create: CreateEnvironment }).create.bind(TestWorkflowEnvironment);
  const env = await create({ server: { type: 'existing' }, address: `127.0.0.1:${port}`, namespace: 'default', supportsTimeSkipping: true }).catch((err: unknown) => {
    server.kill('SIGKILL');
    throw err;
  });
  const teardown = env.teardown.bind(env);
  env.teardown = async () => {
    await stopLiveWorkers();
    await teardown();
    server.kill('SIGKILL');
  };
  return env;
}

/** Fresh task queues and ids per test (as sdk-typescript's own tests do), so no test sees another's tasks. */
export function jobInput(): JobWorkflowInput & { workflowId: string } {
  const base = `wf-test-${randomUUID()}`;
  const jobId = randomUUID();
  return {
    workflowId: `job-${jobId}`,
    jobId,
    projectId: randomUUID(),
    queues: { cpu: `${base}-cpu`, gpu: `${base}-gpu`, io: `${base}-io` },
  };
}

/** What the tests drive a worker with. */
export interface TestWorker {
  runUntil<R>(fn: Promise<R> | (() => Promise<R>)): Promise<R>;
}

/**
 * A worker on one queue of the test server; without `bundle` it runs activities only (like the gpu worker). A workflow
 * worker of a job queue comes with a worker on the matching io queue (`…-cpu` → `…-io`, see {@link jobInput}) over the
 * same activities, as the service's workers have: the job workflows write their status on io.
 */
export async function createWorker(
  env: TestWorkflowEnvironment,
  opts: { taskQueue: string; activities: object; bundle?: WorkflowBundle } & Pick<WorkerOptions, 'maxHeartbeatThrottleInterval' | 'interceptors'>,
): Promise<TestWorker> {
  const main = await oneWorker(env, opts);
  const ioQueue = opts.taskQueue.replace(/-(cpu|gpu)$/, '-io');
  if (!opts.bundle || ioQueue === opts.taskQueue) return main;
  const io = await oneWorker(env, { taskQueue: ioQueue, activities: opts.activities });
  return {
    runUntil: <R>(fn: Promise<R> | (() => Promise<R>)) => {
      const work = typeof fn === 'function' ? fn() : fn;
      return io.runUntil(main.runUntil(work));
    },
  };
}

/**
 * Workers of this file that may still run. A test that times out leaves its `runUntil` pending and so its workers
 * running: they would poll the stopped server for the rest of the Jest process, log an error a second and keep Jest
 * from exiting. The environment's teardown stops them first.
 */
const liveWorkers = new Set<Worker>();

async function stopLiveWorkers(): Promise<void> {
  const running = [...liveWorkers].filter((w) => w.getState() === 'RUNNING');
  for (const w of running) w.shutdown();
  const deadline = Date.now() + 15_000;
  while (running.some((w) => !['STOPPED', 'FAILED'].includes(w.getState())) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  liveWorkers.clear();
}

async function oneWorker(
  env: TestWorkflowEnvironment,
  opts: { taskQueue: string; activities: object; bundle?: WorkflowBundle } & Pick<WorkerOptions, 'maxHeartbeatThrottleInterval' | 'interceptors'>,
): Promise<Worker> {
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    activities: opts.activities,
    ...(opts.bundle ? { workflowBundle: opts.bundle } : {}),
    ...(opts.maxHeartbeatThrottleInterval ? { maxHeartbeatThrottleInterval: opts.maxHeartbeatThrottleInterval } : {}),
    ...(opts.interceptors ? { interceptors: opts.interceptors } : {}),
    // Workflows run in this thread's sandbox instead of a worker thread of their own: a worker starts in tens of ms
    // rather than half a second, and nothing here needs the deadlock detector this turns off.
    debugMode: true,
    shutdownGraceTime: '1s',
  });
  liveWorkers.add(worker);
  return worker;
}

export interface Call {
  name: string;
  args: unknown[];
}

/**
 * Wraps mock activities so each call is recorded, in order, as it starts. `T` is the activity interface the workflow
 * proxies, so a renamed or re-typed activity is a compile error in the test rather than a silent pass.
 */
export function recording<T extends object>(impl: T): { activities: T; calls: Call[]; argsOf(name: keyof T & string): unknown[][] } {
  const calls: Call[] = [];
  const activities = Object.fromEntries(
    Object.entries(impl).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        calls.push({ name, args });
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as T;
  return { activities, calls, argsOf: (name) => calls.filter((c) => c.name === name).map((c) => c.args) };
}

/**
 * A long activity's stand-in: `run` heartbeats `details` until the activity is canceled, as the real long activities
 * do (a cancel reaches an activity with a heartbeat's answer), and records that it started and that it saw the cancel.
 */
export class HeartbeatsUntilCanceled {
  started = false;
  sawCancel = false;

  constructor(private readonly details?: unknown) {}

  readonly run = async (): Promise<never> => {
    const ctx = Context.current();
    this.started = true;
    try {
      for (;;) {
        ctx.heartbeat(this.details);
        await ctx.sleep(50);
      }
    } catch (err) {
      this.sawCancel = err instanceof CancelledFailure;
      throw err;
    }
  };
}

/** Polls (real time) until `check` holds; the tests use it for things the server does, not for sleeping. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * With `RECORD_WORKFLOW_HISTORIES=1`, writes the run's history to `test/workflows/histories/<name>.json` for the
 * replay tests. Record again only on purpose: a history that no longer replays is what those tests exist to catch.
 */
export async function maybeRecordHistory(handle: WorkflowHandle, name: string): Promise<void> {
  if (process.env.RECORD_WORKFLOW_HISTORIES !== '1') return;
  fs.mkdirSync(HISTORIES_DIR, { recursive: true });
  fs.writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), `${JSON.stringify(JSON.parse(historyToJSON(await handle.fetchHistory())), null, 1)}\n`);
}

/** Replays every saved history whose name starts with `prefix` against the current workflow code. */
export async function replaySavedHistories(bundle: WorkflowBundle, prefix: string): Promise<string[]> {
  const files = fs.readdirSync(HISTORIES_DIR).filter((f) => f.startsWith(prefix) && f.endsWith('.json'));
  for (const file of files) {
    const history: unknown = JSON.parse(fs.readFileSync(path.join(HISTORIES_DIR, file), 'utf8'));
    await Worker.runReplayHistory({ workflowBundle: bundle, replayName: file }, history, `replay-${file}`);
  }
  return files;
}
