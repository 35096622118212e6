/**
 * engine/synth: synthetic tabular data. Gaussian copula, CTGAN, TVAE and CopulaGAN models fitted on a `Frame`,
 * sampled in batches, and judged by SDMetrics' quality report and a distance-to-closest-record privacy check.
 * The only door callers use.
 */
export * from './types';
// TEMPORARY on branch synth-api: the declared engine API (facade.ts), replaced by the real engine at merge.
export * from './facade';
