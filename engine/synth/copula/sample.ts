/**
 * Sampling a fitted Gaussian copula: latent rows z ~ N(0, R) by Cholesky (conditioned when conditions are given),
 * then each column back through its encoding — a numeric value x = F⁻¹(Φ(z)), a category by the interval Φ(z) falls
 * in, missing cells from the missing indicator — and the shared finishing step (ranges, whole numbers).
 */
import { Column, Frame, makeFrame, Rng } from '../../automl';
import { columnOf, finishNumeric } from '../columns';
import type { SampleOptions, SynthesizerModel } from '../types';
import { resolveConditions } from './conditions';
import { marginalFromJSON } from './marginals';
import { COPULA_FORMAT_VERSION, CopulaParams, intervalOf } from './model';
import { normCdf } from './special';
import { Gaussian, LatentSampler } from './tmvn';

/** Rows per yielded batch unless `batchRows` says otherwise. */
export const DEFAULT_BATCH_ROWS = 10_000;

/**
 * Generates `numRows` rows in batches of `opts.batchRows` (default 10,000), so memory stays bounded whatever the
 * row count. The same model, seed, conditions and batch size give the same rows. Conditions that cannot be met
 * throw SynthConditionError before any row is made.
 */
export function* sampleGaussianCopulaBatches(model: SynthesizerModel, numRows: number, opts: SampleOptions = {}): Generator<Frame> {
  if (model.type !== 'gaussian_copula') throw new Error(`sampleGaussianCopula: expected a gaussian_copula model, got ${model.type}`);
  if (model.formatVersion !== COPULA_FORMAT_VERSION) throw new Error(`sampleGaussianCopula: unsupported model format version ${model.formatVersion}`);
  if (!Number.isInteger(numRows) || numRows < 0) throw new Error(`sampleGaussianCopula: numRows must be a non-negative integer, got ${numRows}`);
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  if (!Number.isInteger(batchRows) || batchRows < 1) throw new Error(`sampleGaussianCopula: batchRows must be a positive integer, got ${batchRows}`);
  const params = model.params as CopulaParams;
  const d = params.dims;
  const marginals = params.encodings.map((e) => (e.kind === 'numeric' && e.marginal ? marginalFromJSON(e.marginal) : null));
  const { latent, fixed } = resolveConditions(model.columns, params, marginals, opts.conditions ?? {});
  const sampler = new LatentSampler(Float64Array.from(params.correlation), d, latent);
  const rng = new Rng(opts.seed ?? Math.floor(Math.random() * 2 ** 31));
  const gaussian = new Gaussian(rng);
  const names = model.columns.map((c) => c.name);
  const row = new Float64Array(d);
  for (let start = 0; start < numRows; start += batchRows) {
    const n = Math.min(batchRows, numRows - start);
    const z = Array.from({ length: d }, () => new Float64Array(n));
    for (let i = 0; i < n; i++) {
      sampler.draw(gaussian, row);
      for (let k = 0; k < d; k++) z[k][i] = row[k];
    }
    const columns: Column[] = model.columns.map((meta, j) => {
      const enc = params.encodings[j];
      const pinned = fixed.get(j);
      if (enc.kind === 'categorical') {
        const codes = new Int32Array(n);
        if (pinned !== undefined) codes.fill(pinned);
        else for (let i = 0; i < n; i++) codes[i] = enc.order[intervalOf(enc.cum, normCdf(z[enc.dim][i]))];
        return columnOf(meta, codes, params.levels[j]);
      }
      const values = new Float64Array(n);
      if (enc.valueDim < 0) values.fill(NaN);
      else if (pinned !== undefined) values.fill(pinned);
      else {
        const marginal = marginals[j];
        for (let i = 0; i < n; i++) {
          const missing = enc.missingDim >= 0 && normCdf(z[enc.missingDim][i]) >= enc.presentShare;
          values[i] = missing || !marginal ? NaN : marginal.ppf(normCdf(z[enc.valueDim][i]));
        }
        finishNumeric(meta, values, rng, false);
      }
      return columnOf(meta, values);
    });
    yield makeFrame(names, columns);
  }
}

/** All `numRows` rows in one frame (the batches concatenated); for small requests and tests. */
export function sampleGaussianCopula(model: SynthesizerModel, numRows: number, opts: SampleOptions = {}): Frame {
  const batches = [...sampleGaussianCopulaBatches(model, numRows, opts)];
  const names = model.columns.map((c) => c.name);
  const params = model.params as CopulaParams;
  const columns: Column[] = model.columns.map((meta, j) => {
    if (meta.kind === 'categorical') {
      const codes = new Int32Array(numRows);
      let at = 0;
      for (const b of batches) {
        const c = b.columns[j] as { codes: Int32Array };
        codes.set(c.codes, at);
        at += c.codes.length;
      }
      return columnOf(meta, codes, params.levels[j]);
    }
    const values = new Float64Array(numRows);
    let at = 0;
    for (const b of batches) {
      const c = b.columns[j];
      const v = c.kind === 'numeric' ? c.values : (c as { epochMs: Float64Array }).epochMs;
      values.set(v, at);
      at += v.length;
    }
    return columnOf(meta, values);
  });
  return makeFrame(names, columns);
}
