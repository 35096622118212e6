/**
 * The synthetic-data engine's contract: what the application layer hands in and gets back. Pure data types; no
 * HTTP, no database, no Temporal. Tables are the AutoML engine's column-major `Frame` (numbers as Float64Array with
 * NaN missing, categoricals as codes + levels with -1 missing, datetimes as epoch milliseconds with NaN missing).
 */
import type { Frame } from '../automl';

export type { Frame };

export const SYNTH_MODEL_TYPES = ['ctgan', 'copulagan', 'tvae', 'gaussian_copula'] as const;
export type SynthModelType = (typeof SYNTH_MODEL_TYPES)[number];

/** `ctgan` and `copulagan` options, with the spec's defaults (`pac` must divide `batch_size`). */
export interface CtganConfig {
  epochs: number; // 300
  batch_size: number; // 500
  embedding_dim: number; // 128
  generator_dim: number[]; // [256, 256]
  discriminator_dim: number[]; // [256, 256]
  pac: number; // 10
  seed?: number;
}

/** `tvae` options, with the spec's defaults. */
export interface TvaeConfig {
  epochs: number; // 300
  batch_size: number; // 500
  embedding_dim: number; // 128
  seed?: number;
}

/** `gaussian_copula` options. */
export interface CopulaConfig {
  seed?: number;
}

export type SynthConfig = CtganConfig | TvaeConfig | CopulaConfig;

/** How a source column comes back: its kind, whether it held only integers, its range and missing share. */
export interface SynthColumnMeta {
  name: string;
  kind: 'numeric' | 'categorical' | 'datetime';
  /** Numeric or datetime columns whose every present value is a whole number (sampled values are rounded). */
  integer: boolean;
  /** Present values' range (numeric: the values; datetime: epoch ms); null for categoricals or all-missing columns. */
  min: number | null;
  max: number | null;
  /** Share of missing cells, reproduced in samples. */
  missingRate: number;
}

/** Progress of a fit: `fraction` 0..1 and a line for the user (neural models: the epoch and its loss values). */
export type FitProgress = (fraction: number, message: string) => void;

/**
 * Opaque, versioned training state of a neural model (weights, optimizer moments, the epoch reached, the random
 * generator's state). A fit that is handed one resumes after its epoch instead of starting over.
 */
export type FitCheckpoint = Uint8Array;

export interface FitHooks {
  onProgress?: FitProgress;
  /**
   * Called from inside a neural fit's batch loop when a long epoch has reported nothing for a while (every two seconds
   * at most): a host that must show it is alive (an activity's heartbeat) listens here.
   */
  onPulse?: () => void;
  /** Cooperative cancel: checked between epochs (and between batches); an aborted fit rejects with the signal's reason. */
  signal?: AbortSignal;
  /** A checkpoint saved by an earlier attempt of the same fit. */
  resumeFrom?: FitCheckpoint | null;
  /** Called with a fresh checkpoint after an epoch, at most every `checkpointEverySecs` (default 10 s). */
  onCheckpoint?: (checkpoint: FitCheckpoint, epoch: number) => Promise<void>;
  checkpointEverySecs?: number;
  /** Threads of a neural fit's wasm backend (default 0: every core; 1 keeps it on its own thread). */
  threads?: number;
}

/** A fitted model, serialized (`serializeSynthesizer`) as the model's artifact. */
export interface SynthesizerModel {
  type: SynthModelType;
  formatVersion: number;
  columns: SynthColumnMeta[];
  /** The model family's own parameters. */
  params: unknown;
}

/** Exact column-value constraints for generation: every generated row holds these values. */
export type SynthConditions = Record<string, string | number | boolean>;

export interface SampleOptions {
  seed?: number;
  conditions?: SynthConditions;
  /** Rows per yielded batch (bounded memory whatever `numRows` is). */
  batchRows?: number;
}

/**
 * SDMetrics' quality report on real vs synthetic data (its definitions, SDMetrics 0.32; scores 0..1). A score is null
 * where SDMetrics gives NaN (a constant or empty column). Column pair trends average only the pairs whose real
 * correlation (|r| > 0.5) or association (Cramér's V > 0.3) meets SDMetrics' thresholds; every pair is still listed,
 * with `meets_threshold`. The overall score is the mean of the property scores that exist.
 */
export interface QualityReport {
  overall_score: number;
  column_shapes: {
    score: number | null;
    columns: Array<{ column: string; metric: 'KSComplement' | 'TVComplement'; score: number | null }>;
  };
  column_pair_trends: {
    score: number | null;
    pairs: Array<{
      columns: [string, string];
      metric: 'CorrelationSimilarity' | 'ContingencySimilarity';
      score: number | null;
      real_correlation?: number | null;
      synthetic_correlation?: number | null;
      /** Cramér's V of the real pair (ContingencySimilarity pairs). */
      real_association?: number | null;
      /** Whether the pair counts toward the property score (SDMetrics' real correlation/association thresholds). */
      meets_threshold: boolean;
    }>;
    real_correlation_threshold: number;
    real_association_threshold: number;
    /** Pairs scored (at most the documented bound) out of all column pairs. */
    pairs_evaluated: number;
    pairs_total: number;
  };
  /** Rows read from each side (both are sampled to a bound). */
  rows_compared: { real: number; synthetic: number };
}

/** Distance to closest record: how close synthetic rows sit to the training rows, against a holdout's distance. */
export interface PrivacyCheck {
  /** Share of synthetic rows that equal a training row exactly. */
  copied_rows_share: number;
  /** Median distance from a synthetic row to its closest training row (rows normalized to 0..1 per column). */
  median_dcr_synthetic: number;
  /** Median distance from a holdout row (real, unseen by the model) to its closest training row. */
  median_dcr_holdout: number;
  /** Rows compared (both sides are sampled to a bound). */
  rows_compared: number;
}
