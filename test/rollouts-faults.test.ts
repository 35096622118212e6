import type { ChildProcess } from 'node:child_process';
import { createProject, eventually, signUp } from './support/client';
import { killHard } from './support/killable';
import { spawnWorkerProcess, startStack, TestStack } from './support/stack';
import { trainQuickModels } from './support/trained-models';

/**
 * The worker that drives a canary rollout killed (SIGKILL, as a crash or the OOM killer does) in the middle of its
 * first step, and started again: the rollout resumes at the step it was in (its timer kept by Temporal), goes on to the
 * next and promotes, with every move made once: one candidate, one traffic change, one promotion in the rollback
 * history.
 */
let stack: TestStack;
let worker: ChildProcess | undefined;
const M = '/api/mlops';

beforeAll(async () => {
  // Training in the test process (cpu); the rollout workflow and its activities (io) in a worker process the test kills.
  stack = await startStack({ workers: ['cpu'] });
  worker = spawnWorkerProcess(stack, ['io']);
}, 120_000);

afterAll(async () => {
  if (worker) await killHard(worker);
  await stack?.stop();
});

describe('a rollout survives a killed worker', () => {
  it('resumes at its step after a SIGKILL and completes', async () => {
    const { client } = await signUp(stack.baseUrl, stack.mail);
    const projectId = await createProject(client, 'Crash-tested rollouts');
    const { models } = await trainQuickModels(client, projectId, ['GLM', 'GBM']);
    const prod = await client.post(`${M}/projects/${projectId}/deployments`, { model_id: models.GLM, name: 'prod', stage: 'production' });
    expect(prod.status).toBe(201);
    const stable = prod.body.id as string;

    const gates = [{ metric: 'error_rate', op: 'lt', threshold: 0.5, min_samples: 1 }];
    const started = await client.post(`${M}/deployments/${stable}/canary`, {
      model_id: models.GBM,
      steps: [
        { traffic_percent: 20, pause_secs: 15, gates },
        { traffic_percent: 60, pause_secs: 5, gates },
      ],
      gate_interval_secs: 5,
    });
    expect(started.status).toBe(201);
    const id = started.body.id as string;
    const get = async () => (await client.get(`${M}/strategies/${id}`)).body;

    // In step 1: the worker dies with the step's timer pending.
    const inStep = await eventually(async () => {
      const r = await get();
      return r.history.some((h: { event: string }) => h.event === 'step_1') ? r : undefined;
    }, 60_000);
    expect(inStep).toMatchObject({ step_index: 0, current_traffic_percent: 20 });
    await killHard(worker!);
    // Dead for a while: the row still says step 1, running (nobody can answer the live query).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await get()).toMatchObject({ state: 'running', step_index: 0 });
    worker = spawnWorkerProcess(stack, ['io']);

    const done = await eventually(
      async () => {
        const r = await get();
        return ['promoted', 'rolled_back', 'failed', 'aborted'].includes(r.state) ? r : undefined;
      },
      120_000,
      500,
    );
    expect(done.state).toBe('promoted');
    expect(done.step_index).toBe(1);
    const events = (done.history as { event: string }[]).map((h) => h.event);
    expect(events.filter((e) => e === 'candidate_created')).toHaveLength(1);
    expect(events.filter((e) => e === 'step_1')).toHaveLength(1);
    expect(events.filter((e) => e === 'step_2')).toHaveLength(1);
    expect(events.at(-1)).toBe('promoted');

    // One candidate deployment, moved once per step: created at 20%, 20% → 60%, then production; the stable archived.
    const [{ n }]: { n: number }[] = await stack.ds.query(`SELECT count(*)::int AS n FROM deployments WHERE config->'rollout'->>'rollout_id' = $1`, [id]);
    expect(n).toBe(1);
    const moves = (await client.get(`${M}/deployments/${done.candidate_deployment_id}/rollback-history`)).body.items.reverse();
    expect(moves.map((m: { from_stage: string | null; to_stage: string }) => [m.from_stage, m.to_stage])).toEqual([
      [null, 'staging'],
      ['staging', 'staging'],
      ['staging', 'production'],
    ]);
    expect((await client.get(`${M}/deployments/${stable}`)).body.deployment).toMatchObject({ stage: 'archived' });
  });
});
