import { z } from 'zod';
import { columnSchema, dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/model.ts and the model routes, for the OpenAPI document and through it the web
 * UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

export const modelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    algo: z.string(),
    experiment_id: z.string(),
    project_id: z.string(),
    artifact_id: z.string(),
    onnx_artifact_id: z.string().nullable(),
    is_best: z.boolean(),
    is_production: z.boolean(),
    is_staging: z.boolean(),
    staging_deployment_id: z.string().nullable(),
    /** Training and validation metrics, by name (`auc`, `rmse`, `confusion_matrix`...). */
    metrics: jsonObject,
    training_time_ms: z.number().int(),
    predict_time_per_row_ms: z.number(),
    created_at: dateTimestamp,
    /** The names of its experiment and project, where the answer carries them. */
    experiment_name: z.string().optional(),
    project_name: z.string().optional(),
  })
  .loose();

/** A model as the project-wide model table lists it: its experiment's metric, dataset version and deployment beside it. */
export const modelListItemSchema = modelSchema
  .extend({
    /** Its experiment's sort metric (`AUC`, `RMSE`, …) and this model's value of it (null where not recorded). */
    metric_name: z.string().nullable(),
    metric_value: z.number().nullable(),
    dataset_id: z.string().nullable(),
    dataset_name: z.string().nullable(),
    dataset_version_id: z.string().nullable(),
    dataset_version: z.number().int().nullable(),
    /** Its active deployment (production before staging), or null when it serves nowhere. */
    deployment: z.object({ id: z.string(), name: z.string(), stage: z.string() }).loose().nullable(),
  })
  .loose();

/** A model as an experiment's leaderboard lists it (`rank` 1 is the best by the sort metric). */
export const leaderboardModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    algo: z.string(),
    metrics: jsonObject,
    is_best: z.boolean(),
    training_time_ms: z.number().int(),
    predict_time_per_row_ms: z.number(),
    created_at: dateTimestamp,
    rank: z.number().int(),
  })
  .loose();

/** Where a model's native (JSON) artifact and ONNX file are downloaded. */
export const artifactLinkSchema = z.object({ artifact_id: z.string(), owner_type: z.string(), owner_id: z.string(), label: z.string() }).loose();

export const modelDetailSchema = z.object({
  model: modelSchema,
  deployments: z.array(z.object({ id: z.string(), name: z.string(), stage: z.string(), is_active: z.boolean() }).loose()),
  artifact_links: z.array(artifactLinkSchema),
  input_schema: z.array(columnSchema),
});

/** Precision and recall on held-out rows at each threshold (recall increasing); null where not recorded. */
const prCurveSchema = z.object({ precision: z.array(z.number()), recall: z.array(z.number()), thresholds: z.array(z.number()) }).loose();

const thresholdRowSchema = z
  .object({
    threshold: z.number(),
    positive_rate: z.number(),
    precision: z.number(),
    recall: z.number(),
    f1: z.number(),
    lift: z.number(),
    tp: z.number().int(),
    fp: z.number().int(),
    fn: z.number().int(),
    tn: z.number().int(),
  })
  .loose();

/** `GET /api/projects/{id}/models/compare`: models of one project side by side. */
export const modelComparisonSchema = z.object({
  project_id: z.string(),
  models: z.array(
    z
      .object({
        id: z.string(),
        name: z.string(),
        algo: z.string(),
        experiment_id: z.string(),
        experiment_name: z.string().nullable(),
        metric_name: z.string().nullable(),
        problem_kind: z.string().nullable(),
        metric_split: z.string().nullable(),
        /** Scalar metrics by name. */
        metrics: z.record(z.string(), z.number()),
        /** Training parameters: name to {default, actual}. */
        parameters: jsonObject,
        roc_curve: z
          .object({ fpr: z.array(z.number()), tpr: z.array(z.number()) })
          .loose()
          .nullable(),
        pr_curve: prCurveSchema.nullable(),
      })
      .loose(),
  ),
  metric_names: z.array(z.string()),
  parameter_names: z.array(z.string()),
  /** Parameters whose trained value is not the same in every compared model. */
  differing_parameters: z.array(z.string()),
});

/** `GET /api/models/{id}/explain`: importance, SHAP summary, confusion matrix, ROC and scoring history. */
export const modelExplainSchema = z
  .object({
    model_id: z.string(),
    algo: z.string(),
    variable_importance: z.array(z.object({ variable: z.string(), percentage: z.number(), scaled_importance: z.number() }).loose()),
    /** Mean |contribution| per feature over a sample of the training rows; null where the model has no contributions. */
    shap_summary: z.array(z.object({ feature: z.string(), mean_abs_contribution: z.number() }).loose()).nullable(),
    confusion_matrix: z
      .object({ labels: z.array(z.string()), matrix: z.array(z.array(z.number())) })
      .loose()
      .nullable(),
    roc_curve: z
      .object({ fpr: z.array(z.number()), tpr: z.array(z.number()) })
      .loose()
      .nullable(),
    pr_curve: prCurveSchema.nullable(),
    /** Binary models: precision, recall, F1 and lift where the top 5%, 10%, … of held-out rows by score are predicted positive. */
    threshold_table: z.array(thresholdRowSchema).nullable(),
    /** Where the metrics were measured: `cross_validation` (out-of-fold rows) or `validation` (a holdout split). */
    metric_split: z.string().nullable(),
    /** Stacked ensembles: the metalearner's weight on each base model (variable_importance lists input features only). */
    base_model_importance: z.array(z.object({ variable: z.string(), percentage: z.number(), scaled_importance: z.number() }).loose()).nullable(),
    scoring_history: z.array(
      z
        .object({
          number_of_trees: z.number(),
          timestamp: z.null(),
          training_logloss: z.number().nullable(),
          validation_logloss: z.number().nullable(),
          training_rmse: z.number().nullable(),
          validation_rmse: z.number().nullable(),
        })
        .loose(),
    ),
  })
  .loose();

/** A score JSON can hold: null where it is not finite (JSON has no NaN or Infinity). */
const score = z.number().nullable();

/** `POST /api/models/{id}/predict`: a prediction per row, with contributions when asked and warnings when rows did not fit. */
export const predictionsSchema = z
  .object({
    predictions: z.array(z.object({ prediction: z.union([z.string(), score]), probabilities: z.record(z.string(), score).optional() }).loose()),
    /** Per row, each feature's contribution to the score (TreeSHAP), when `include_contributions` was set. */
    contributions: z.array(z.array(z.object({ feature: z.string(), value: z.number() }).loose())).optional(),
    warnings: z.array(z.object({ type: z.enum(['unknown_columns', 'missing_features']), columns: z.array(z.string()), rows: z.array(z.number().int()), message: z.string() }).loose()).optional(),
  })
  .loose();
