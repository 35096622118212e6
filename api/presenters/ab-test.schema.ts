import { z } from 'zod';
import { AB_METRICS, AB_TEST_STATES } from '../../entities';
import { dateTimestamp as timestamp } from './common.schema';

/** The JSON shapes of api/presenters/ab-test.ts, for the OpenAPI document. Objects stay open (`loose`). */

const id = z.string();
const num = z.number().nullable();

export const abVariantSchema = z.object({ name: z.string(), deployment_id: id, weight: z.number() }).loose();

export const abConclusionSchema = z
  .object({
    winner: z.string().nullable().meta({ description: 'null when the test was stopped before a boundary was crossed' }),
    against: z.string().nullable().meta({ description: "The variant the winner's effect is measured against" }),
    effect: num.meta({ description: 'winner − against in the metric’s units (negative for a log_loss winner)' }),
    ci: z.array(z.number()).length(2).nullable().meta({ description: 'Always-valid confidence interval of the effect: [low, high]' }),
    p_value: num.meta({ description: 'Always-valid p-value' }),
    reason: z.enum(['significant', 'stopped']),
    decided_at: z.string(),
  })
  .loose();

export const abStatsSchema = z
  .object({
    metric: z.enum(AB_METRICS),
    higher_is_better: z.boolean(),
    alpha: z.number(),
    adjusted_alpha: z.number().meta({ description: 'The level each comparison is tested at (alpha over the number of comparisons)' }),
    min_samples: z.number().int(),
    variants: z.array(z.object({ name: z.string(), deployment_id: id, n: z.number().int(), mean: num, std: num }).loose()),
    comparisons: z.array(
      z
        .object({
          variant: z.string(),
          against: z.string(),
          effect: num.meta({ description: 'mean(variant) − mean(against)' }),
          ci_low: num.meta({ description: 'Always-valid confidence sequence of the effect (mSPRT), at adjusted_alpha' }),
          ci_high: num,
          p_value: z.number().meta({ description: 'Always-valid p-value (mSPRT)' }),
          significant: z.boolean(),
        })
        .loose(),
    ),
  })
  .loose();

export const abTestSchema = z
  .object({
    id,
    project_id: id,
    name: z.string(),
    description: z.string(),
    state: z.enum(AB_TEST_STATES),
    variants: z.array(abVariantSchema),
    primary_metric: z.enum(AB_METRICS),
    alpha: z.number(),
    min_samples: z.number().int(),
    conclusion: abConclusionSchema.nullable(),
    promoted_at: timestamp.nullable(),
    promoted_deployment_id: id.nullable(),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    started_at: timestamp.nullable(),
    concluded_at: timestamp.nullable(),
  })
  .loose();

/** A single test's answer: the test and its statistics as read now. */
export const abTestWithStatsSchema = abTestSchema.extend({ stats: abStatsSchema }).loose();

export const abOutcomeResultSchema = z.object({ accepted: z.number().int(), updated: z.number().int(), unknown_request_ids: z.array(z.string()) }).loose();

export const abPredictSchema = z
  .object({
    variant: z.string(),
    deployment_id: id,
    request_id: z.string().meta({ description: 'The request id (also X-Request-Id): the key feedback and outcomes name this request by' }),
    predictions: z.array(z.object({ prediction: z.union([z.string(), z.number()]) }).loose()),
    decision_policy: z.object({}).loose(),
    contributions: z.unknown().optional(),
    warnings: z.array(z.object({}).loose()).optional(),
  })
  .loose();
