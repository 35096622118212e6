import { z } from 'zod';
import { dateTimestamp as timestamp } from './common.schema';

/**
 * The JSON shapes of api/presenters/deployment.ts, for the OpenAPI document (and through it the web UI's generated
 * types, web/src/api-types.ts). Timestamps are ISO strings as JSON writes them. Objects stay open (`loose`): a
 * client must ignore fields it does not know, and the shapes grow.
 */

const id = z.string();

/** `config` as the spec shows it: name and traffic share, with the stored options beside them. */
const deploymentConfig = z
  .object({
    name: z.string(),
    traffic_percent: z.number().int(),
    store_payload: z.boolean().optional(),
    privacy_policy_id: z.string().nullable().optional(),
    privacy_anonymize_logs: z.boolean().optional(),
    privacy_anonymize_response: z.boolean().optional(),
    privacy_column_map: z.record(z.string(), z.string()).optional(),
    privacy_threshold: z.number().optional(),
    /** A drift job every `interval_minutes` (`PUT …/drift-schedule`); null or absent: on request only. */
    drift_schedule: z.object({ interval_minutes: z.int() }).nullable().optional(),
  })
  .loose();

const stage = z.string().meta({ enum: ['staging', 'production', 'archived'] });

export const deploymentSchema = z
  .object({
    id: id,
    project_id: id,
    model_id: id,
    name: z.string(),
    stage,
    is_active: z.boolean(),
    config: deploymentConfig,
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .loose();

export const deploymentSummarySchema = z
  .object({ id: id, model_id: id, model_name: z.string().nullable(), name: z.string(), stage, is_active: z.boolean(), config: deploymentConfig, created_at: timestamp })
  .loose();

export const deploymentModelSchema = z.object({ id: id, name: z.string(), algo: z.string() }).loose();

export const transitionSchema = z
  .object({
    id: z.string(),
    deployment_id: id,
    project_id: id,
    from_stage: z.string().nullable(),
    to_stage: z.string(),
    model_id: id,
    /** The model's name; null when the model is gone. */
    model_name: z.string().nullable(),
    actor_id: id.nullable(),
    reason: z.string(),
    at: timestamp,
  })
  .loose();

export const inferenceLogSchema = z
  .object({
    id: z.string(),
    deployment_id: id,
    requested_deployment_id: id,
    model_id: id,
    request_id: z.string(),
    inputs: z.unknown(),
    prediction: z.unknown(),
    latency_ms: z.number().int(),
    latency_ms_exact: z.number(),
    status_code: z.number().int(),
    warnings: z.array(z.unknown()),
    /** The `detail` a refused request was answered with (a text, or validation issues `[{loc, msg, type}]`); null when it was answered. */
    error: z.union([z.string(), z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() }).loose())]).nullable(),
    created_at: timestamp,
  })
  .loose();

export const driftResultSchema = z
  .object({
    deployment_id: id,
    overall_status: z.string(),
    max_psi: z.number(),
    features: z.record(z.string(), z.object({ psi: z.number(), status: z.string() }).loose()),
    computed_at: timestamp,
    inference_rows: z.number().int(),
    reference_rows: z.number().int(),
    model_id: id,
    dataset_version_id: id,
    window: z.object({ start: timestamp.nullable(), end: timestamp.nullable() }),
    job_id: id.nullable(),
  })
  .loose();
