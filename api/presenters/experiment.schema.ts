import { z } from 'zod';
import { dateTimestamp, isoTimestamp, jsonObject } from './common.schema';
import { artifactLinkSchema, leaderboardModelSchema } from './model.schema';

/**
 * The JSON shapes of api/presenters/experiment.ts and the experiment routes, for the OpenAPI document and through it
 * the web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

export const experimentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    project_id: z.string(),
    dataset_version_id: z.string(),
    dataset_id: z.string(),
    target_column: z.string(),
    problem_type: z.string(),
    problem_kind: z.string(),
    status: z.string(),
    max_runtime_secs: z.number(),
    max_models: z.number().int(),
    sort_metric: z.string(),
    /** The AutoML configuration as resolved at creation (defaults filled in). */
    config: jsonObject,
    use_gpu: z.boolean(),
    project_name: z.string(),
    dataset_name: z.string(),
    model_count: z.number().int(),
    best_model_id: z.string().nullable(),
    best_model_algo: z.string().nullable(),
    job_id: z.string().nullable(),
    error: z.string().nullable(),
    /** Live progress as the training wrote it (models done, current algorithm). */
    progress: jsonObject,
    created_at: isoTimestamp,
    started_at: dateTimestamp.nullable(),
    finished_at: dateTimestamp.nullable(),
  })
  .loose();

export const experimentDetailSchema = z.object({
  experiment: experimentSchema,
  models: z.array(leaderboardModelSchema),
  artifact_links: z.array(artifactLinkSchema),
  best_model_id: z.string().nullable(),
});

/** `GET /api/experiments/{id}/status`: live progress, elapsed against the budget and the job's percent. */
export const experimentStatusSchema = z.object({
  experiment_id: z.string(),
  status: z.string(),
  progress: z
    .object({
      percent: z.number(),
      elapsed_secs: z.number(),
      budget_secs: z.number(),
      models_done: z.number().int().optional(),
      models_planned: z.number().int().optional(),
      /** The model being trained; null between models. */
      current: z.string().nullable().optional(),
    })
    .loose(),
  job_id: z.string().nullable(),
  error: z.string().nullable(),
});

export const experimentExplainSchema = z.object({
  explain: z.object({
    sort_metric: z.string(),
    /** Models no faster-or-equal model beats on the sort metric, fastest first (`training_time` in seconds). */
    pareto_front: z.object({
      models: z.array(z.object({ id: z.string(), name: z.string(), algo: z.string(), metric: z.number().nullable().optional(), training_time: z.number() }).loose()),
    }),
    /** Scaled importance of each feature (columns) in each model (rows, by name). */
    varimp_heatmap: z.object({ models: z.array(z.string()), features: z.array(z.string()), matrix: z.array(z.array(z.number())) }),
  }),
});

export const capabilitiesSchema = z
  .object({
    problem_types: z.array(z.string()),
    algorithms: z.array(z.string()),
    sort_metrics: z.record(z.string(), z.array(z.string())),
    stopping_metrics: z.array(z.string()),
    distributions: z.array(z.string()),
    /** The configuration keys a user sets, with their defaults. */
    config_defaults: jsonObject,
    limits: z.object({ max_models_cap: z.number().int(), max_runtime_secs_max: z.number(), nfolds_max: z.number().int() }).loose(),
    gpu: z.object({ queue: z.string(), workers_polling: z.number().int().nullable(), fallback_after_secs: z.number() }).loose(),
  })
  .loose();

export const experimentLogsSchema = z.object({ experiment_id: z.string(), logs: z.array(z.string()), count: z.number().int() });
