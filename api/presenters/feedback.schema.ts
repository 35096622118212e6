import { z } from 'zod';

/** The answer of `POST /api/mlops/deployments/:deployment_id/feedback`, for the OpenAPI document. */
export const feedbackOutcomeSchema = z
  .object({
    accepted: z.number().int().min(0).meta({ description: 'Outcomes stored, new or replacing one sent before' }),
    updated: z.number().int().min(0).meta({ description: 'Of the accepted, how many replaced an outcome sent before' }),
    unknown_request_ids: z.array(z.string()).meta({ description: 'Request ids with no inference log of the deployment: refused, not stored' }),
  })
  .loose();
