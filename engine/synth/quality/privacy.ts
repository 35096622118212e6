/**
 * Distance to closest record (DCR), with SDMetrics' distance (sdmetrics.single_table.privacy.dcr_utils): per column, a
 * numeric or datetime difference divided by the training column's range and capped at 1 (a zero range counts any
 * difference as 1), a category mismatch as 1; one side missing counts 1, both missing 0; a row's distance is the mean
 * over columns. A synthetic row's DCR is its distance to the closest training row; the holdout rows' DCRs (real rows
 * the model never saw) are the baseline a private model should not undercut.
 *
 * Bounds: PRIVACY_MAX_QUERY_ROWS synthetic and holdout rows are compared with PRIVACY_MAX_REFERENCE_ROWS training
 * rows (seeded samples past that), brute force with early exit, so at most 2 × 2,000 × 10,000 row pairs. Exact
 * copies are counted on up to PRIVACY_MAX_COPY_ROWS synthetic rows against up to PRIVACY_MAX_HASHED_TRAIN_ROWS training
 * rows (every one in all but huge tables), hashed.
 */
import { Frame } from '../../automl';
import type { PrivacyCheck } from '../types';
import { matchColumns, prepareSides, sampleRows, SideColumn } from './prepare';

export const PRIVACY_MAX_QUERY_ROWS = 2_000;
export const PRIVACY_MAX_REFERENCE_ROWS = 10_000;
export const PRIVACY_MAX_COPY_ROWS = 100_000;
export const PRIVACY_MAX_HASHED_TRAIN_ROWS = 1_000_000;

export interface PrivacyOptions {
  maxQueryRows?: number;
  maxReferenceRows?: number;
  seed?: number;
}

/** The privacy check of `synthetic` against the model's training rows and a holdout of real rows it never saw. */
export function privacyCheck(train: Frame, holdout: Frame, synthetic: Frame, opts: PrivacyOptions = {}): PrivacyCheck {
  if (train.nrows === 0) throw new Error('The privacy check needs training rows');
  if (train.columns.length === 0) throw new Error('The privacy check needs at least one column');
  const maxQuery = opts.maxQueryRows ?? PRIVACY_MAX_QUERY_ROWS;
  const maxRef = opts.maxReferenceRows ?? PRIVACY_MAX_REFERENCE_ROWS;
  const seed = opts.seed ?? 0;
  const synColumns = matchColumns(train, synthetic, 'synthetic');
  const holdColumns = matchColumns(train, holdout, 'holdout');
  const ranges = train.columns.map((c) => {
    if (c.kind === 'categorical') return 0;
    const v = c.kind === 'numeric' ? c.values : c.epochMs;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < v.length; i++) {
      if (Number.isNaN(v[i])) continue;
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
    }
    return hi >= lo ? hi - lo : 0;
  });

  const copyRows = sampleRows(synthetic.nrows, PRIVACY_MAX_COPY_ROWS, seed + 3);
  const allTrain = sampleRows(train.nrows, PRIVACY_MAX_HASHED_TRAIN_ROWS, seed + 4);
  const [trainAll, synCopy] = prepareSides([
    { columns: train.columns, rows: allTrain },
    { columns: synColumns, rows: copyRows },
  ]);
  const copied = countCopies(trainAll, synCopy, allTrain.length, copyRows.length);

  const [ref, syn, hold] = prepareSides([
    { columns: train.columns, rows: sampleRows(train.nrows, maxRef, seed) },
    { columns: synColumns, rows: sampleRows(synthetic.nrows, maxQuery, seed + 1) },
    { columns: holdColumns, rows: sampleRows(holdout.nrows, maxQuery, seed + 2) },
  ]);
  const synDcr = closestDistances(syn, ref, ranges);
  const holdDcr = closestDistances(hold, ref, ranges);
  return {
    copied_rows_share: copyRows.length ? copied / copyRows.length : 0,
    median_dcr_synthetic: median(synDcr),
    median_dcr_holdout: median(holdDcr),
    rows_compared: synDcr.length,
  };
}

function rowsOf(side: SideColumn[]): number {
  const c = side[0];
  return c.kind === 'categorical' ? c.ids.length : c.values.length;
}

/** The distance of each query row to its closest reference row (SDMetrics' DCR distance, see the header). */
function closestDistances(query: SideColumn[], ref: SideColumn[], ranges: number[]): Float64Array {
  const p = ref.length;
  const nq = rowsOf(query);
  const nr = rowsOf(ref);
  const out = new Float64Array(nq);
  for (let i = 0; i < nq; i++) {
    // Distances only grow column by column, so a reference row is dropped once it passes the best so far.
    let best = Infinity;
    for (let r = 0; r < nr && best > 0; r++) {
      let sum = 0;
      const limit = best * p;
      for (let j = 0; j < p && sum < limit; j++) sum += cellDistance(query[j], ref[j], i, r, ranges[j]);
      if (sum < limit) best = sum / p;
    }
    out[i] = nr ? best : NaN;
  }
  return out;
}

function cellDistance(q: SideColumn, r: SideColumn, i: number, k: number, range: number): number {
  if (q.kind === 'categorical' || r.kind === 'categorical') {
    const a = (q as { ids: Int32Array }).ids[i];
    const b = (r as { ids: Int32Array }).ids[k];
    return a === b ? 0 : 1;
  }
  const a = q.values[i];
  const b = r.values[k];
  const am = Number.isNaN(a);
  const bm = Number.isNaN(b);
  if (am || bm) return am && bm ? 0 : 1;
  const diff = Math.abs(a - b);
  if (range === 0) return diff > 0 ? 1 : 0;
  return Math.min(diff / range, 1);
}

/** FNV-1a style hash of a row over its cells (numbers by value, categories by their shared id). */
function rowHash(side: SideColumn[], i: number): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const buf = new Float64Array(1);
  const bytes = new Uint32Array(buf.buffer);
  for (const c of side) {
    buf[0] = c.kind === 'categorical' ? c.ids[i] : Number.isNaN(c.values[i]) ? NaN : c.values[i] + 0; // + 0 folds −0 into 0
    for (let w = 0; w < 2; w++) {
      h1 = Math.imul(h1 ^ bytes[w], 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ bytes[w], 0x5bd1e995) >>> 0;
    }
  }
  return (h1 & 0x1fffff) * 4294967296 + h2;
}

function sameRow(a: SideColumn[], i: number, b: SideColumn[], k: number): boolean {
  for (let j = 0; j < a.length; j++) {
    const x = a[j];
    const y = b[j];
    if (x.kind === 'categorical' || y.kind === 'categorical') {
      if ((x as { ids: Int32Array }).ids[i] !== (y as { ids: Int32Array }).ids[k]) return false;
      continue;
    }
    const u = x.values[i];
    const v = y.values[k];
    if (!(u === v || (Number.isNaN(u) && Number.isNaN(v)))) return false;
  }
  return true;
}

/** Synthetic rows equal, cell for cell (missing equal to missing), to some training row. */
function countCopies(train: SideColumn[], syn: SideColumn[], nTrain: number, nSyn: number): number {
  const index = new Map<number, number[]>();
  for (let i = 0; i < nTrain; i++) {
    const h = rowHash(train, i);
    const list = index.get(h);
    if (list) list.push(i);
    else index.set(h, [i]);
  }
  let copies = 0;
  for (let i = 0; i < nSyn; i++) {
    const candidates = index.get(rowHash(syn, i));
    if (candidates && candidates.some((k) => sameRow(syn, i, train, k))) copies++;
  }
  return copies;
}

function median(x: Float64Array): number {
  const v = x.filter((d) => !Number.isNaN(d)).sort();
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}
