/**
 * k distinct row indices of [0, n), ascending (all of them when k ≥ n), in one pass: the AutoML engine's selection
 * sampling. Every row bound in engine/synth (fit rows, quality and privacy samples) draws with this.
 */
export { sampleWithoutReplacement as sampleRowIndices } from '../automl';
