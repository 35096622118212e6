import { CONFIG_LIMITS } from '../engine/automl';
import type { Config } from '../platform/config';

/**
 * The limits a plan may set (the `limits` of a `plans` row). A key the plan leaves out takes the instance's configured
 * value (the built-in `self_hosted` plan); null means no limit, except for the keys of {@link ENGINE_CAPPED}, where
 * null means the engine's own cap.
 */
export const PLAN_LIMIT_KEYS = [
  /** Projects the user may own (creating one more: 409). */
  'max_projects',
  /** The cap on an experiment's `max_models`: base models; the stacked ensembles come on top (a larger request: 422). */
  'max_models',
  /** The cap on an experiment's `max_runtime_secs` (a larger request: 422). */
  'max_runtime_secs',
  /** Jobs the user may have queued or running at once; starting one more is refused (429 with Retry-After). */
  'max_concurrent_jobs',
  /** Jobs one project of the user's may have queued or running at once, whoever started them (429). */
  'max_open_jobs_per_project',
  /** The user's jobs that hold an ml-cpu slot at once; the rest wait queued without holding one. */
  'max_running_jobs',
  /** Bytes of one dataset upload (413 before the rest of the file is read). */
  'max_upload_bytes',
  /** Predictions requests the user may send a minute (429 naming the limit), beside the `predict` rate bucket. */
  'predictions_per_minute',
  /** Bytes the projects the user owns may hold (an upload or job past it: 403). */
  'max_storage_bytes',
  /** Bytes one project the user owns may hold (403). */
  'max_storage_bytes_per_project',
] as const;

export type PlanLimitKey = (typeof PLAN_LIMIT_KEYS)[number];

/** What a plan row stores: only the keys it sets. */
export type PlanLimits = Partial<Record<PlanLimitKey, number | null>>;

/** Keys the engine caps on its own: null (and any larger value) is the engine's cap. */
const ENGINE_CAPPED = { max_models: CONFIG_LIMITS.max_models_cap, max_runtime_secs: CONFIG_LIMITS.max_runtime_secs_max } as const;

/** Keys without which the service cannot work safely: a plan may set a number, never null (no limit). */
export const REQUIRED_NUMBER_KEYS: readonly PlanLimitKey[] = ['max_upload_bytes'];

/** A plan's limits, every key resolved: a number, or null for no limit. */
export type ResolvedLimits = { [K in PlanLimitKey]: K extends keyof typeof ENGINE_CAPPED | 'max_upload_bytes' ? number : number | null };

/** The built-in `self_hosted` plan's limits: the instance's configuration. */
export function configuredLimits(config: Config): ResolvedLimits {
  return {
    max_projects: config.quotas.maxProjectsPerUser,
    max_models: Math.min(ENGINE_CAPPED.max_models, config.quotas.maxModelsPerExperiment),
    max_runtime_secs: Math.min(ENGINE_CAPPED.max_runtime_secs, config.quotas.maxRuntimeSecsPerExperiment),
    max_concurrent_jobs: config.quotas.maxOpenJobsPerUser,
    max_open_jobs_per_project: config.quotas.maxOpenJobsPerProject,
    max_running_jobs: config.quotas.maxRunningJobsPerUser,
    max_upload_bytes: config.limits.maxDatasetUploadBytes,
    predictions_per_minute: null,
    max_storage_bytes: config.quotas.maxStorageBytesPerUser,
    max_storage_bytes_per_project: config.quotas.maxStorageBytesPerProject,
  };
}

/** A stored plan's limits over the configured ones: left out → configured, null → none (or the engine's cap). */
export function resolveLimits(stored: PlanLimits, configured: ResolvedLimits): ResolvedLimits {
  const out: Record<string, number | null> = { ...configured };
  for (const key of PLAN_LIMIT_KEYS) {
    if (!(key in stored)) continue;
    const v = stored[key];
    if (key in ENGINE_CAPPED) {
      const cap = ENGINE_CAPPED[key as keyof typeof ENGINE_CAPPED];
      out[key] = v === null || v === undefined ? cap : Math.min(cap, v);
    } else if (v === null && REQUIRED_NUMBER_KEYS.includes(key)) {
      out[key] = configured[key]; // never stored (the route refuses it); a hand-edited row falls back
    } else {
      out[key] = v ?? null;
    }
  }
  return out as ResolvedLimits;
}

/**
 * The most generous of several plans' limits, key by key: no limit (null) beats any number, else the larger number.
 * A user in two teams gets, for each limit, the better of the two, as a member of either could already use it.
 */
export function mostGenerous(all: ResolvedLimits[]): ResolvedLimits {
  const out: Record<string, number | null> = { ...all[0] };
  for (const limits of all.slice(1)) {
    for (const key of PLAN_LIMIT_KEYS) {
      const a = out[key];
      const b = limits[key];
      out[key] = a === null || b === null ? null : Math.max(a, b);
    }
  }
  return out as ResolvedLimits;
}
