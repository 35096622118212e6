import { z } from 'zod';
import { SYNTHGEN_JOB_STATUSES, SYNTHGEN_JOB_TYPES, SYNTHGEN_MODEL_STATUSES, SYNTHGEN_MODEL_TYPES } from '../../entities';
import { dateTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/synthgen.ts and the synthgen routes, for the OpenAPI document and through it the
 * web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

/** What training recorded of a column (engine/synth/types.ts `SynthColumnMeta`). */
const columnMeta = z
  .object({
    name: z.string(),
    kind: z.enum(['numeric', 'categorical', 'datetime']),
    integer: z.boolean(),
    /** Present values' range (datetime: epoch ms); null for categoricals or all-missing columns. */
    min: z.number().nullable(),
    max: z.number().nullable(),
    missingRate: z.number(),
  })
  .loose();

export const synthModelSchema = z
  .object({
    id: z.string(),
    project_id: z.string(),
    project_name: z.string(),
    name: z.string(),
    model_type: z.enum(SYNTHGEN_MODEL_TYPES),
    status: z.enum(SYNTHGEN_MODEL_STATUSES),
    config: jsonObject,
    use_gpu: z.boolean(),
    dataset_name: z.string(),
    dataset_version: z.number().int().nullable(),
    dataset_id: z.string(),
    dataset_version_id: z.string(),
    error: z.string().nullable(),
    train_job_id: z.string().nullable(),
    /** The trained model, once `ready`. */
    artifact_id: z.string().nullable(),
    training_rows: z.number().int().nullable(),
    holdout_rows: z.number().int().nullable(),
    training_secs: z.number().nullable(),
    checkpoint_epoch: z.number().int().nullable(),
    columns: z.array(columnMeta).nullable(),
    created_at: dateTimestamp,
    started_at: dateTimestamp.nullable(),
    finished_at: dateTimestamp.nullable(),
    updated_at: dateTimestamp,
  })
  .loose();

/** A job as a model's detail lists it. */
export const synthJobSummarySchema = z
  .object({ id: z.string(), job_type: z.enum(SYNTHGEN_JOB_TYPES), status: z.enum(SYNTHGEN_JOB_STATUSES), error: z.string().nullable(), created_at: dateTimestamp })
  .loose();

/** A generation's quality report (SDMetrics' column shapes and pair trends, engine/synth) with what it compared. */
const quality = z
  .object({
    overall_score: z.number(),
    column_shapes: z.object({ score: z.number().nullable(), columns: z.array(z.object({ column: z.string(), metric: z.string(), score: z.number().nullable() }).loose()) }).loose(),
    column_pair_trends: z
      .object({
        score: z.number().nullable(),
        pairs: z.array(z.object({ columns: z.array(z.string()).describe('The two columns of the pair'), metric: z.string(), score: z.number().nullable(), meets_threshold: z.boolean() }).loose()),
        pairs_evaluated: z.number().int(),
        pairs_total: z.number().int(),
      })
      .loose(),
    /** Which training rows the report compared with. */
    reference: z.string().optional(),
    real_rows: z.number().int().optional(),
    synthetic_rows: z.number().int().optional(),
    /** Real against synthetic shares per column, for charts. */
    distributions: z
      .array(z.object({ column: z.string(), kind: z.string(), labels: z.array(z.union([z.number(), z.string()])), real: z.array(z.number()), synthetic: z.array(z.number()) }).loose())
      .optional(),
  })
  .loose();

/** The privacy check of a generation (distance to closest record), or why it was skipped (no holdout). */
const privacy = z
  .object({
    skipped: z.union([z.string(), z.boolean()]).nullable().optional(),
    copied_rows_share: z.number().optional(),
    median_dcr_synthetic: z.number().optional(),
    median_dcr_holdout: z.number().optional(),
    rows_compared: z.number().int().optional(),
    holdout_rows: z.number().int().optional(),
  })
  .loose();

export const synthJobSchema = z
  .object({
    id: z.string(),
    /** The same id: the `jobs` row this synthgen job shares it with. */
    job_id: z.string(),
    project_id: z.string(),
    project_name: z.string(),
    model_id: z.string(),
    model_name: z.string(),
    model_type: z.string(),
    job_type: z.enum(SYNTHGEN_JOB_TYPES),
    status: z.enum(SYNTHGEN_JOB_STATUSES),
    /** Generation: {num_rows, seed, conditions}; training: the model's config. */
    config: z.object({ num_rows: z.number().int().optional(), seed: z.number().int().optional(), conditions: jsonObject.optional() }).loose(),
    progress: z.number(),
    progress_message: z.string().nullable(),
    attempt: z.number().int(),
    error: z.string().nullable(),
    output_artifact_id: z.string().nullable(),
    parquet_artifact_id: z.string().nullable(),
    rows_generated: z.number().int().nullable(),
    download_url: z.string().nullable(),
    quality: quality.nullable(),
    privacy: privacy.nullable(),
    log: z.array(z.string()),
    created_at: dateTimestamp,
    started_at: dateTimestamp.nullable(),
    finished_at: dateTimestamp.nullable(),
    updated_at: dateTimestamp,
  })
  .loose();

export const modelTypeSchema = z.object({ id: z.enum(SYNTHGEN_MODEL_TYPES), name: z.string(), description: z.string() }).loose();
