import { z } from 'zod';
import { INFERENCE_LOG_SORT_FIELDS } from '../../services/inference-logs';
import { intParam, nonBlank, pageQuery, timestampParam, uuidParam } from '../validation';

/**
 * The request schemas of the deployment routes (api/routes/deployments.ts); the predict body, which also generates
 * a deployment's `api-docs` fragment, is in deployment-predict.schema.ts.
 */

export const projectParams = z.object({ project_id: uuidParam });
export const deploymentParams = z.object({ deployment_id: uuidParam });
const reason = nonBlank(500).optional();
const timeWindow = { since: timestampParam.optional(), until: timestampParam.optional() };

/** The spec's privacy options, shared by create and `PATCH …/privacy`. */
export const privacyOptions = {
  privacy_policy_id: z.string().min(1).max(200).nullable().optional(),
  privacy_anonymize_logs: z.boolean().optional(),
  privacy_anonymize_response: z.boolean().optional(),
  privacy_column_map: z.record(z.string().min(1).max(200), nonBlank(64)).optional(),
  privacy_threshold: z.number().min(0).max(1).optional(),
  store_payload: z.boolean().optional(),
};

export const createDeploymentBody = z.object({
  model_id: uuidParam,
  name: nonBlank(200),
  // Checked by the service, which answers the spec's text; the document names the two values.
  stage: z.string().meta({ enum: ['staging', 'production'] }),
  traffic_percent: z.number().int().min(1).max(100).default(100),
  ...privacyOptions,
});
export const deploymentHistoryQuery = pageQuery(500).extend({ at: timestampParam.optional() });
export const promoteBody = z.object({ to_stage: z.string().meta({ enum: ['production'] }), reason });
export const rollbackBody = z
  .object({ to_deployment_id: uuidParam.optional(), to_model_id: uuidParam.optional(), reason })
  .meta({ anyOf: [{ required: ['to_deployment_id'] }, { required: ['to_model_id'] }] });
export const deactivateBody = z.object({ reason });
export const privacyBody = z.object(privacyOptions).strict();
export const inferenceLogsQuery = pageQuery(500).extend({
  ...timeWindow,
  status: z.enum(['ok', 'error']).optional().meta({ description: '`ok`: answered (status below 400); `error`: refused or failed (400 and above)' }),
  status_code: intParam(100, 599).optional().meta({ description: 'Only requests answered with this HTTP status' }),
  sort_field: z.enum(INFERENCE_LOG_SORT_FIELDS).default('created_at'),
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
});
export const trafficQuery = z.object(timeWindow);
