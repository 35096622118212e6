import { z } from 'zod';
import { CONFIG_LIMITS } from '../../engine/automl';
import { PLAN_LIMIT_KEYS, type PlanLimitKey } from '../../services/plan-limits';
import { nonBlank, uuidParam } from '../validation';

/** The request schemas of the admin plan routes (api/routes/admin-plans.ts). */

/** The largest integer JSON carries exactly (byte limits go past int4). */
const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/** Per key: the bounds of a number, whether null (no limit, or the engine's cap) is allowed, and what it limits. */
const LIMIT_RULES: Record<PlanLimitKey, { min: number; max: number; nullable: boolean; description: string }> = {
  max_projects: { min: 0, max: 2 ** 31 - 1, nullable: true, description: 'Projects the user may own; one more is 409. null: no limit' },
  max_models: {
    min: 1,
    max: CONFIG_LIMITS.max_models_cap,
    nullable: true,
    description: `The cap on an experiment's max_models: base models, the stacked ensembles (up to 2) come on top; a larger request is 422. null: the engine's cap (${CONFIG_LIMITS.max_models_cap})`,
  },
  max_runtime_secs: {
    min: 1,
    max: CONFIG_LIMITS.max_runtime_secs_max,
    nullable: true,
    description: "The cap on an experiment's max_runtime_secs; a larger request is 422. null: the engine's cap (7 days)",
  },
  max_concurrent_jobs: {
    min: 0,
    max: 2 ** 31 - 1,
    nullable: true,
    description: 'Jobs the user may have queued or running at once; one more is refused with 429 and Retry-After (not queued). null: no limit',
  },
  max_open_jobs_per_project: { min: 0, max: 2 ** 31 - 1, nullable: true, description: "Jobs one of the user's projects may have queued or running at once (429). null: no limit" },
  max_running_jobs: {
    min: 1,
    max: 2 ** 31 - 1,
    nullable: true,
    description: "The user's jobs that hold an ml-cpu slot at once (profiling, drift, privacy, synthgen); the rest wait queued without a slot. null: no limit",
  },
  max_upload_bytes: { min: 1, max: SAFE_MAX, nullable: false, description: 'Bytes of one dataset upload; a larger file is 413 before it is read' },
  predictions_per_minute: { min: 1, max: 2 ** 31 - 1, nullable: true, description: 'Predict requests a minute over every deployment and model; one more is 429 naming the limit. null: no limit' },
  max_storage_bytes: { min: 0, max: SAFE_MAX, nullable: true, description: 'Bytes the projects the user owns may hold; an upload or job past it is 403. null: no limit' },
  max_storage_bytes_per_project: { min: 0, max: SAFE_MAX, nullable: true, description: 'Bytes one project the user owns may hold (403). null: no limit' },
};

function limitSchema(key: PlanLimitKey) {
  const r = LIMIT_RULES[key];
  const n = z.number().int().min(r.min).max(r.max);
  return (r.nullable ? n.nullable() : n).optional().meta({ description: r.description });
}

/** A plan's limits: only the keys it sets; a key left out takes the instance's configured value. */
export const planLimitsBody = z
  .object(Object.fromEntries(PLAN_LIMIT_KEYS.map((k) => [k, limitSchema(k)])) as Record<PlanLimitKey, ReturnType<typeof limitSchema>>)
  .strict()
  .meta({ description: "The limits the plan sets; a key left out takes the instance's configured value (the built-in self_hosted plan)" });

/** A plan's name: the key settings' default_plan and billing name it by. */
const planName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'Plan name must be lower-case letters, digits, _ and -, starting with a letter or digit');

export const newPlanBody = z.object({ name: planName, display_name: nonBlank(200), limits: planLimitsBody.default({}) }).strict();

/** PUT replaces the display name and the limits; the name stays. */
export const updatePlanBody = z.object({ display_name: nonBlank(200), limits: planLimitsBody }).strict();

export const planParams = z.object({ id: uuidParam });
export const userPlanParams = z.object({ user_id: uuidParam });
export const teamPlanParams = z.object({ team_id: uuidParam });

/** The plan to give (null: none of their own). */
export const assignPlanBody = z.object({ plan_id: uuidParam.nullable() }).strict();
