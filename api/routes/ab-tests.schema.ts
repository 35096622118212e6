import { z } from 'zod';
import { AB_METRICS, AB_TEST_STATES } from '../../entities';
import { nonBlank, pageQuery, uuidParam } from '../validation';
import { deploymentPredictBody } from './deployment-predict.schema';

/** The request schemas of the A/B test routes (api/routes/ab-tests.ts). Deployments of the project the service checks. */

export const MAX_VARIANTS = 10;
/** Outcomes one request may carry. */
export const MAX_OUTCOMES = 10_000;
/** What a revenue outcome may be, either way: far beyond any real amount, and exact in a double. */
const MAX_OUTCOME_VALUE = 1e12;

const variant = z
  .object({
    name: nonBlank(100),
    deployment_id: uuidParam.meta({ description: 'An active deployment of the project' }),
    weight: z.number().positive().max(1_000_000).meta({ description: "The variant's share of requests is its weight over the sum of the weights" }),
  })
  .strict();

const variants = z
  .array(variant)
  .min(2)
  .max(MAX_VARIANTS)
  .superRefine((vs, ctx) => {
    const seen = new Set<string>();
    vs.forEach((v, i) => {
      if (seen.has(v.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'Variant names must be unique' });
      seen.add(v.name);
    });
  })
  .meta({ description: '2-10 variants; the first is the control every other variant is compared with' });

const fields = {
  name: nonBlank(200),
  description: z.string().max(2000),
  variants,
  primary_metric: z.enum(AB_METRICS).meta({
    description: 'accuracy or log_loss: from feedback on the variants’ deployments (POST /api/mlops/deployments/{id}/feedback); conversion (0/1) or revenue: from POST …/outcomes',
  }),
  alpha: z.number().min(0.001).max(0.2).meta({ description: 'Family-wise significance level (Bonferroni over the variants compared with the control)' }),
  min_samples: z.number().int().min(2).max(1_000_000).meta({ description: 'Observations each variant needs before the test may conclude' }),
};

export const createAbTestBody = z
  .object({
    project_id: uuidParam,
    name: fields.name,
    description: fields.description.default(''),
    variants: fields.variants,
    primary_metric: fields.primary_metric,
    alpha: fields.alpha.default(0.05),
    min_samples: fields.min_samples.default(100),
  })
  .strict();

export const patchAbTestBody = z
  .object({
    name: fields.name.optional(),
    description: fields.description.optional(),
    variants: fields.variants.optional(),
    primary_metric: fields.primary_metric.optional(),
    alpha: fields.alpha.optional(),
    min_samples: fields.min_samples.optional(),
  })
  .strict();

export const abTestParams = z.object({ test_id: uuidParam });

export const abTestListQuery = pageQuery(200).extend({ project_id: uuidParam, state: z.enum(AB_TEST_STATES).optional() });

/** A request id as predict answered it (X-Request-Id). */
const requestId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'A request id as predict answered it in X-Request-Id (1-64 of A-Z a-z 0-9 . _ -)');

export const outcomesBody = z
  .object({
    outcomes: z
      .array(z.object({ request_id: requestId, value: z.number().min(-MAX_OUTCOME_VALUE).max(MAX_OUTCOME_VALUE).meta({ description: 'conversion: 0 or 1; revenue: an amount' }) }).strict())
      .min(1)
      .max(MAX_OUTCOMES),
  })
  .strict();

/** The body of a test's predict: the same as a deployment's. */
export const abPredictBody = deploymentPredictBody;

/** The longest X-AB-Key taken. */
export const MAX_AB_KEY_LENGTH = 256;
