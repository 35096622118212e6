import { z } from 'zod';

/** Rows one predict request may carry inline. */
export const MAX_INLINE_ROWS = 10_000;

/** One input row, column → value; the model's input schema checks the values (services/model-serving.ts). */
export const predictInputRow = z.record(z.string(), z.unknown());

/**
 * The body of `POST /api/mlops/deployments/:deployment_id/predict`. The route validates with it and a
 * deployment's `api-docs` fragment is generated from it (api/predict-docs.ts), so the two cannot drift apart.
 */
export const deploymentPredictBody = z.object({
  inputs: z.union([predictInputRow, z.array(predictInputRow).min(1).max(MAX_INLINE_ROWS)]),
  options: z
    .object({
      include_contributions: z.boolean().default(false),
      store_payload: z.boolean().optional().meta({
        description:
          "Keep this request's inputs (the model's input columns) in its inference log; drift compares logged inputs with the training data, so without them it has nothing to compare. Default: the deployment's `store_payload` (`PATCH …/privacy`), false unless set.",
      }),
      privacy_policy_id: z.string().min(1).max(200).optional(),
      anonymize_logs: z.boolean().optional(),
      anonymize_response: z.boolean().optional(),
    })
    .default({ include_contributions: false }),
});
