import { z } from 'zod';
import { GATE_METRICS, GATE_OPS } from '../../entities/rollout.entity';
import { pageQuery, uuidParam } from '../validation';

/** The request schemas of the rollout routes (api/routes/rollouts.ts). */

export const rolloutParams = z.object({ rollout_id: uuidParam });

/** The candidate: a model of the project or a registry version of it (one of them; the service answers 422 otherwise). */
const candidate = { model_id: uuidParam.optional(), version_id: uuidParam.optional() };
const oneCandidate = { oneOf: [{ required: ['model_id'] }, { required: ['version_id'] }] };

const gate = z.object({
  metric: z.enum(GATE_METRICS),
  op: z.enum(GATE_OPS),
  threshold: z.number().min(-1e12).max(1e12),
  min_samples: z.number().int().min(1).max(1_000_000).optional(),
});

export const canaryBody = z
  .object({
    ...candidate,
    steps: z
      .array(
        z.object({
          traffic_percent: z.number().int().min(1).max(100),
          pause_secs: z.number().int().min(0).max(86_400),
          gates: z.array(gate).max(10).optional(),
        }),
      )
      .min(1)
      .max(20),
    gate_interval_secs: z.number().int().min(5).max(3600).optional(),
    on_success: z.enum(['promote', 'hold']).optional(),
  })
  .meta(oneCandidate);

export const blueGreenBody = z
  .object({
    ...candidate,
    keep_previous_secs: z.number().int().min(0).max(86_400).optional(),
    warmup_requests: z.number().int().min(1).max(100).optional(),
  })
  .meta(oneCandidate);

export const shadowBody = z
  .object({
    ...candidate,
    sample_percent: z.number().int().min(1).max(100).optional(),
    duration_secs: z
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .optional(),
  })
  .meta(oneCandidate);

export const rolloutListQuery = pageQuery(200);

export const shadowQuery = z.object({
  /** Regression answers agree when |Δ| ≤ tolerance. */
  tolerance: z.coerce.number().min(0).max(1e12).default(0.01),
});

export const putTrafficBody = z.object({
  candidate_deployment_id: uuidParam.optional(),
  traffic_percent: z.number().int().min(0).max(100),
});
