import { z } from 'zod';
import { columnSchema, dateTimestamp, isoTimestamp, jsonObject } from './common.schema';

/**
 * The JSON shapes of api/presenters/dataset.ts and the dataset routes, for the OpenAPI document and through it the
 * web UI's generated types. Objects stay open (`loose`): a client ignores fields it does not know.
 */

const dtype = z.enum(['int64', 'float64', 'object', 'bool', 'datetime64', 'category']);

/** A dataset with its latest version's size, as lists and `GET /api/datasets/{id}` show it. */
export const datasetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    project_id: z.string(),
    project_name: z.string(),
    dataset_version_id: z.string(),
    artifact_id: z.string(),
    rows: z.number().int(),
    columns: z.number().int(),
    version: z.number().int(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .loose();

export const datasetDetailSchema = z.object({
  dataset: datasetSchema.extend({ columns_schema: z.array(columnSchema) }),
  /** The latest version's first rows. */
  preview: z.array(jsonObject),
  /** Why the preview is empty, when it could not be read. */
  preview_error: z.string().nullable(),
  /** The version the preview shows (the latest unless `version` was asked for). */
  preview_version: z.number().int(),
});

export const versionSchema = z
  .object({
    id: z.string(),
    dataset_id: z.string(),
    version: z.number().int(),
    row_count: z.number().int(),
    column_count: z.number().int(),
    description: z.string(),
    columns: z.array(columnSchema),
    artifact_id: z.string(),
    /** What was uploaded: format, encoding, delimiter, header, original size and name. */
    source: jsonObject,
    created_by_name: z.string().nullable(),
    /** `ready`: statistics stored; `queued`/`running`/`failed`/`canceled`: its background profile job; `none`: computed by the first analyze. */
    statistics_status: z.enum(['ready', 'queued', 'running', 'failed', 'canceled', 'none']),
    /** Why the background profile failed (with `failed`). */
    statistics_error: z.string().nullable(),
    created_at: dateTimestamp,
  })
  .loose();

const qualityCheck = z
  .object({
    name: z.string(),
    passed: z.boolean(),
    details: z.string(),
    /** The check depends on a target and none was named: not computed, not in the score. */
    needs_target: z.boolean().optional(),
  })
  .loose();

/** The quality report an upload answers (`issues` are the checks). */
export const uploadQualitySchema = z.object({ overall_score: z.number(), issues: z.array(qualityCheck) }).loose();

/** A new dataset or version as its upload answers it. */
export const uploadedVersionSchema = z
  .object({
    id: z.string(),
    dataset_version_id: z.string(),
    version: z.number().int(),
    row_count: z.number().int(),
    column_count: z.number().int(),
    quality: uploadQualitySchema,
  })
  .loose();

export const uploadedDatasetSchema = uploadedVersionSchema.extend({ dataset_id: z.string(), artifact_id: z.string(), columns: z.array(columnSchema) });

/** The full quality report of a version (`GET /api/datasets/{id}/quality`). */
export const qualitySchema = z
  .object({
    overall_score: z.number(),
    checks: z.array(qualityCheck),
    /** The target column the checks that depend on one used; null: those checks carry `needs_target` and are not in the score. */
    target: z.string().nullable(),
    /** `request`: the `target` asked for; `experiment`: the latest experiment's on this dataset; null: no target. */
    target_source: z.enum(['request', 'experiment']).nullable(),
    /** The experiment whose target was used. */
    target_experiment: z.object({ id: z.string(), name: z.string() }).nullable(),
    /** Rows the estimated checks read on a large table; null when every check read it all. */
    sample_rows: z.number().int().nullable(),
    version: z.number().int(),
  })
  .loose();

const histogram = z.object({ counts: z.array(z.number()), bin_edges: z.array(z.number()) }).loose();

const columnProfile = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('numeric'),
      dtype,
      unique: z.number(),
      missing: z.number(),
      missing_percent: z.number(),
      min: z.number().nullable(),
      max: z.number().nullable(),
      mean: z.number().nullable(),
      std: z.number().nullable(),
      percentiles: z.object({ p25: z.number().nullable(), p50: z.number().nullable(), p75: z.number().nullable() }).loose(),
      skewness: z.number().nullable(),
      kurtosis: z.number().nullable(),
      iqr: z.number().nullable(),
      outlier_count: z.number(),
      histogram,
    })
    .loose(),
  z
    .object({
      type: z.literal('categorical'),
      dtype,
      unique: z.number(),
      missing: z.number(),
      missing_percent: z.number(),
      top_values: z.record(z.string(), z.number()),
      min: z.string().nullable().optional(),
      max: z.string().nullable().optional(),
    })
    .loose(),
]);

/** A version's profile (engine/data/profile.ts), computed once and kept. */
export const profileSchema = z
  .object({
    columns: z.record(z.string(), columnProfile),
    row_count: z.number(),
    duplicate_rows: z.number(),
    memory_usage: z.number(),
    correlations: z.record(z.string(), z.record(z.string(), z.number().nullable())),
    correlations_omitted: z.array(z.string()),
    /** Absent from profiles stored before it existed. */
    percentiles_approximate: z.boolean().optional(),
  })
  .loose();

export const analyzeSchema = z.object({ statistics: profileSchema.nullable(), error: z.string().nullable() });

const shiftLevel = z.enum(['low', 'moderate', 'high']);

/** Two versions compared (engine/data/compare.ts), with their numbers. */
export const comparisonSchema = z
  .object({
    summary: z
      .object({
        v1: z.number().int(),
        v2: z.number().int(),
        v1_rows: z.number(),
        v2_rows: z.number(),
        rows_diff: z.number(),
        v1_columns: z.number(),
        v2_columns: z.number(),
        columns_added: z.array(z.string()),
        columns_removed: z.array(z.string()),
        columns_type_changed: z.array(z.object({ column: z.string(), v1_dtype: dtype, v2_dtype: dtype }).loose()),
      })
      .loose(),
    column_diffs: z.record(
      z.string(),
      z
        .object({
          type: z.enum(['numeric', 'categorical']),
          v1_dtype: dtype,
          v2_dtype: dtype,
          v1_mean: z.number().nullable(),
          v2_mean: z.number().nullable(),
          v1_std: z.number().nullable(),
          v2_std: z.number().nullable(),
          missing_v1: z.number(),
          missing_v2: z.number(),
          mean_shift_pct: z.number().nullable(),
          psi: z.number(),
          shift_level: shiftLevel,
        })
        .loose(),
    ),
  })
  .loose();

export const sampleSchema = z.object({ dataset_version_id: z.string(), rows: z.array(jsonObject), count: z.number().int() });
