import { z } from 'zod';
import { DATASET_SORT_FIELDS } from '../../services/datasets';
import { intParam, listQuery, nonBlank, NOT_BLANK, uuidParam } from '../validation';

/** The request schemas of the dataset routes (api/routes/datasets.ts). */

export const datasetParams = z.object({ dataset_id: uuidParam });
export const versionParams = z.object({ dataset_id: uuidParam, version: intParam(0) });
export const datasetVersionParams = z.object({ dataset_version_id: uuidParam });
export const projectParams = z.object({ project_id: uuidParam });

/** The text fields of a new dataset's upload, beside its `file`. */
export const uploadFields = z.object({ project_id: uuidParam, name: nonBlank(200), description: z.string().max(5000).default('') });
export const uploadForm = uploadFields.extend({ file: z.file() });
export const newVersionForm = z.object({ description: z.string().max(5000).meta({ pattern: NOT_BLANK }), file: z.file() });

export const datasetListQuery = listQuery(DATASET_SORT_FIELDS).extend({ project_id: uuidParam.optional() });
export const datasetCountQuery = z.object({ project_id: uuidParam.optional() });
export const tableFormat = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });
export const compareQuery = z.object({ v1: intParam(0), v2: intParam(0) });
/** A version of the dataset by number; absent: the latest. */
export const versionQuery = z.object({ version: intParam(0).optional() });
/** The version, and the target column of the checks that depend on one (absent: the latest experiment's, else none). */
export const qualityQuery = versionQuery.extend({ target: z.string().min(1).max(1000).optional() });
export const sampleQuery = z.object({ n: intParam(1, 10_000).default(100), seed: intParam(0).default(42) });

export const qualityPolicyBody = z
  .object({
    max_missing_percent: z.number().min(0).max(100),
    max_duplicate_percent: z.number().min(0).max(100),
    max_text_unique_ratio: z.number().min(0).max(1),
    max_integer_unique_ratio: z.number().min(0).max(1),
    min_rows_for_identifier: z.number().int().min(1),
    mixed_type_numeric_share: z.number().min(0).max(1),
    max_outlier_percent: z.number().min(0).max(100),
    min_class_ratio: z.number().min(0).max(1),
    max_target_classes: z.number().int().min(2).max(1000),
  })
  .partial()
  .strict();
