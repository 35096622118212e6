import { GateResult, Model, OPEN_ROLLOUT_STATES, RolloutKind, RolloutState, RolloutStep } from '../../entities';
import type { ActivityDeps } from '../deps';
import { domainFailures } from '../failures';
import { createLogger } from '../../platform/logger';
import { evaluateGates } from './gates';
import { RegistryNotes } from './registry-notes';
import { RolloutSteps } from './steps';

/** What the workflow needs of its rollout, read once at its start. */
export interface RolloutPlan {
  kind: RolloutKind;
  /** The row is already final (a workflow started again for an ended rollout): nothing to do. */
  done: boolean;
  state: RolloutState;
  steps: RolloutStep[];
  stepIndex: number;
  gateIntervalSecs: number;
  onSuccess: 'promote' | 'hold';
  keepPreviousSecs: number;
  warmupRequests: number;
  durationSecs: number | null;
}

/** Who steered a move (a signal's user), for the rollback history; null: the rollout itself. */
interface Steered {
  by: string | null;
}

export interface RolloutActivities {
  rolloutPlan(rolloutId: string): Promise<RolloutPlan>;
  /** Creates the candidate's staging deployment once (canary: taking `trafficPercent`; others: none). */
  rolloutCreateCandidate(rolloutId: string, trafficPercent: number): Promise<string>;
  /** The candidate takes the step's share. */
  rolloutSetStep(rolloutId: string, stepIndex: number, trafficPercent: number): Promise<void>;
  /** The step's gates on the candidate's requests since `since` (ISO), written as `gates_last`. */
  rolloutEvaluateGates(rolloutId: string, stepIndex: number, since: string): Promise<GateResult[]>;
  /** Loads the candidate's model and scores `requests` example rows with it (blue-green). */
  rolloutWarmUp(rolloutId: string, requests: number): Promise<void>;
  /** Blue-green: the candidate becomes production, the stable archived (restorable until the window ends). */
  rolloutSwitch(rolloutId: string): Promise<void>;
  rolloutPromote(rolloutId: string, p: Steered & { reason: string }): Promise<RolloutState>;
  rolloutRollBack(rolloutId: string, p: Steered & { state: 'rolled_back' | 'aborted'; reason: string }): Promise<RolloutState>;
  rolloutComplete(rolloutId: string, p: Steered & { reason: string }): Promise<RolloutState>;
  rolloutFail(rolloutId: string, reason: string): Promise<RolloutState>;
  /** A state change of the workflow's own (pause, resume, hold), with its history entry. */
  rolloutRecord(rolloutId: string, p: Steered & { state: 'running' | 'paused'; event: string; detail: string }): Promise<void>;
}

/**
 * The rollout workflow's worker side (workflows/rollout.ts). A rollout is no job (it is its own resource, with its
 * own states), so this folder declares itself a non-job activity set, as alert evaluation does (activities/index.ts).
 */
export function createRolloutActivities({ services, dataSource, config }: ActivityDeps): RolloutActivities {
  const steps = new RolloutSteps(dataSource, services.deployments, new RegistryNotes(services.registry, createLogger(config.logLevel, 'rollouts')));
  const src = { ds: dataSource, serving: services.serving, datasetVersions: services.datasetVersions };
  return {
    rolloutPlan: (id) =>
      domainFailures(async () => {
        const r = await steps.row(id);
        const o = r.options;
        return {
          kind: r.kind,
          done: !OPEN_ROLLOUT_STATES.includes(r.state),
          state: r.state,
          steps: r.steps,
          stepIndex: r.stepIndex,
          gateIntervalSecs: o.gate_interval_secs ?? 60,
          onSuccess: o.on_success ?? 'promote',
          keepPreviousSecs: o.keep_previous_secs ?? 600,
          warmupRequests: o.warmup_requests ?? 1,
          durationSecs: o.duration_secs ?? null,
        };
      }),
    rolloutCreateCandidate: (id, trafficPercent) =>
      domainFailures(async () => {
        const r = await steps.row(id);
        return (await steps.createCandidate(id, trafficPercent, r.options.sample_percent)).id;
      }),
    rolloutSetStep: (id, stepIndex, trafficPercent) => domainFailures(() => steps.setStep(id, stepIndex, trafficPercent, null)),
    rolloutEvaluateGates: (id, stepIndex, since) =>
      domainFailures(async () => {
        const r = await steps.row(id);
        const candidate = await steps.candidate(r);
        const model = await dataSource.getRepository(Model).findOneByOrFail({ id: candidate.modelId });
        // Logs still buffered in this process would be missed (the API's are flushed every 200 ms).
        await services.inferenceLogs.flush();
        const results = await evaluateGates(src, candidate, model, r.steps[stepIndex]?.gates ?? [], new Date(since), new Date());
        await steps.record(id, { gatesLast: results });
        return results;
      }),
    rolloutWarmUp: (id, requests) =>
      domainFailures(async () => {
        const r = await steps.row(id);
        const candidate = await steps.candidate(r);
        const model = await dataSource.getRepository(Model).findOneByOrFail({ id: candidate.modelId });
        const example = await services.deployments.trainingExample(candidate, model);
        const rows = [example.row];
        for (let i = 0; i < Math.max(1, requests); i++) await services.serving.predict(model, rows);
        await steps.record(id, {}, { event: 'warmed_up', detail: `model loaded, ${Math.max(1, requests)} warm-up prediction(s)` });
      }),
    rolloutSwitch: (id) => domainFailures(() => steps.promote(id, 'traffic switched to the candidate', null, 'running')),
    rolloutPromote: (id, p) => domainFailures(() => steps.promote(id, p.reason, p.by, 'promoted').then(() => 'promoted' as const)),
    rolloutRollBack: (id, p) => domainFailures(() => steps.rollBack(id, p.state, p.reason, p.by).then(() => p.state)),
    rolloutComplete: (id, p) => domainFailures(() => steps.complete(id, p.reason, p.by).then(() => 'completed' as const)),
    rolloutFail: (id, reason) => domainFailures(() => steps.fail(id, reason).then(() => 'failed' as const)),
    rolloutRecord: (id, p) => domainFailures(() => steps.record(id, { state: p.state }, { event: p.event, detail: p.by ? `${p.detail} by user ${p.by}` : p.detail })),
  };
}

/** This folder's activities, as activities/index.ts registers every folder's. */
export const activities = createRolloutActivities;

/** No job kind's: a rollout is its own resource, driven by its own workflow (see activities/index.ts). */
export const scheduled = true;
