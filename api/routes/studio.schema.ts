import { z } from 'zod';
import { nonBlank, pageQuery, uuidParam } from '../validation';

/** The request schemas of the what-if studio routes (api/routes/studio.ts). */

/** Features one baseline or scenario may name: as many as a dataset may have columns (MAX_DATASET_COLUMNS' default). */
const MAX_FEATURE_KEYS = 2000;
const MAX_FEATURE_NAME = 1000;
const MAX_TEXT_VALUE = 10_000;

/**
 * Feature name → value, as one row of a predict request: JSON scalars only (a nested value is no
 * feature's type), key count and text bounded so a stored session stays small.
 */
const featureMap = z
  .record(z.string().min(1).max(MAX_FEATURE_NAME), z.union([z.string().max(MAX_TEXT_VALUE), z.number(), z.boolean(), z.null()]))
  .refine((o) => Object.keys(o).length <= MAX_FEATURE_KEYS, { message: `At most ${MAX_FEATURE_KEYS} features` })
  .meta({ maxProperties: MAX_FEATURE_KEYS });

export const sessionParams = z.object({ session_id: uuidParam });
export const deploymentParams = z.object({ deployment_id: uuidParam });
export const scenarioParams = z.object({ scenario_id: uuidParam });

export const createSessionBody = z.object({ project_id: uuidParam, deployment_id: uuidParam, baseline_input: featureMap });
export const sessionListQuery = pageQuery(100).extend({ project_id: uuidParam });
export const createScenarioBody = z.object({ name: nonBlank(200), description: z.string().max(2000).nullable().optional(), changes: featureMap });
