import { z } from 'zod';
import { MODEL_SORT_KEYS } from '../../engine/automl';
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
  search: z.string().max(200).optional(),
  limit: intParam(1, 500).default(50),
  offset: intParam(0).default(0),
  sort_metric: z.enum(MODEL_SORT_KEYS).optional(),
  sort_dir: z.enum(['asc', 'desc']).default('desc'),
});

export const modelPredictBody = z.object({
  inputs: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_INLINE_ROWS)]),
  options: z.object({ include_contributions: z.boolean().default(false) }).default({ include_contributions: false }),
});

export const batchPredictForm = z.object({ file: z.file() });
