/**
 * SDMetrics' single-table QualityReport (version 0.32): Column Shapes (KSComplement for numeric and datetime columns,
 * TVComplement for categorical ones) and Column Pair Trends (CorrelationSimilarity for two numeric/datetime columns,
 * ContingencySimilarity otherwise, a numeric column binned when paired with a categorical one), each property the mean
 * of its scores, the overall score the mean of the properties.
 *
 * Bounds: each side is sampled to QUALITY_MAX_ROWS rows (SDMetrics' own subsample size for contingency tables; it
 * reads every row for the other metrics, so larger tables can differ by the sampling noise), and at most
 * QUALITY_MAX_PAIRS column pairs are scored (a seeded random subset past that).
 */
import { Frame } from '../../automl';
import type { QualityReport } from '../types';
import { contingencySimilarity, correlationSimilarity, cramersV, discretize, ksComplement, tvComplement } from './metrics';
import { matchColumns, prepareSides, sampleRows, SideColumn } from './prepare';
import { sampleRowIndices } from '../sampling';
import { Rng } from '../../automl';

export const QUALITY_MAX_ROWS = 50_000;
export const QUALITY_MAX_PAIRS = 1_000;
/** SDMetrics' QualityReport defaults: pairs weaker than this in the real data do not count toward the pair score. */
export const DEFAULT_REAL_CORRELATION_THRESHOLD = 0.5;
export const DEFAULT_REAL_ASSOCIATION_THRESHOLD = 0.3;

export interface QualityOptions {
  maxRows?: number;
  maxPairs?: number;
  /** Seed of the row and pair samples (default 0: the same inputs give the same report). */
  seed?: number;
  /** 0 counts every pair, as SDMetrics before its thresholds. */
  realCorrelationThreshold?: number;
  realAssociationThreshold?: number;
}

type Pair = QualityReport['column_pair_trends']['pairs'][number];

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

function meanOf(xs: Array<number | null>): number | null {
  const present = xs.filter((x): x is number => x !== null);
  return present.length ? present.reduce((s, x) => s + x, 0) / present.length : null;
}

/** The quality report of `synthetic` against `real` (columns matched by name, the real frame's columns scored). */
export function evaluateQuality(real: Frame, synthetic: Frame, opts: QualityOptions = {}): QualityReport {
  const maxRows = opts.maxRows ?? QUALITY_MAX_ROWS;
  const maxPairs = opts.maxPairs ?? QUALITY_MAX_PAIRS;
  const seed = opts.seed ?? 0;
  const corrThreshold = opts.realCorrelationThreshold ?? DEFAULT_REAL_CORRELATION_THRESHOLD;
  const assocThreshold = opts.realAssociationThreshold ?? DEFAULT_REAL_ASSOCIATION_THRESHOLD;
  if (real.columns.length === 0) throw new Error('The quality report needs at least one column');
  const synColumns = matchColumns(real, synthetic, 'synthetic');
  const realRows = sampleRows(real.nrows, maxRows, seed);
  const synRows = sampleRows(synthetic.nrows, maxRows, seed + 1);
  const [r, s] = prepareSides([
    { columns: real.columns, rows: realRows },
    { columns: synColumns, rows: synRows },
  ]);
  const names = real.names;

  const columns = r.map((rc, j) => {
    const sc = s[j];
    if (rc.kind === 'categorical') {
      return { column: names[j], metric: 'TVComplement' as const, score: finite(tvComplement(rc.labels, (sc as Extract<SideColumn, { kind: 'categorical' }>).labels)) };
    }
    // Datetimes are compared on epoch ms: KS only sees the order, and whole milliseconds need no rounding.
    return { column: names[j], metric: 'KSComplement' as const, score: finite(ksComplement(rc.values, numericValues(sc), rc.kind === 'numeric')) };
  });

  // Numeric columns binned on each side's own range, for their pairs with categorical columns.
  const bins = (side: SideColumn[]): Array<Int32Array | null> => side.map((c) => (c.kind === 'categorical' ? null : discretize(c.values)));
  const realBins = bins(r);
  const synBins = bins(s);
  const ncol = names.length;
  const pairsTotal = (ncol * (ncol - 1)) / 2;
  const chosen = sampleRowIndices(pairsTotal, maxPairs, new Rng(seed + 2));
  const pairs: Pair[] = [];
  let next = 0;
  let index = 0;
  for (let a = 0; a < ncol && next < chosen.length; a++) {
    for (let b = a + 1; b < ncol && next < chosen.length; b++, index++) {
      if (chosen[next] !== index) continue;
      next++;
      pairs.push(scorePair(names, a, b, r, s, realBins, synBins, corrThreshold, assocThreshold));
    }
  }
  const shapes = meanOf(columns.map((c) => c.score));
  const trends = meanOf(pairs.filter((p) => p.meets_threshold).map((p) => p.score));
  const overall = meanOf([shapes, trends]);
  if (overall === null) throw new Error('No column could be compared: every column is empty or constant on a side');
  return {
    overall_score: overall,
    column_shapes: { score: shapes, columns },
    column_pair_trends: {
      score: trends,
      pairs,
      real_correlation_threshold: corrThreshold,
      real_association_threshold: assocThreshold,
      pairs_evaluated: pairs.length,
      pairs_total: pairsTotal,
    },
    rows_compared: { real: realRows.length, synthetic: synRows.length },
  };
}

function numericValues(c: SideColumn): Float64Array {
  if (c.kind === 'categorical') throw new Error('internal: expected a numeric column');
  return c.values;
}

function keysOf(c: SideColumn, binned: Int32Array | null): Int32Array {
  return c.kind === 'categorical' ? c.ids : (binned as Int32Array);
}

function scorePair(
  names: string[],
  a: number,
  b: number,
  r: SideColumn[],
  s: SideColumn[],
  realBins: Array<Int32Array | null>,
  synBins: Array<Int32Array | null>,
  corrThreshold: number,
  assocThreshold: number,
): Pair {
  const columns: [string, string] = [names[a], names[b]];
  const ra = r[a];
  const rb = r[b];
  if (ra.kind !== 'categorical' && rb.kind !== 'categorical') {
    const res = correlationSimilarity(ra.values, rb.values, numericValues(s[a]), numericValues(s[b]));
    const meets = Number.isFinite(res.score) && (corrThreshold <= 0 || Math.abs(res.real) > corrThreshold);
    return { columns, metric: 'CorrelationSimilarity', score: finite(res.score), real_correlation: finite(res.real), synthetic_correlation: finite(res.synthetic), meets_threshold: meets };
  }
  const rka = keysOf(ra, realBins[a]);
  const rkb = keysOf(rb, realBins[b]);
  const score = contingencySimilarity(rka, rkb, keysOf(s[a], synBins[a]), keysOf(s[b], synBins[b]));
  let meets = true;
  let association: number | null = null;
  if (assocThreshold > 0) {
    association = finite(cramersV(rka, rkb));
    meets = association !== null && association > assocThreshold;
  }
  return { columns, metric: 'ContingencySimilarity', score: finite(score), real_association: association, meets_threshold: meets };
}
