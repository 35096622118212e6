/**
 * The neural models' options: the spec's defaults (those of the ctgan package) and their checks. A bad option is a
 * `NeuralConfigError` with a message a user can act on ("pac (7) must divide batch_size (500)").
 */
import type { CtganConfig, TvaeConfig } from '../types';

export type NeuralModelType = 'ctgan' | 'tvae' | 'copulagan';

export const CTGAN_DEFAULTS: CtganConfig = { epochs: 300, batch_size: 500, embedding_dim: 128, generator_dim: [256, 256], discriminator_dim: [256, 256], pac: 10 };
export const TVAE_DEFAULTS: TvaeConfig = { epochs: 300, batch_size: 500, embedding_dim: 128 };

/** TVAE's encoder and decoder widths, learning rate, L2 scale and loss factor (the ctgan package's). */
export const TVAE_FIXED = { compress_dims: [128, 128], decompress_dims: [128, 128], lr: 1e-3, l2scale: 1e-5, loss_factor: 2 };

/** Largest accepted epochs / widths, so one request cannot ask for unbounded work or memory. */
export const NEURAL_LIMITS = { epochs: 10_000, batch_size: 100_000, width: 4096, layers: 8 };

/** An invalid option of a neural model. */
export class NeuralConfigError extends Error {
  readonly name = 'NeuralConfigError';
}

function positiveInt(name: string, v: unknown, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw new NeuralConfigError(`${name} must be an integer between 1 and ${max}`);
  return v;
}

function dims(name: string, v: unknown): number[] {
  if (!Array.isArray(v) || v.length < 1 || v.length > NEURAL_LIMITS.layers) throw new NeuralConfigError(`${name} must be a list of 1 to ${NEURAL_LIMITS.layers} layer widths`);
  return v.map((d, i) => positiveInt(`${name}[${i}]`, d, NEURAL_LIMITS.width));
}

function seedOf(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new NeuralConfigError('seed must be an integer');
  return v;
}

/** CTGAN / CopulaGAN options with defaults filled in; throws NeuralConfigError when one is invalid. */
export function resolveCtganConfig(input: Partial<CtganConfig> = {}): CtganConfig {
  const c = { ...CTGAN_DEFAULTS, ...stripUndefined(input) };
  const out: CtganConfig = {
    epochs: positiveInt('epochs', c.epochs, NEURAL_LIMITS.epochs),
    batch_size: positiveInt('batch_size', c.batch_size, NEURAL_LIMITS.batch_size),
    embedding_dim: positiveInt('embedding_dim', c.embedding_dim, NEURAL_LIMITS.width),
    generator_dim: dims('generator_dim', c.generator_dim),
    discriminator_dim: dims('discriminator_dim', c.discriminator_dim),
    pac: positiveInt('pac', c.pac, NEURAL_LIMITS.batch_size),
  };
  if (out.batch_size % out.pac !== 0) throw new NeuralConfigError(`pac (${out.pac}) must divide batch_size (${out.batch_size})`);
  const seed = seedOf(c.seed);
  return seed === undefined ? out : { ...out, seed };
}

/** TVAE options with defaults filled in; throws NeuralConfigError when one is invalid. */
export function resolveTvaeConfig(input: Partial<TvaeConfig> = {}): TvaeConfig {
  const c = { ...TVAE_DEFAULTS, ...stripUndefined(input) };
  const out: TvaeConfig = {
    epochs: positiveInt('epochs', c.epochs, NEURAL_LIMITS.epochs),
    batch_size: positiveInt('batch_size', c.batch_size, NEURAL_LIMITS.batch_size),
    embedding_dim: positiveInt('embedding_dim', c.embedding_dim, NEURAL_LIMITS.width),
  };
  const seed = seedOf(c.seed);
  return seed === undefined ? out : { ...out, seed };
}

/** Options of a model type, resolved (see resolveCtganConfig / resolveTvaeConfig). */
export function resolveNeuralConfig(type: NeuralModelType, input: Partial<CtganConfig> | Partial<TvaeConfig> = {}): CtganConfig | TvaeConfig {
  return type === 'tvae' ? resolveTvaeConfig(input as Partial<TvaeConfig>) : resolveCtganConfig(input as Partial<CtganConfig>);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
