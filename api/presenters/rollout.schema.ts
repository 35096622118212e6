import { z } from 'zod';
import { GATE_METRICS, GATE_OPS, ROLLOUT_KINDS, ROLLOUT_STATES } from '../../entities/rollout.entity';
import { dateTimestamp as timestamp } from './common.schema';

/**
 * The JSON shapes of api/presenters/rollout.ts, for the OpenAPI document. Objects stay open (`loose`): clients
 * ignore fields they do not know.
 */

const id = z.string();

const gateResult = z.object({ metric: z.enum(GATE_METRICS), op: z.enum(GATE_OPS), observed: z.number().nullable(), threshold: z.number(), passed: z.boolean(), samples: z.number().int() }).loose();

const step = z
  .object({
    traffic_percent: z.number().int(),
    pause_secs: z.number().int(),
    gates: z.array(z.object({ metric: z.enum(GATE_METRICS), op: z.enum(GATE_OPS), threshold: z.number(), min_samples: z.number().int() }).loose()),
  })
  .loose();

export const rolloutSchema = z
  .object({
    id,
    project_id: id,
    deployment_id: id.meta({ description: 'The stable: the production deployment the rollout started on' }),
    candidate_deployment_id: id.nullable(),
    candidate_model_id: id,
    version_id: id.nullable(),
    kind: z.enum(ROLLOUT_KINDS),
    state: z.enum(ROLLOUT_STATES),
    step_index: z.number().int(),
    steps: z.array(step),
    current_traffic_percent: z.number().int(),
    gates_last: z.array(gateResult),
    options: z
      .object({
        gate_interval_secs: z.number().int().optional(),
        on_success: z.enum(['promote', 'hold']).optional(),
        keep_previous_secs: z.number().int().optional(),
        warmup_requests: z.number().int().optional(),
        sample_percent: z.number().int().optional(),
        duration_secs: z.number().int().nullable().optional(),
      })
      .loose(),
    history: z.array(z.object({ at: z.string(), event: z.string(), detail: z.string() }).loose()),
    reason: z.string().nullable(),
    created_by: id.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    finished_at: timestamp.nullable(),
  })
  .loose();

const percentiles = z.object({ p50: z.number().nullable(), p95: z.number().nullable() });

export const shadowComparisonSchema = z
  .object({
    deployment_id: id,
    shadow_deployment_id: id,
    rollout_id: id,
    since: timestamp,
    requests: z.number().int().meta({ description: "The stable's answered requests since the shadow began" }),
    compared: z.number().int().meta({ description: 'Answers of both compared (each row of a batch)' }),
    agreement_rate: z.number().nullable().meta({ description: 'Share of compared answers that agree: the same label, or |Δ| ≤ tolerance for numbers' }),
    mean_abs_delta: z.number().nullable(),
    delta_p50: z.number().nullable(),
    delta_p95: z.number().nullable(),
    tolerance: z.number(),
    latency_ms: z.object({ stable: percentiles, shadow: percentiles }),
    errors: z.number().int().meta({ description: 'Mirrored requests the shadow failed' }),
  })
  .loose();

export const trafficSplitSchema = z
  .object({
    stable: z.object({ deployment_id: id, traffic_percent: z.number().int() }),
    candidate: z.object({ deployment_id: id, traffic_percent: z.number().int(), rollout_id: id.nullable() }).nullable(),
    shadow: z.object({ deployment_id: id, sample_percent: z.number().int(), rollout_id: id.nullable() }).nullable(),
    rollout_id: id.nullable(),
  })
  .loose();
