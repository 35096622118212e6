/**
 * Retraining (issue 31, part T): policies that watch a registered model's champion (a cron schedule, drift of its
 * production deployment, a new version of its dataset, an accuracy_degradation alert), the `retraining_run` jobs they
 * start (activities/retraining-run/: a holdout split, an experiment, both models scored on the holdout, the
 * challenger registered), and what happens to a challenger that passed its gate (services/retraining/outcomes.ts).
 */
import type { DataSource } from 'typeorm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import type { TemporalGateway } from '../../platform/temporal-client';
import type { Access } from '../access';
import type { DatasetVersions } from '../dataset-versions';
import type { JobService } from '../jobs';
import { RetrainingOutcomes } from './outcomes';
import { RetrainingPolicyService } from './policies';
import type { RetrainingRegistry, RetrainingRollouts } from './ports';
import { syncRetrainingSchedule } from './schedule';
import { RetrainingService } from './service';

export { RetrainingPolicyService, POLICY_NOT_FOUND, REGISTERED_MODEL_NOT_FOUND, type NewPolicy, type PolicyFields } from './policies';
export { RetrainingService, RETRAINING_JOB_NOT_FOUND, type RetrainingJobFilter } from './service';
export { RetrainingOutcomes } from './outcomes';
export { syncRetrainingSchedule, reconcileRetrainingSchedules, retrainingScheduleId } from './schedule';
export { effectiveState, effectiveReason } from './states';
export { championOf, championLineage, sliceOrigin, SLICE_SOURCE_KEY, type SliceOrigin } from './champion';
export type { RetrainingRegistry, RetrainingRollouts } from './ports';

/** What retraining is built from; the registry and rollouts come late (they are built beside it). */
export interface RetrainingDeps {
  ds: DataSource;
  access: Access;
  jobs: JobService;
  datasetVersions: DatasetVersions;
  temporal: TemporalGateway;
  config: Config;
  log: Logger;
}

/** The services retraining acts through, built beside it. */
export interface RetrainingPorts {
  registry: RetrainingRegistry;
  rollouts: RetrainingRollouts;
}

/**
 * Retraining's services for createServices: policies, runs and outcomes, with the new-dataset-version trigger listening
 * to every committed version. `ports` is called on first use, so the registry and rollouts may be built after this.
 */

export function createRetraining(deps: RetrainingDeps, ports: () => RetrainingPorts) {
  const { ds, access, jobs, log } = deps;
  const registry = lateBound<RetrainingRegistry>(() => ports().registry);
  const rollouts = lateBound<RetrainingRollouts>(() => ports().rollouts);
  const outcomes = new RetrainingOutcomes(ds, registry, rollouts, log);
  const retraining = new RetrainingService(ds, access, jobs, registry, outcomes, log);
  deps.datasetVersions.onCommitted(async (version) => {
    await retraining.afterDatasetVersion(version).catch((err: unknown) => log.warn({ err, versionId: version.id }, 'retraining triggers on a new dataset version failed'));
  });
  return {
    retrainingPolicies: new RetrainingPolicyService(ds, access, (policyId) => syncRetrainingSchedule({ ds, temporal: deps.temporal, config: deps.config }, policyId)),
    retraining,
    retrainingOutcomes: outcomes,
  };
}

/** An object whose methods call `target()`'s, found when first called. */
function lateBound<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const t = target() as Record<string | symbol, unknown>;
      const v = t[key];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}
