import { z } from 'zod';
import { dateTimestamp, isoTimestamp, jsonObject } from './common.schema';
import { artifactLinkSchema, leaderboardModelSchema } from './model.schema';

/**
 * The JSON shapes of api/presenters/experiment.ts and the experiment routes, for the OpenAPI document and through it
 * the web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

/** A warning found before training: a feature that alone predicts the target almost perfectly (likely leakage). */
export const experimentWarningSchema = z
  .object({
    kind: z.literal('leakage'),
    column: z.string(),
    /** Single-feature AUC (one-vs-rest averaged for multiclass), single-feature R², or an exact value-to-target mapping. */
    measure: z.enum(['auc', 'r2', 'functional_dependence']),
    score: z.number(),
    message: z.string(),
  })
  .loose();

/** Training progress counted from the recorded models: base models against the plan, the stacked ensemble apart. */
const countedProgress = {
  /** Data preparation is done: the plan and any leakage warnings are known. */
  prepared: z.boolean(),
  models_done: z.number().int(),
  models_planned: z.number().int(),
  ensembles_done: z.number().int(),
  /** excluded (by exclude_algos), pending, done, or skipped (fewer than two base models, or the run ended first). */
  ensemble: z.enum(['excluded', 'pending', 'done', 'skipped']),
  /** 0-100, following the models trained. */
  percent: z.number(),
  /** "5 of 6 models, ensemble pending". */
  summary: z.string(),
};

export const experimentSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    project_id: z.string(),
    dataset_version_id: z.string(),
    dataset_id: z.string(),
    /** The number of the dataset version trained on (v1, v2...). */
    dataset_version: z.number().int(),
    target_column: z.string(),
    problem_type: z.string(),
    /** As the service resolved it from the target: binary, multiclass or regression. */
    problem_kind: z.string(),
    status: z.string(),
    max_runtime_secs: z.number(),
    max_models: z.number().int(),
    sort_metric: z.string(),
    /** The AutoML configuration as resolved at creation (defaults filled in). */
    config: jsonObject,
    /** Columns left out of training (`config.ignored_columns`): no model sees them. */
    ignored_columns: z.array(z.string()),
    use_gpu: z.boolean(),
    project_name: z.string(),
    dataset_name: z.string(),
    model_count: z.number().int(),
    best_model_id: z.string().nullable(),
    best_model_algo: z.string().nullable(),
    /** The best model's value of the sort metric (`best_score_metric`); null before a best model is chosen. */
    best_score: z.number().nullable(),
    best_score_metric: z.string(),
    /** Found before training (leakage); empty when nothing was found or before data preparation ran. */
    warnings: z.array(experimentWarningSchema),
    job_id: z.string().nullable(),
    error: z.string().nullable(),
    /** Live progress: what training wrote (current model, elapsed) with the counts below. */
    progress: z.object(countedProgress).loose(),
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
      ...countedProgress,
      elapsed_secs: z.number(),
      budget_secs: z.number(),
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
