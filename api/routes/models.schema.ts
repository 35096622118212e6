import { z } from 'zod';
import { MODEL_SORT_KEYS } from '../../engine/automl';
import { MAX_COMPARED_MODELS } from '../../services/model-comparison';
import { MODEL_LIST_SORTS } from '../../services/model-list';
import { intParam, queryBool, uuidParam } from '../validation';

/** The request schemas of the model routes (api/routes/models.ts). */

const MAX_INLINE_ROWS = 10_000;

export const modelParams = z.object({ model_id: uuidParam });

export const modelListQuery = z.object({
  project_id: uuidParam.optional(),
  experiment_id: uuidParam.optional(),
  model_type: z.string().max(50).optional(),
  is_best: queryBool.optional(),
  is_production: queryBool.optional(),
  is_staging: queryBool.optional(),
  /** Matches the model's name, its algorithm or its experiment's name (case-insensitive substring). */
  search: z.string().max(200).optional(),
  limit: intParam(1, 500).default(50),
  offset: intParam(0).default(0),
  /**
   * The column to sort by; `metric` is each model's value of its own experiment's sort metric, signed so that `desc`
   * puts the best first. Takes precedence over `sort_metric`.
   */
  sort: z.enum(MODEL_LIST_SORTS).optional(),
  sort_metric: z.enum(MODEL_SORT_KEYS).optional(),
  sort_dir: z.enum(['asc', 'desc']).default('desc'),
});

export const projectModelsParams = z.object({ project_id: uuidParam });

export const modelCompareQuery = z.object({
  /** Comma-separated ids of 2 to 10 distinct models of the project, in the order to show them. */
  model_ids: z
    .string()
    .max(40 * MAX_COMPARED_MODELS)
    .transform((s) => s.split(',').map((id) => id.trim()))
    .pipe(
      z
        .array(uuidParam)
        .min(2, 'Compare at least 2 models')
        .max(MAX_COMPARED_MODELS, `Compare at most ${MAX_COMPARED_MODELS} models`)
        .refine((ids) => new Set(ids).size === ids.length, 'Each model may appear once'),
    ),
});

export const modelPredictBody = z.object({
  inputs: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_INLINE_ROWS)]),
  options: z.object({ include_contributions: z.boolean().default(false) }).default({ include_contributions: false }),
});

export const batchPredictForm = z.object({ file: z.file() });
