import { z } from 'zod';
import { RETRAINING_OUTCOMES, RETRAINING_STATES, RETRAINING_TRIGGER_KINDS } from '../../entities';
import { dateTimestamp as timestamp, jsonObject } from './common.schema';

/** The JSON shapes of api/presenters/retraining.ts, for the OpenAPI document. Objects stay open (`loose`). */

const id = z.string();

export const retrainingPolicySchema = z
  .object({
    id,
    project_id: id,
    registered_model_id: id,
    name: z.string(),
    enabled: z.boolean(),
    triggers: z
      .object({
        schedule_cron: z.string().nullable(),
        drift: z.object({ threshold: z.number(), consecutive: z.number().int() }).loose().nullable(),
        new_dataset_version: z.boolean(),
        alert_rule_ids: z.array(id),
      })
      .loose(),
    experiment: jsonObject.meta({ description: "Overrides of the champion's experiment config" }),
    gate: z.object({ metric: z.string().nullable(), min_improvement: z.number() }).loose(),
    outcome: z.enum(RETRAINING_OUTCOMES),
    canary: jsonObject.nullable(),
    cooldown_secs: z.number().int(),
    slice_dataset_id: id.nullable().meta({ description: "The dataset whose versions are this policy's training slices (made by its first run)" }),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .loose();

export const retrainingJobSchema = z
  .object({
    id,
    policy_id: id,
    project_id: id,
    registered_model_id: id,
    trigger: z.object({ kind: z.enum(RETRAINING_TRIGGER_KINDS), detail: jsonObject }).loose(),
    state: z.enum(RETRAINING_STATES),
    experiment_id: id.nullable(),
    dataset_version_id: id.nullable().meta({ description: 'The dataset version retrained on' }),
    training_version_id: id.nullable().meta({ description: 'Its training slice (the version without the holdout rows) the experiment trained on' }),
    champion_version_id: id.nullable(),
    challenger_version_id: id.nullable(),
    rollout_id: id.nullable(),
    transition_request_id: id.nullable(),
    evaluation: z
      .object({ metric: z.string(), champion: z.number().nullable(), challenger: z.number().nullable(), improvement: z.number().nullable(), holdout_rows: z.number().int(), passed: z.boolean() })
      .loose()
      .nullable(),
    reason: z.string().nullable(),
    job_id: id.nullable(),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    finished_at: timestamp.nullable().meta({ description: 'When its job ended (the state may still await approval)' }),
  })
  .loose();

export const retrainingTriggerSchema = z
  .object({
    id,
    policy_id: id,
    kind: z.enum(RETRAINING_TRIGGER_KINDS),
    detail: jsonObject,
    outcome: z.enum(['started', 'skipped']),
    reason: z.string().nullable(),
    retraining_job_id: id.nullable(),
    created_at: timestamp,
  })
  .loose();
