import { z } from 'zod';
import { EXPERIMENT_SORT_FIELDS } from '../../services/experiments';
import { freeJsonObject, listQuery, nonBlank, queryBool, uuidParam } from '../validation';

/** The request schemas of the experiment routes (api/routes/experiments.ts). */

/** Far more than the AutoML config has (each key is checked against it, engine/automl/driver/config.ts). */
const MAX_CONFIG_KEYS = 50;

/**
 * `config.ignored_columns`: columns of the dataset version left out of training (never features: not in training, the
 * ONNX input schema, importance or the predict examples). Checked against the version's columns by the service.
 */
const ignoredColumnsField = z.array(z.string().min(1).max(500)).max(10_000).meta({ description: 'Distinct column names of the dataset version, not the target, leaving at least one feature.' });

export const experimentParams = z.object({ experiment_id: uuidParam });

export const createExperimentBody = z.object({
  project_id: uuidParam,
  dataset_version_id: uuidParam,
  name: nonBlank(200),
  target_column: z.string().min(1).max(500),
  problem_type: z.string().max(50),
  config: freeJsonObject({ maxKeys: MAX_CONFIG_KEYS, maxKeyLength: 100, noun: 'options' })
    .and(z.object({ ignored_columns: ignoredColumnsField.optional() }).loose())
    .optional(),
  use_gpu: z.boolean().default(false),
});

export const experimentListQuery = listQuery(EXPERIMENT_SORT_FIELDS).extend({
  project_id: uuidParam.optional(),
  dataset_id: uuidParam.optional(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'canceled']).optional(),
});

export const experimentLogsQuery = z.object({ include_h2o_logs: queryBool.default(true) });
export const bestModelBody = z.object({ model_id: uuidParam });
