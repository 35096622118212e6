/**
 * Data quality report: a fixed list of checks, each with thresholds from a {@link QualityPolicy}.
 * overall_score = 100 × (passed checks / all checks), rounded to one decimal; a check that does not apply
 * (e.g. class balance without a categorical target) passes and says why.
 *
 * The report is part of every upload's answer, so it must cost little next to the ingest itself (bench/ingest:
 * 10M rows). Missing values come from the Parquet footer and constant columns and class counts are exact; a
 * table of more than {@link QUALITY_SAMPLE_ROWS} rows has its duplicate rows, identifier-like columns, mixed
 * types and outliers estimated on a hash sample, and those checks say so in their details. Up to that size
 * every check reads the whole table and is exact (the same numbers as `analyze`, which stays exact and is
 * computed on demand).
 */
import { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { baseDtype, describeColumns } from './dtypes';
import { parquetSource, queryOne, queryRows, sqlIdent, sqlString, toNumber, withConnection } from './duck';
import { sqlDouble } from './histogram';
import { isNumeric, openTable } from './table';
/** Thresholds of the quality checks. */
export interface QualityPolicy {
  /** A column with more missing values than this percentage fails the missing-values check. Default 20. */
  max_missing_percent: number;
  /** More duplicate rows than this percentage of rows fails. Default 5. */
  max_duplicate_percent: number;
  /** An object column whose distinct/non-null ratio reaches this is a high-cardinality identifier. Default 0.5. */
  max_text_unique_ratio: number;
  /** An int64 column whose distinct/non-null ratio reaches this is an identifier (row ids). Default 0.99. */
  max_integer_unique_ratio: number;
  /** Identifier checks only apply from this many non-null values on (tiny tables are all unique). Default 20. */
  min_rows_for_identifier: number;
  /** A text column is "mixed" when at least this share, but not all, of its values parse as numbers. Default 0.8. */
  mixed_type_numeric_share: number;
  /** A numeric column with more than this percentage of 1.5-IQR outliers fails. Default 5. */
  max_outlier_percent: number;
  /** Class balance fails when rarest/most frequent class count is below this. Default 0.2. */
  min_class_ratio: number;
  /** An int64 target with at most this many distinct values counts as categorical. Default 20. */
  max_target_classes: number;
}

/** Default thresholds (documented on {@link QualityPolicy}). */
export const DEFAULT_QUALITY_POLICY: Readonly<QualityPolicy> = Object.freeze({
  max_missing_percent: 20,
  max_duplicate_percent: 5,
  max_text_unique_ratio: 0.5,
  max_integer_unique_ratio: 0.99,
  min_rows_for_identifier: 20,
  mixed_type_numeric_share: 0.8,
  max_outlier_percent: 5,
  min_class_ratio: 0.2,
  max_target_classes: 20,
});

/** One check's outcome. */
export interface QualityCheck {
  name: string;
  passed: boolean;
  /** A readable sentence naming the columns concerned. */
  details: string;
}

/** Result of {@link qualityReport}. */
export interface QualityReport {
  overall_score: number;
  checks: QualityCheck[];
  /** The target column the class-balance check used, if any. */
  target: string | null;
  /** Rows in the sample the estimated checks read, or null when every check read the whole table. */
  sample_rows: number | null;
}

/** Column names treated as the target when present (case-insensitive), before falling back to the last column. */
export const TARGET_NAMES = ['target', 'label', 'class', 'y'];

/**
 * Tables up to this many rows are checked exactly; larger ones on a sample of about this many rows (and of about
 * this many values per identifier candidate). 100k rows put a 5% duplicate share at ~5,000 sampled duplicates and
 * the 1.5-IQR outlier share within ~0.1 percentage points, and read in well under a second at 10M rows.
 */
export const QUALITY_SAMPLE_ROWS = 100_000;

const fmt = (x: number): string => (Math.round(x * 10) / 10).toString();
const list = (xs: string[]): string => xs.join(', ');
const SAMPLE_TABLE = 'quality_sample';

/** What the checks need to know about one column. */
interface ColumnFacts {
  name: string;
  dtype: string;
  /** Non-null values in the whole table (exact). */
  nonNull: number;
  /** Distinct non-null values is at most one (exact). */
  constant: boolean;
  /** Distinct/non-null ratio (estimated when sampled); null for columns the identifier check ignores. */
  uniqueRatio: number | null;
  /** Share of values parsing as numbers (text columns; estimated when sampled). */
  numericShare: number | null;
  /** Share of non-null values outside 1.5 IQR (numeric columns; estimated when sampled). */
  outlierShare: number | null;
}

/** Everything the checks are computed from. */
interface QualityFacts {
  rowCount: number;
  columns: ColumnFacts[];
  /** Share of rows that duplicate an earlier row (estimated when sampled). */
  duplicateShare: number;
  /** Rows of the sample, or null when the checks read the whole table. */
  sampleRows: number | null;
  /** Row count per class of the target, or null when the target is not categorical. */
  classCounts: number[] | null;
}

/** How a sampled check says so. */
function sampleNote(f: QualityFacts): string {
  return f.sampleRows === null ? '' : ` Estimated from a sample of ${f.sampleRows} of ${f.rowCount} rows.`;
}

function missingCheck(f: QualityFacts, policy: QualityPolicy): QualityCheck {
  const pct = (c: ColumnFacts): number => (f.rowCount === 0 ? 0 : ((f.rowCount - c.nonNull) / f.rowCount) * 100);
  const bad = f.columns.filter((c) => pct(c) > policy.max_missing_percent);
  return {
    name: 'missing_values',
    passed: bad.length === 0,
    details:
      bad.length === 0
        ? `No column has more than ${policy.max_missing_percent}% missing values.`
        : `Columns with more than ${policy.max_missing_percent}% missing values: ${list(bad.map((c) => `${c.name} (${fmt(pct(c))}%)`))}.`,
  };
}

function duplicateCheck(f: QualityFacts, policy: QualityPolicy): QualityCheck {
  const pct = f.duplicateShare * 100;
  const rows = Math.round(f.duplicateShare * f.rowCount);
  const about = f.sampleRows === null ? '' : 'About ';
  return {
    name: 'duplicate_rows',
    passed: pct <= policy.max_duplicate_percent,
    details: `${about}${rows} of ${f.rowCount} rows (${fmt(pct)}%) duplicate an earlier row; the limit is ${policy.max_duplicate_percent}%.${sampleNote(f)}`,
  };
}

function constantCheck(f: QualityFacts): QualityCheck {
  const bad = f.columns.filter((c) => c.constant).map((c) => c.name);
  return {
    name: 'constant_columns',
    passed: bad.length === 0,
    details: bad.length === 0 ? 'Every column has at least two distinct values.' : `Columns with a single value (or none): ${list(bad)}.`,
  };
}

function identifierCheck(f: QualityFacts, policy: QualityPolicy): QualityCheck {
  const bad: string[] = [];
  for (const c of f.columns) {
    if (c.uniqueRatio === null || c.nonNull < policy.min_rows_for_identifier) continue;
    const limit = c.dtype === 'object' ? policy.max_text_unique_ratio : policy.max_integer_unique_ratio;
    if (c.uniqueRatio >= limit) bad.push(`${c.name} (${fmt(c.uniqueRatio * 100)}% distinct)`);
  }
  return {
    name: 'high_cardinality_identifiers',
    passed: bad.length === 0,
    details:
      (bad.length === 0
        ? 'No column looks like a row identifier or free text.'
        : `Columns that look like identifiers or free text and should usually be excluded from features: ${list(bad)}.`) + sampleNote(f),
  };
}

function mixedTypeCheck(f: QualityFacts, policy: QualityPolicy): QualityCheck {
  const bad = f.columns
    .filter((c) => c.numericShare !== null && c.numericShare < 1 && c.numericShare >= policy.mixed_type_numeric_share)
    .map((c) => `${c.name} (${fmt((c.numericShare ?? 0) * 100)}% numeric)`);
  return {
    name: 'mixed_types',
    passed: bad.length === 0,
    details:
      (bad.length === 0
        ? 'No text column is mostly numbers.'
        : `Text columns where most but not all values are numbers (likely bad entries): ${list(bad)}.`) + sampleNote(f),
  };
}

function outlierCheck(f: QualityFacts, policy: QualityPolicy): QualityCheck {
  const bad = f.columns
    .filter((c) => c.outlierShare !== null && c.outlierShare * 100 > policy.max_outlier_percent)
    .map((c) => `${c.name} (${fmt((c.outlierShare ?? 0) * 100)}%)`);
  return {
    name: 'outliers',
    passed: bad.length === 0,
    details:
      (bad.length === 0
        ? `No numeric column has more than ${policy.max_outlier_percent}% values outside 1.5 IQR.`
        : `Numeric columns with more than ${policy.max_outlier_percent}% values outside 1.5 IQR: ${list(bad)}.`) + sampleNote(f),
  };
}

/** The likely target: a column named like {@link TARGET_NAMES}, else the last column. */
export function likelyTarget(columns: string[]): string | null {
  const named = columns.find((c) => TARGET_NAMES.includes(c.toLowerCase()));
  return named ?? columns[columns.length - 1] ?? null;
}

function classBalanceCheck(f: QualityFacts, policy: QualityPolicy, target: string | null): QualityCheck {
  const name = 'class_imbalance';
  const counts = f.classCounts;
  if (target === null || counts === null) {
    return { name, passed: true, details: `Not applicable: no categorical target column (checked ${target ?? 'none'}).` };
  }
  if (counts.length < 2) return { name, passed: true, details: `Not applicable: target ${target} has fewer than two classes.` };
  const max = Math.max(...counts);
  const min = Math.min(...counts);
  const ratio = min / max;
  return {
    name,
    passed: ratio >= policy.min_class_ratio,
    details: `Target ${target} has ${counts.length} classes; the rarest has ${min} rows and the most frequent ${max} (ratio ${fmt(ratio * 100)}%, minimum ${fmt(policy.min_class_ratio * 100)}%).`,
  };
}

/**
 * Non-null counts per column, exact, from the Parquet footer's null count of every column chunk. The canonical view
 * also counts NaN as missing: DuckDB writes no min/max statistics for a float chunk holding NaN, so a float column
 * is only taken from the footer when all its chunks have both (the stored form never holds NaN: ingestFile writes
 * it as NULL). Columns the footer cannot answer are counted by a scan.
 */
async function nonNullCounts(conn: DuckDBConnection, parquetPath: string, view: string, names: string[], rowCount: number): Promise<number[]> {
  const raw = await describeColumns(conn, parquetSource(parquetPath));
  const fromFooter = new Map<number, number>();
  const meta = await queryRows(
    conn,
    `SELECT column_id AS id, count(*) AS chunks, count(stats_null_count) AS known, coalesce(sum(stats_null_count), 0) AS nulls,
       count(*) FILTER (WHERE stats_min_value IS NOT NULL AND stats_max_value IS NOT NULL
                          AND lower(stats_min_value) <> 'nan' AND lower(stats_max_value) <> 'nan') AS ranged
     FROM parquet_metadata(${sqlString(parquetPath)}) GROUP BY column_id`,
  );
  // Leaf column ids equal column positions only in a flat schema (what ingestFile writes).
  if (meta.length === names.length) {
    for (const r of meta) {
      const id = Number(r.id);
      const chunks = Number(r.chunks);
      const nanFree = baseDtype(raw[id]?.duckType ?? '') !== 'float64' || Number(r.ranged) === chunks;
      if (Number(r.known) === chunks && nanFree) fromFooter.set(id, rowCount - Number(r.nulls));
    }
  }
  const scan = names.map((n, i) => ({ n, i })).filter(({ i }) => !fromFooter.has(i));
  const counted = scan.length > 0 ? await queryOne(conn, `SELECT ${scan.map(({ n, i }) => `count(${sqlIdent(n)}) AS c${i}`).join(', ')} FROM ${view}`) : {};
  return names.map((_, i) => (`c${i}` in counted ? Number(counted[`c${i}`]) : (fromFooter.get(i) ?? 0)));
}

/** Whether the whole column holds at most one distinct non-null value. */
async function isConstant(conn: DuckDBConnection, view: string, name: string): Promise<boolean> {
  const c = sqlIdent(name);
  const r = await queryOne(conn, `SELECT min(${c}) IS NOT DISTINCT FROM max(${c}) AS one FROM ${view}`);
  return r.one === true;
}

/** Row count per non-null class of a categorical target; with `maxClasses`, at most one class more is read. */
async function classCounts(conn: DuckDBConnection, view: string, name: string, maxClasses: number | null): Promise<number[]> {
  const c = sqlIdent(name);
  const limit = maxClasses === null ? '' : ` LIMIT ${maxClasses + 1}`;
  const rows = await queryRows(conn, `SELECT count(*) AS n FROM ${view} WHERE ${c} IS NOT NULL GROUP BY ${c}${limit}`);
  return rows.map((r) => Number(r.n));
}

const quartiles = (v: DuckDBValue): [number | null, number | null] => {
  const items = (v as { items?: DuckDBValue[] } | null)?.items ?? [];
  return [toNumber(items[0] ?? null), toNumber(items[1] ?? null)];
};

/**
 * Gathers the facts of every check. One scan of the table draws the sample `quality_sample`: rows whose hash of
 * all columns falls in 1/stride of the hash space (so every copy of a row is in or out together, and the duplicate
 * share of the sample estimates the table's without bias), plus, for each int64/object column, the rows whose hash
 * of that column's value does (every occurrence of a value is in or out together, so distinct/non-null of those
 * values estimates the column's ratio; a row sample would inflate it). With stride 1 the sample is the table.
 */
async function gatherFacts(conn: DuckDBConnection, parquetPath: string, pol: QualityPolicy, target: string | null): Promise<QualityFacts> {
  const view = 't';
  const cols = await openTable(conn, parquetPath, view);
  const rowCount = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${view}`)).n);
  const names = cols.map((c) => c.name);
  const nonNull = await nonNullCounts(conn, parquetPath, view, names, rowCount);
  const stride = Math.max(1, Math.ceil(rowCount / QUALITY_SAMPLE_ROWS));
  const sampled = stride > 1;
  const idCandidate = (dtype: string): boolean => dtype === 'object' || dtype === 'int64';

  // Sample columns are renamed v0, v1, ... so the flags cannot collide with the table's own names. Each value is
  // hashed once: a row's hash combines its columns' hashes (xor: order-blind, which a sample does not mind).
  const v = (i: number): string => `v${i}`;
  const h = (i: number): string => `h${i}`;
  const hashed = names.map((n, i) => `${sqlIdent(n)} AS ${v(i)}${sampled ? `, hash(${sqlIdent(n)}) AS ${h(i)}` : ''}`);
  const flag = (hashExpr: string): string => (sampled ? `(${hashExpr}) % ${stride} = 0` : 'true');
  const rowHash = names.map((_, i) => h(i)).reduce((acc, x) => `xor(${acc}, ${x})`);
  const candidates = cols.map((c, i) => i).filter((i) => idCandidate(cols[i].dtype));
  const flags = [`${flag(rowHash)} AS in_rows`, ...candidates.map((i) => `${flag(h(i))} AS k${i}`)];
  const where = sampled ? ` WHERE in_rows${candidates.map((i) => ` OR k${i}`).join('')}` : '';
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE ${SAMPLE_TABLE} AS
     SELECT ${[...names.map((_, i) => v(i)), ...flags].join(', ')} FROM (SELECT ${hashed.join(', ')} FROM ${view})${where}`,
  );

  try {
    const aggs = ['count(*) FILTER (WHERE in_rows) AS n'];
    cols.forEach((c, i) => {
      // Two values in the sample prove a column is not constant; min/max tell that without a distinct count.
      aggs.push(`min(${v(i)}) FILTER (WHERE in_rows) IS DISTINCT FROM max(${v(i)}) FILTER (WHERE in_rows) AS several${i}`);
      if (c.name === target && c.dtype === 'int64') aggs.push(`count(DISTINCT ${v(i)}) FILTER (WHERE in_rows) AS sd${i}`);
      if (idCandidate(c.dtype)) aggs.push(`count(${v(i)}) FILTER (WHERE k${i}) AS kn${i}`, `count(DISTINCT ${v(i)}) FILTER (WHERE k${i}) AS kd${i}`);
      if (c.dtype === 'object' || c.dtype === 'category') {
        aggs.push(`count(${v(i)}) FILTER (WHERE in_rows) AS tn${i}`, `count(TRY_CAST(trim(${v(i)}) AS DOUBLE)) FILTER (WHERE in_rows) AS tnum${i}`);
      }
      if (isNumeric(c.dtype)) aggs.push(`count(${v(i)}) FILTER (WHERE in_rows) AS nn${i}`, `quantile_cont(${v(i)}, [0.25, 0.75]) FILTER (WHERE in_rows) AS q${i}`);
    });
    const a = await queryOne(conn, `SELECT ${aggs.join(', ')} FROM ${SAMPLE_TABLE}`);
    const sampleRows = Number(a.n);

    // 1.5-IQR bounds from the sample's quartiles, counted in the same sample.
    const bounds = new Map<number, [number, number]>();
    cols.forEach((c, i) => {
      const [p25, p75] = isNumeric(c.dtype) ? quartiles(a[`q${i}`]) : [null, null];
      if (p25 !== null && p75 !== null) bounds.set(i, [p25 - 1.5 * (p75 - p25), p75 + 1.5 * (p75 - p25)]);
    });
    const distinctRows = `(SELECT count(*) FROM (SELECT DISTINCT ${names.map((_, i) => v(i)).join(', ')} FROM ${SAMPLE_TABLE} WHERE in_rows))`;
    const outlierSel = [...bounds].map(([i, [lo, hi]]) => {
      const x = `CAST(${v(i)} AS DOUBLE)`;
      return `count(*) FILTER (WHERE in_rows AND (${x} < ${sqlDouble(lo)} OR ${x} > ${sqlDouble(hi)})) AS o${i}`;
    });
    // count(*) keeps this an aggregate (one row) when no column has outlier bounds, as in an all-text table.
    const b = await queryOne(conn, `SELECT ${[`${distinctRows} AS d`, 'count(*) AS sample_rows', ...outlierSel].join(', ')} FROM ${SAMPLE_TABLE}`);

    const columns: ColumnFacts[] = [];
    for (const [i, c] of cols.entries()) {
      // Without two values in the sample only the whole column can tell (the sample is the table when not sampled).
      const constant = a[`several${i}`] === true ? false : sampled ? await isConstant(conn, view, c.name) : true;
      const kn = Number(a[`kn${i}`] ?? 0);
      const tn = Number(a[`tn${i}`] ?? 0);
      const nn = Number(a[`nn${i}`] ?? 0);
      columns.push({
        name: c.name,
        dtype: c.dtype,
        nonNull: nonNull[i],
        constant,
        uniqueRatio: idCandidate(c.dtype) && kn > 0 ? Number(a[`kd${i}`]) / kn : null,
        numericShare: tn > 0 ? Number(a[`tnum${i}`]) / tn : null,
        outlierShare: bounds.has(i) && nn > 0 ? Number(b[`o${i}`]) / nn : isNumeric(c.dtype) ? 0 : null,
      });
    }

    let counts: number[] | null = null;
    const t = target === null ? -1 : names.indexOf(target);
    if (t >= 0) {
      const dtype = cols[t].dtype;
      // An int64 target is categorical with 2..max_target_classes values; a sample with more already rules it out.
      const intClasses = dtype === 'int64' && Number(a[`sd${t}`]) <= pol.max_target_classes;
      if (dtype === 'category' || dtype === 'bool' || intClasses) {
        const all = await classCounts(conn, view, names[t], dtype === 'int64' ? pol.max_target_classes : null);
        if (dtype !== 'int64' || (all.length >= 2 && all.length <= pol.max_target_classes)) counts = all;
      }
    }

    return {
      rowCount,
      columns,
      duplicateShare: sampleRows === 0 ? 0 : (sampleRows - Number(b.d ?? sampleRows)) / sampleRows,
      sampleRows: sampled ? sampleRows : null,
      classCounts: counts,
    };
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${SAMPLE_TABLE}`);
  }
}

/**
 * Scores a stored dataset against the quality checks (see the module doc for which are estimated on big tables).
 * @param parquetPath stored dataset
 * @param policy overrides of {@link DEFAULT_QUALITY_POLICY}
 */
export async function qualityReport(parquetPath: string, policy: Partial<QualityPolicy> = {}): Promise<QualityReport> {
  const pol: QualityPolicy = { ...DEFAULT_QUALITY_POLICY, ...policy };
  return withConnection(async (conn) => {
    const names = (await describeColumns(conn, parquetSource(parquetPath))).map((c) => c.name);
    const target = likelyTarget(names);
    const facts = await gatherFacts(conn, parquetPath, pol, target);
    const checks: QualityCheck[] = [
      missingCheck(facts, pol),
      duplicateCheck(facts, pol),
      constantCheck(facts),
      identifierCheck(facts, pol),
      mixedTypeCheck(facts, pol),
      outlierCheck(facts, pol),
      classBalanceCheck(facts, pol, target),
    ];
    const passed = checks.filter((c) => c.passed).length;
    return { overall_score: Math.round((passed / checks.length) * 1000) / 10, checks, target, sample_rows: facts.sampleRows };
  });
}
