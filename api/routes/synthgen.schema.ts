import { z } from 'zod';
import { SYNTHGEN_JOB_STATUSES, SYNTHGEN_MODEL_TYPES } from '../../entities';
import { SYNTH_BOUNDS } from '../../services/synthgen/config';
import { MAX_CONDITIONS } from '../../services/synthgen/service';
import { freeJsonObject, INT4_MAX, nonBlank, pageQuery, uuidParam } from '../validation';

/** The request schemas of the SynthGen routes (api/routes/synthgen.ts). */

const MAX_CONFIG_KEYS = 20;

/** A model type's options; which keys, types and bounds fit is checked against the type (services/synthgen/config.ts). */
const modelConfig = freeJsonObject({
  maxKeys: MAX_CONFIG_KEYS,
  maxKeyLength: 100,
  noun: 'options',
  description: `ctgan, copulagan: epochs (1-${SYNTH_BOUNDS.epochs.max}, 300), batch_size (${SYNTH_BOUNDS.batch_size.min}-${SYNTH_BOUNDS.batch_size.max}, 500), embedding_dim (1-${SYNTH_BOUNDS.embedding_dim.max}, 128), generator_dim and discriminator_dim (1-${SYNTH_BOUNDS.layers.max} layers of 1-${SYNTH_BOUNDS.layer_units.max} units, [256, 256]), pac (1-${SYNTH_BOUNDS.pac.max}, 10; divides batch_size), seed. tvae: epochs, batch_size, embedding_dim, seed. gaussian_copula: seed.`,
});
/** Column-value constraints: every generated row holds these values (checked against the model's columns). */
const conditions = z
  .record(z.string().min(1).max(200), z.union([z.string().max(1000), z.number(), z.boolean()]))
  .refine((o) => Object.keys(o).length <= MAX_CONDITIONS, { message: `At most ${MAX_CONDITIONS} conditions` })
  .meta({ maxProperties: MAX_CONDITIONS });

export const modelParams = z.object({ model_id: uuidParam });
export const jobParams = z.object({ job_id: uuidParam });

export const createModelBody = z.object({
  project_id: uuidParam,
  dataset_version_id: uuidParam,
  name: nonBlank(200),
  model_type: z
    .string()
    .max(100)
    .nullable()
    .optional()
    .meta({ enum: [...SYNTHGEN_MODEL_TYPES], description: '`ctgan` when omitted' }),
  config: modelConfig.optional(),
  use_gpu: z.boolean().optional().meta({ description: 'Train a neural model on the GPU queue when a GPU worker takes it in time (else the CPU queue)' }),
});
export const modelListQuery = pageQuery().extend({ project_id: uuidParam.optional() });

/** The body of `…/generate`; `maxRows` is the configured SYNTHGEN_MAX_ROWS, which the document states. */
export function generateBody(maxRows: number) {
  return z.object({
    // Bounded by the service, so any number out of range is the spec's one sentence (zod would name its own limits).
    num_rows: z
      .number()
      .optional()
      .meta({ type: 'integer', minimum: 1, maximum: maxRows, description: `1 to ${maxRows} (SYNTHGEN_MAX_ROWS); default 1000` }),
    seed: z.number().int().min(0).max(INT4_MAX).nullable().optional(),
    conditions: conditions.optional(),
  });
}

export const jobListQuery = pageQuery().extend({ project_id: uuidParam.optional(), model_id: uuidParam.optional(), status: z.enum(SYNTHGEN_JOB_STATUSES).optional() });
export const jobDownloadQuery = z.object({ format: z.enum(['csv', 'parquet']).default('csv') });
