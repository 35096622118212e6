import { ActivityFailure, ApplicationFailure, condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RolloutActivities, RolloutPlan } from '../activities/rollout';
import type { GateResult } from '../services/rollouts';
import { NON_RETRYABLE_ERROR_TYPES } from './job-input';
import { ROLLOUT_STATE_QUERY, type RolloutLiveState, type RolloutSignal, type RolloutWorkflowInput } from './rollout-input';

/** A user's command that ends the current wait: abort and rollback undo the rollout, promote finishes it now. */
type Command = { kind: Exclude<RolloutSignal, 'pause' | 'resume'>; by: string | null };

/** How a wait ended. */
type Held = { kind: 'elapsed' } | { kind: 'command'; command: Command } | { kind: 'gate_failed'; reason: string };

/**
 * One rollout (services/rollouts.ts), started as `rollout-<id>` on the io queue: a canary (the candidate takes each
 * step's share of the stable's traffic for the step's pause, its gates checked every gate interval on its own
 * requests of the step; a failing gate rolls back at once; all steps passed: promote, or hold for a promote), a
 * blue-green switch (candidate warmed, production switched, the previous kept restorable for keep_previous_secs) or
 * a shadow (the candidate answers mirrored requests for duration_secs, or until promoted or aborted).
 *
 * Durable: the steps are timers and activities of this history, so a worker killed mid-rollout resumes at the same
 * step on the next worker (the step's remaining pause included). Signals pause, resume, abort, promote and rollback
 * steer it; the query answers its live state. Every move of a deployment is made (and recorded in the deployment's
 * rollback history) by an activity.
 */
export async function rolloutWorkflow(input: RolloutWorkflowInput): Promise<{ state: string }> {
  const acts = proxyActivities<RolloutActivities>({
    startToCloseTimeout: '30s',
    retry: { maximumAttempts: 8, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
  });
  const id = input.rolloutId;
  const live: RolloutLiveState = { state: 'running', step_index: 0, current_traffic_percent: 0, gates_last: [] };
  let paused = false;
  let pausedBy: string | null = null;
  let command: Command | null = null;
  // Read through a function: the signal handlers set it while the workflow waits, which narrowing cannot see.
  const pending = (): Command | null => command;
  setHandler(defineQuery<RolloutLiveState>(ROLLOUT_STATE_QUERY), () => live);
  const by = (arg: unknown): string | null => (arg && typeof arg === 'object' && typeof (arg as { by?: unknown }).by === 'string' ? (arg as { by: string }).by : null);
  setHandler(defineSignal<[unknown?]>('pause'), (a) => {
    if (!command) [paused, pausedBy] = [true, by(a)];
  });
  setHandler(defineSignal<[unknown?]>('resume'), (a) => {
    [paused, pausedBy] = [false, by(a)];
  });
  for (const kind of ['abort', 'promote', 'rollback'] as const) {
    setHandler(defineSignal<[unknown?]>(kind), (a) => {
      command ??= { kind, by: by(a) };
    });
  }

  /**
   * Waits `ms` of unpaused time (a pause freezes the countdown, as Argo Rollouts holds a paused step), checking the
   * gates every `gateEveryMs` when given; ends early on a command or a failing gate.
   */
  async function hold(ms: number | null, gates?: { everyMs: number; evaluate: () => Promise<GateResult[]>; describe: (failed: GateResult) => string }): Promise<Held> {
    let remaining = ms;
    for (;;) {
      const c = pending();
      if (c) return { kind: 'command', command: c };
      if (paused) {
        live.state = 'paused';
        await acts.rolloutRecord(id, { state: 'paused', event: 'paused', detail: 'paused', by: pausedBy });
        await condition(() => !paused || pending() !== null);
        const during = pending();
        if (during) return { kind: 'command', command: during };
        live.state = 'running';
        await acts.rolloutRecord(id, { state: 'running', event: 'resumed', detail: 'resumed', by: pausedBy });
        continue;
      }
      if (remaining !== null && remaining <= 0) return { kind: 'elapsed' };
      const wait = gates ? Math.min(gates.everyMs, remaining ?? gates.everyMs) : remaining;
      const t0 = Date.now();
      const woken = wait === null ? await condition(() => paused || pending() !== null).then(() => true) : await condition(() => paused || pending() !== null, wait);
      if (remaining !== null) remaining -= Date.now() - t0;
      if (woken || !gates) continue;
      const results = await gates.evaluate();
      live.gates_last = results;
      const failed = results.find((g) => !g.passed);
      if (failed) return { kind: 'gate_failed', reason: gates.describe(failed) };
    }
  }

  /** Undoes the rollout for a command or a failed gate, ending it `aborted` or `rolled_back`. */
  async function undo(held: Exclude<Held, { kind: 'elapsed' }>): Promise<{ state: string }> {
    if (held.kind === 'gate_failed') return finish(await acts.rolloutRollBack(id, { state: 'rolled_back', reason: held.reason, by: null }));
    const c = held.command;
    if (c.kind === 'abort') return finish(await acts.rolloutRollBack(id, { state: 'aborted', reason: 'Aborted by a user', by: c.by }));
    return finish(await acts.rolloutRollBack(id, { state: 'rolled_back', reason: 'Rolled back by a user', by: c.by }));
  }

  function finish(state: RolloutLiveState['state']): { state: string } {
    live.state = state;
    return { state };
  }

  async function canary(plan: RolloutPlan): Promise<{ state: string }> {
    const everyMs = plan.gateIntervalSecs * 1000;
    await acts.rolloutCreateCandidate(id, plan.steps[0].traffic_percent);
    for (let i = plan.stepIndex; i < plan.steps.length; i++) {
      const step = plan.steps[i];
      // Workflow time: the same on a replay, so a resumed step keeps the start its gates read from.
      const startedAt = new Date().toISOString();
      await acts.rolloutSetStep(id, i, step.traffic_percent);
      [live.step_index, live.current_traffic_percent, live.gates_last] = [i, step.traffic_percent, []];
      const gates = step.gates.length
        ? {
            everyMs,
            evaluate: () => acts.rolloutEvaluateGates(id, i, startedAt),
            describe: (g: GateResult) => `Gate ${g.metric} ${g.op} ${g.threshold} failed at step ${i + 1} (${step.traffic_percent}%): observed ${g.observed} over ${g.samples} requests`,
          }
        : undefined;
      const held = await hold(step.pause_secs * 1000, gates);
      if (held.kind === 'command' && held.command.kind === 'promote') return finish(await acts.rolloutPromote(id, { reason: 'Promoted by a user before the last step', by: held.command.by }));
      if (held.kind !== 'elapsed') return undo(held);
    }
    if (plan.onSuccess === 'hold') {
      live.state = 'paused';
      await acts.rolloutRecord(id, { state: 'paused', event: 'held', detail: 'All steps passed; waiting for promote', by: null });
      await condition(() => pending() !== null);
      const c = pending() as Command;
      if (c.kind !== 'promote') return undo({ kind: 'command', command: c });
      return finish(await acts.rolloutPromote(id, { reason: 'Promoted by a user after all steps passed', by: c.by }));
    }
    return finish(await acts.rolloutPromote(id, { reason: `All ${plan.steps.length} steps passed their gates`, by: null }));
  }

  async function blueGreen(plan: RolloutPlan): Promise<{ state: string }> {
    await acts.rolloutCreateCandidate(id, 100);
    await acts.rolloutWarmUp(id, plan.warmupRequests);
    const early = pending();
    if (early) return undo({ kind: 'command', command: early });
    await acts.rolloutSwitch(id);
    live.current_traffic_percent = 100;
    const held = await hold(plan.keepPreviousSecs * 1000);
    if (held.kind === 'elapsed' || (held.kind === 'command' && held.command.kind === 'promote')) {
      return finish(
        await acts.rolloutComplete(id, {
          reason: held.kind === 'elapsed' ? `The previous deployment was kept ${plan.keepPreviousSecs} s` : 'Completed by a user',
          by: held.kind === 'command' ? held.command.by : null,
        }),
      );
    }
    return undo(held);
  }

  async function shadow(plan: RolloutPlan): Promise<{ state: string }> {
    await acts.rolloutCreateCandidate(id, 100);
    const held = await hold(plan.durationSecs === null ? null : plan.durationSecs * 1000);
    if (held.kind === 'elapsed') return finish(await acts.rolloutComplete(id, { reason: `Mirrored for ${plan.durationSecs} s`, by: null }));
    if (held.kind === 'command' && held.command.kind === 'promote') return finish(await acts.rolloutPromote(id, { reason: 'Shadow promoted by a user', by: held.command.by }));
    return undo(held);
  }

  const plan = await acts.rolloutPlan(id);
  if (plan.done) return { state: plan.state };
  try {
    if (plan.kind === 'canary') return await canary(plan);
    if (plan.kind === 'blue_green') return await blueGreen(plan);
    return await shadow(plan);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // A step that cannot be made (its retries spent, or a conflict such as another deployment made production
    // meanwhile): the candidate is taken out of serving where it still can be, and the rollout ends `failed`.
    const cause = err.cause instanceof ApplicationFailure ? err.cause.message : err.message;
    return finish(await acts.rolloutFail(id, cause || 'A rollout step failed'));
  }
}
