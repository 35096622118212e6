import { z } from 'zod';
import { SYNTHGEN_MODEL_TYPES, SynthgenModelType } from '../../entities';
import { SynthConfig, validateSynthConfig } from '../../engine/synth';
import { FieldIssue, ValidationError } from '../errors';

/**
 * Model options per type: the spec's defaults, and bounds that keep one request from asking for a week of
 * training or gigabytes of weights. Widest network: 5 layers of 1,024 units each side (~5M weights beside the
 * data-dependent input layer); at most 1,000 epochs over batches of at most 10,000 rows.
 */
export const SYNTH_BOUNDS = {
  epochs: { min: 1, max: 1000 },
  batch_size: { min: 2, max: 10_000 },
  embedding_dim: { min: 1, max: 1024 },
  layers: { min: 1, max: 5 },
  layer_units: { min: 1, max: 1024 },
  pac: { min: 1, max: 100 },
} as const;

/** The spec's message for an unknown model type. */
export const INVALID_MODEL_TYPE = 'Invalid model_type';

const int = (b: { min: number; max: number }) => z.number().int().min(b.min).max(b.max);
const layers = z.array(int(SYNTH_BOUNDS.layer_units)).min(SYNTH_BOUNDS.layers.min).max(SYNTH_BOUNDS.layers.max);
/** Any JSON integer a seed may be; the engines reduce it to their generator's state. */
const seed = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

const neural = {
  epochs: int(SYNTH_BOUNDS.epochs).default(300),
  batch_size: int(SYNTH_BOUNDS.batch_size).default(500),
  embedding_dim: int(SYNTH_BOUNDS.embedding_dim).default(128),
  seed: seed.optional(),
};

const SCHEMAS: Record<SynthgenModelType, z.ZodType<Record<string, unknown>>> = {
  ctgan: gan(),
  copulagan: gan(),
  tvae: z.strictObject(neural),
  gaussian_copula: z.strictObject({ seed: seed.optional() }),
};

function gan() {
  return z
    .strictObject({
      ...neural,
      generator_dim: layers.default([256, 256]),
      discriminator_dim: layers.default([256, 256]),
      pac: int(SYNTH_BOUNDS.pac).default(10),
    })
    .superRefine((c, ctx) => {
      if (c.batch_size % c.pac !== 0) ctx.addIssue({ code: 'custom', path: ['pac'], message: `pac (${c.pac}) must evenly divide batch_size (${c.batch_size})` });
    });
}

/** The model type, `ctgan` when omitted; 422 `Invalid model_type` otherwise. */
export function modelTypeOf(value: unknown): SynthgenModelType {
  if (value === undefined || value === null) return 'ctgan';
  if (typeof value === 'string' && (SYNTHGEN_MODEL_TYPES as readonly string[]).includes(value)) return value as SynthgenModelType;
  throw new ValidationError(INVALID_MODEL_TYPE);
}

/**
 * A model type's config with the spec's defaults filled in, or 422 naming each bad field (`['body', 'config',
 * 'pac']`): unknown keys, wrong types, values out of bounds, `pac` not dividing `batch_size`. The engine then
 * checks what it knows of its own (its message becomes the 422's).
 */
export function resolveModelConfig(type: SynthgenModelType, config: unknown): SynthConfig {
  const parsed = SCHEMAS[type].safeParse(config ?? {});
  if (!parsed.success) {
    const issues: FieldIssue[] = parsed.error.issues.map((i) => ({
      loc: ['body', 'config', ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      msg: i.message,
      type: i.code,
    }));
    throw new ValidationError(issues);
  }
  try {
    return validateSynthConfig(type, parsed.data);
  } catch (err) {
    throw ValidationError.field(['body', 'config'], err instanceof Error ? err.message : String(err));
  }
}

/** The neural model types: trained in a worker thread with checkpoints, on the GPU queue when asked and possible. */
export function isNeural(type: SynthgenModelType): boolean {
  return type !== 'gaussian_copula';
}

/** The model types endpoint's catalogue. */
export const MODEL_TYPE_CATALOGUE: { id: SynthgenModelType; name: string; description: string }[] = [
  {
    id: 'ctgan',
    name: 'CTGAN',
    description:
      'Conditional tabular GAN: mode-specific normalization of numeric columns (variational Gaussian mixture), a conditional vector with training-by-sampling, a PacGAN discriminator and the WGAN-GP loss. Options: epochs, batch_size, embedding_dim, generator_dim, discriminator_dim, pac (divides batch_size).',
  },
  {
    id: 'copulagan',
    name: 'CopulaGAN',
    description: "CTGAN on columns first passed through the Gaussian copula's marginal distributions. Options as ctgan.",
  },
  {
    id: 'tvae',
    name: 'TVAE',
    description: "Tabular variational autoencoder on CTGAN's data transformer. Options: epochs, batch_size, embedding_dim.",
  },
  {
    id: 'gaussian_copula',
    name: 'Gaussian copula',
    description:
      'Per-column marginal distributions (the best fitting parametric family by KS, or the empirical one) joined by a correlation matrix of normal scores. Fast; no training epochs. Option: seed.',
  },
];
