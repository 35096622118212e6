import { z } from 'zod';
import { ACCOUNT_EVENT_TYPES } from '../../entities';
import { dateTimestamp, isoTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/account.ts and the account routes (sessions, API keys, activity, plan), for the
 * OpenAPI document and through it the web UI's generated types. Objects stay open (`loose`).
 */

/** A login session; `current` marks the caller's own. */
export const authSessionSchema = z
  .object({
    id: z.string(),
    created_at: dateTimestamp,
    expires_at: dateTimestamp,
    last_seen_at: dateTimestamp.nullable(),
    user_agent: z.string().nullable(),
    ip: z.string().nullable(),
    remember: z.boolean(),
    current: z.boolean(),
  })
  .loose();

/** An API key without its secret. */
export const apiKeySchema = z.object({ id: z.string(), name: z.string(), prefix: z.string(), scopes: z.array(z.string()), last_used_at: dateTimestamp.nullable(), created_at: dateTimestamp }).loose();

/** A new key: `api_key`, the secret, is shown only here. */
export const createdApiKeySchema = z.object({ id: z.string(), key_id: z.string(), name: z.string(), prefix: z.string(), api_key: z.string(), scopes: z.array(z.string()) }).loose();

export const accountEventSchema = z
  .object({ id: z.string(), type: z.enum(ACCOUNT_EVENT_TYPES), created_at: isoTimestamp, ip: z.string().nullable(), user_agent: z.string().nullable(), details: jsonObject })
  .loose();

/** The quotas of the user's plan (services/plans.ts); null: no limit. */
export const quotas = z
  .object({
    max_models: z.number().int(),
    max_runtime_secs: z.number(),
    max_upload_bytes: z.number(),
    max_dataset_columns: z.number().int(),
    max_projects: z.number().int().nullable(),
    max_concurrent_jobs: z.number().int().nullable().meta({ description: 'Jobs queued or running at once; one more is refused (429)' }),
    max_open_jobs: z.number().int().nullable().meta({ description: 'The same as max_concurrent_jobs (its name before plans)' }),
    predictions_per_minute: z.number().int().nullable().meta({ description: 'Predict requests a minute over every deployment and model; one more is 429' }),
    max_open_jobs_per_project: z.number().int().nullable(),
    max_running_jobs: z.number().int().nullable(),
    max_storage_bytes: z.number().nullable(),
    max_storage_bytes_per_project: z.number().nullable(),
    max_synthgen_rows: z.number().int(),
  })
  .loose();

const usage = z
  .object({
    projects_owned: z.number().int(),
    projects_member: z.number().int(),
    datasets: z.number().int(),
    experiments: z.number().int(),
    models: z.number().int(),
    storage_bytes: z.number(),
    open_jobs: z.number().int(),
    predictions_this_minute: z.number().int(),
  })
  .loose();

export const planSchema = z
  .object({
    id: z.string().nullable().meta({ description: 'The plan row; null for the built-in self_hosted plan' }),
    name: z.string(),
    display_name: z.string(),
    source: z
      .enum(['user', 'team', 'default', 'built_in'])
      .meta({ description: "Where the plan came from: the user's own, their teams' (most generous per limit), the instance default, or the built-in plan" }),
    team_plans: z.array(z.string()).meta({ description: "With source team: the teams' plans whose most generous limits apply" }),
    quotas,
    usage,
  })
  .loose();

export const tenantInfoSchema = z
  .object({
    tenant: z.object({ user: z.object({ id: z.string(), email: z.string(), name: z.string() }).loose(), plan: z.object({ name: z.string(), display_name: z.string() }).loose() }).loose(),
    projects: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), created_at: isoTimestamp }).loose()),
    projects_total: z.number().int(),
    limits: z.object({ quotas, rate_limits: z.object({ window_secs: z.number() }).catchall(z.number()) }).loose(),
    usage,
  })
  .loose();
