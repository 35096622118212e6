/**
 * Drift of a deployment's inputs against its training data: PSI per feature (see psi.ts for the formula and
 * the thresholds).
 *
 * The reference side is the training dataset version, read by DuckDB (any size): numeric features are binned at
 * the reference's deciles (bin i holds edgeᵢ₋₁ < x ≤ edgeᵢ, as everywhere in psi.ts); categorical features keep
 * the reference's most frequent categories and pool the rest, and any category the reference never saw, in an
 * "other" bucket, so a long tail of rare values (ids, free text) cannot inflate PSI by itself. Unlike version
 * comparison, missing values are a bin of their own on both sides: a feature that arrives empty in production has
 * drifted even when its present values have not.
 *
 * The current side is what a deployment logged (bounded by the caller), counted in memory into the reference's bins.
 */
import { DuckDBConnection } from '@duckdb/node-api';
import { getOwn, setOwn } from '../own-keys';
import { parquetSource, quantileSql, queryOne, queryRows, sqlIdent, sqlString, toNumber, withConnection } from './duck';
import { sqlDouble } from './histogram';
import { binCounts, PSI_BINS, psiFromCounts, ShiftLevel, shiftLevel } from './psi';

/** How many of the reference's categories keep a bin of their own; the rest share "other". */
export const DRIFT_MAX_CATEGORIES = 20;

export interface DriftFeatureSpec {
  name: string;
  /** A dataset dtype (`Dtype`): int64, float64 and datetime64 are binned as numbers, anything else as categories. */
  dtype: string;
}

/** A feature's reference bins and counts; `missing` counts nulls (and, for numbers, non-finite values). */
export type ReferenceBins =
  | { kind: 'numeric'; edges: number[]; counts: number[]; missing: number }
  | { kind: 'categorical'; categories: string[]; counts: number[]; other: number; missing: number };

export interface ReferenceDistribution {
  rows: number;
  features: Record<string, ReferenceBins>;
}

export interface FeatureDrift {
  psi: number;
  status: ShiftLevel;
}

export interface DriftReport {
  /** The worst feature status (`low` when there are no features). */
  overall_status: ShiftLevel;
  /** The largest feature PSI. */
  max_psi: number;
  features: Record<string, FeatureDrift>;
  inference_rows: number;
  reference_rows: number;
}

function isNumericDtype(d: string): boolean {
  return d === 'int64' || d === 'float64' || d === 'datetime64';
}

/** A DOUBLE SQL expression of a numeric feature (timestamps as epoch milliseconds, as `numberOf` reads them). */
function numericExpr(f: DriftFeatureSpec): string {
  const c = sqlIdent(f.name);
  const x = f.dtype === 'datetime64' ? `CAST(epoch_ms(CAST(${c} AS TIMESTAMP)) AS DOUBLE)` : `CAST(${c} AS DOUBLE)`;
  return `CASE WHEN isfinite(${x}) THEN ${x} END`;
}

/** Bins at the reference's deciles: estimated past `EXACT_QUANTILE_VALUES` rows (`total`), in bounded memory. */
async function numericReference(conn: DuckDBConnection, src: string, f: DriftFeatureSpec, bins: number, total: number): Promise<ReferenceBins> {
  const x = numericExpr(f);
  const qs = Array.from({ length: bins - 1 }, (_, i) => (i + 1) / bins).join(', ');
  const q = await queryOne(conn, `SELECT ${quantileSql(x, `[${qs}]`, total)} AS q, count(*) FILTER (WHERE ${x} IS NULL) AS missing FROM ${src}`);
  const quantiles = ((q.q as { items?: unknown[] } | null)?.items ?? []).map((v) => Number(v)).filter((v) => Number.isFinite(v));
  const edges = [...new Set(quantiles)].sort((a, b) => a - b);
  const counts = new Array<number>(edges.length + 1).fill(0);
  const edgeList = `[${edges.map(sqlDouble).join(', ')}]::DOUBLE[]`;
  const rows = await queryRows(conn, `SELECT len(list_filter(${edgeList}, e -> e < x)) AS b, count(*) AS n FROM (SELECT ${x} AS x FROM ${src}) WHERE x IS NOT NULL GROUP BY ALL`);
  for (const r of rows) counts[toNumber(r.b) ?? 0] += toNumber(r.n) ?? 0;
  return { kind: 'numeric', edges, counts, missing: toNumber(q.missing) ?? 0 };
}

/**
 * The `maxCategories` most frequent categories; the rest counted, not listed: an identifier column of millions of
 * distinct values must not come back to JavaScript as millions of rows.
 */
async function categoricalReference(conn: DuckDBConnection, src: string, f: DriftFeatureSpec, maxCategories: number): Promise<ReferenceBins> {
  const c = `CAST(${sqlIdent(f.name)} AS VARCHAR)`;
  // Named apart from the data's columns (a column may be called `k`) by the subquery.
  const top = await queryRows(
    conn,
    `SELECT * FROM (SELECT ${c} AS k, count(*) AS n FROM ${src} GROUP BY ALL) WHERE k IS NOT NULL ORDER BY n DESC, k LIMIT ${Math.max(0, Math.floor(maxCategories))}`,
  );
  const totals = await queryOne(conn, `SELECT count(${c}) AS present, count(*) - count(${c}) AS missing FROM ${src}`);
  const categories = top.map((r) => String(r.k));
  const counts = top.map((r) => toNumber(r.n) ?? 0);
  const other = (toNumber(totals.present) ?? 0) - counts.reduce((a, b) => a + b, 0);
  return { kind: 'categorical', categories, counts, other, missing: toNumber(totals.missing) ?? 0 };
}

/**
 * The reference bins of each feature, from the training data's Parquet file. `onFeature` is called after each
 * feature (progress, heartbeats); features missing from the file are left out.
 */
export async function referenceDistribution(
  parquetPath: string,
  features: readonly DriftFeatureSpec[],
  opts: { bins?: number; maxCategories?: number; onFeature?: (done: number, total: number) => void | Promise<void> } = {},
): Promise<ReferenceDistribution> {
  const src = parquetSource(parquetPath);
  return withConnection(async (conn) => {
    const present = new Set((await queryRows(conn, `SELECT name FROM parquet_schema(${sqlString(parquetPath)})`)).map((r) => String(r.name)));
    const total = toNumber((await queryOne(conn, `SELECT count(*) AS n FROM ${src}`)).n) ?? 0;
    const out: Record<string, ReferenceBins> = {};
    let done = 0;
    for (const f of features) {
      if (present.has(f.name)) {
        const bins = isNumericDtype(f.dtype)
          ? await numericReference(conn, src, f, opts.bins ?? PSI_BINS, total)
          : await categoricalReference(conn, src, f, opts.maxCategories ?? DRIFT_MAX_CATEGORIES);
        setOwn(out, f.name, bins);
      }
      await opts.onFeature?.(++done, features.length);
    }
    return { rows: total, features: out };
  });
}

/** A logged value as a number, or null when it is missing or not a number (a timestamp string: epoch milliseconds). */
function numberOf(v: unknown, dtype: string): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string' || v.trim() === '') return null;
  const n = dtype === 'datetime64' ? Date.parse(v) : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Counts of one feature's logged values in its reference bins, the missing bin last. */
function currentCounts(ref: ReferenceBins, name: string, rows: readonly Record<string, unknown>[], dtype: string): number[] {
  if (ref.kind === 'numeric') {
    const values: number[] = [];
    let missing = 0;
    for (const r of rows) {
      const n = numberOf(getOwn(r, name), dtype);
      if (n === null) missing++;
      else values.push(n);
    }
    return [...binCounts(values, ref.edges), missing];
  }
  const index = new Map(ref.categories.map((c, i) => [c, i]));
  const counts = new Array<number>(ref.categories.length + 2).fill(0);
  const otherBin = ref.categories.length;
  for (const r of rows) {
    const v = getOwn(r, name);
    if (v === null || v === undefined) counts[otherBin + 1]++;
    else counts[index.get(typeof v === 'string' ? v : JSON.stringify(v)) ?? otherBin]++;
  }
  return counts;
}

function referenceCounts(ref: ReferenceBins): number[] {
  return ref.kind === 'numeric' ? [...ref.counts, ref.missing] : [...ref.counts, ref.other, ref.missing];
}

const LEVEL_ORDER: ShiftLevel[] = ['low', 'moderate', 'high'];

/** PSI of each feature's logged values against its reference bins, and the worst status overall. */
export function driftReport(reference: ReferenceDistribution, features: readonly DriftFeatureSpec[], rows: readonly Record<string, unknown>[]): DriftReport {
  const out: Record<string, FeatureDrift> = {};
  let worst = 0;
  let maxPsi = 0;
  for (const f of features) {
    const ref = getOwn(reference.features, f.name);
    if (!ref) continue;
    const psi = psiFromCounts(referenceCounts(ref), currentCounts(ref, f.name, rows, f.dtype));
    const status = shiftLevel(psi);
    setOwn(out, f.name, { psi, status });
    worst = Math.max(worst, LEVEL_ORDER.indexOf(status));
    maxPsi = Math.max(maxPsi, psi);
  }
  return { overall_status: LEVEL_ORDER[worst], max_psi: maxPsi, features: out, inference_rows: rows.length, reference_rows: reference.rows };
}
