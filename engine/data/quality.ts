/**
 * Data quality report: a fixed list of checks, each with thresholds from a {@link QualityPolicy}.
 * overall_score = 100 × (passed checks / checks computed), rounded to one decimal; a check that does not apply
 * (e.g. class balance on a target that is not categorical) passes and says why. The target is never guessed: a check
 * that depends on one (class balance) is computed only for a target the caller names, and otherwise is listed with
 * `needs_target` and left out of the score.
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
import {
  Aggregate, aggregateInBatches, parquetSource, queryOne, queryRows, sqlIdent, sqlString, toNumber, withConnection, xorAll,
} from './duck';
import { duplicateRowCount } from './duplicates';
import { DataValidationError } from './errors';
import { sqlDouble } from './histogram';
import { CanonicalTable, isNumeric, openCanonical } from './table';
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
  /** True when the check depends on a target and none was named: not computed, not in the score. */
  needs_target?: boolean;
}

/** Result of {@link qualityReport}. */
export interface QualityReport {
  overall_score: number;
  checks: QualityCheck[];
  /** The target column the caller named for the checks that depend on one; null: those checks need a target. */
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

/**
 * Values (rows × columns) a sample holds at most: the sample is a table in DuckDB's memory, and 100k rows of 2,000
 * columns would be 200M values. A wide table past {@link QUALITY_SAMPLE_ROWS} rows is sampled at fewer rows (at
 * 2,000 columns, about 5,000), which its checks' details state as for any sample.
 */
export const QUALITY_SAMPLE_VALUES = 10_000_000;

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
  if (target === null) return { name, passed: true, needs_target: true, details: 'Needs a target: name the target column to check the balance of its classes.' };
  if (counts === null) return { name, passed: true, details: `Not applicable: target ${target} is not categorical.` };
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
async function nonNullCounts(conn: DuckDBConnection, parquetPath: string, table: CanonicalTable, rowCount: number): Promise<number[]> {
  const names = table.columns.map((c) => c.name);
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
  const counted = await aggregateInBatches(conn, scan.map(({ n, i }) => ({ sql: `count(${sqlIdent(n)}) AS c${i}`, columns: [n] })), table.relation);
  return names.map((_, i) => (`c${i}` in counted ? Number(counted[`c${i}`]) : (fromFooter.get(i) ?? 0)));
}

/** Which of the columns (by position in `names`) hold at most one distinct non-null value in the whole table. */
async function constantColumns(conn: DuckDBConnection, table: CanonicalTable, positions: number[]): Promise<Set<number>> {
  const items = positions.map((i) => {
    const n = table.columns[i].name;
    return { sql: `min(${sqlIdent(n)}) IS NOT DISTINCT FROM max(${sqlIdent(n)}) AS one${i}`, columns: [n] };
  });
  const r = await aggregateInBatches(conn, items, table.relation);
  return new Set(positions.filter((i) => r[`one${i}`] === true));
}

/** Row count per non-null class of a categorical target; with `maxClasses`, at most one class more is read. */
async function classCounts(conn: DuckDBConnection, table: CanonicalTable, name: string, maxClasses: number | null): Promise<number[]> {
  const c = sqlIdent(name);
  const limit = maxClasses === null ? '' : ` LIMIT ${maxClasses + 1}`;
  const rows = await queryRows(conn, `SELECT count(*) AS n FROM ${table.relation([name])} WHERE ${c} IS NOT NULL GROUP BY ${c}${limit}`);
  return rows.map((r) => Number(r.n));
}

const quartiles = (v: DuckDBValue): [number | null, number | null] => {
  const items = (v as { items?: DuckDBValue[] } | null)?.items ?? [];
  return [toNumber(items[0] ?? null), toNumber(items[1] ?? null)];
};

/**
 * Gathers the facts of every check. A table of at most {@link QUALITY_SAMPLE_ROWS} rows is read as it is. A larger
 * one is sampled: one scan keeps in `quality_sample` the positions of the rows whose hash of all columns falls in
 * 1/stride of the hash space (so every copy of a row is in or out together, and the duplicate share of the sample
 * estimates the table's without bias); for each int64/object column, the identifier check reads the values whose
 * own hash does (every occurrence of a value is in or out together, so distinct/non-null of those values estimates
 * the column's ratio; a row sample would inflate it).
 *
 * Work stays linear in the number of columns, however wide the table: per-column aggregates run in bounded batches
 * (see {@link aggregateInBatches}), and no aggregate has a FILTER clause: DuckDB gives each filtered aggregate its
 * own copy of the input chunk, which made memory grow with columns² (2,000 columns: past 20 GB). A sample's subsets
 * are a semi-join on the kept positions and `CASE WHEN <in sample> THEN v END` (aggregates skip NULLs) instead.
 */
async function gatherFacts(conn: DuckDBConnection, parquetPath: string, pol: QualityPolicy, target: string | null): Promise<QualityFacts> {
  const table = await openCanonical(conn, parquetPath);
  const cols = table.columns;
  // Answered from the Parquet footer, not a scan.
  const rowCount = Number((await queryOne(conn, `SELECT count(*) AS n FROM ${parquetSource(parquetPath)}`)).n);
  const names = cols.map((c) => c.name);
  const nonNull = await nonNullCounts(conn, parquetPath, table, rowCount);
  const sampleTarget = Math.max(1, Math.min(QUALITY_SAMPLE_ROWS, Math.floor(QUALITY_SAMPLE_VALUES / Math.max(1, cols.length))));
  // Up to QUALITY_SAMPLE_ROWS rows the table is read as it is, however wide: nothing is materialized then.
  const stride = rowCount <= QUALITY_SAMPLE_ROWS ? 1 : Math.max(1, Math.ceil(rowCount / sampleTarget));
  const sampled = stride > 1;
  const idCandidate = (dtype: string): boolean => dtype === 'object' || dtype === 'int64';
  const candidates = cols.map((c, i) => i).filter((i) => idCandidate(cols[i].dtype));

  // rows: the row sample (or the table); idCol(i): column i's identifier sample, read from the whole table.
  const col = (i: number): string => sqlIdent(names[i]);
  let rows: Parameters<typeof aggregateInBatches>[2] = table.relation;
  let idCol = col;
  if (sampled) {
    // Only the sampled rows' positions are kept: a copy of the rows would take columns × rows of DuckDB's memory.
    // A row's hash combines its columns' hashes (xor, as a balanced tree: order-blind, which a sample does not mind).
    const rowHash = xorAll(names.map((n) => `hash(${sqlIdent(n)})`));
    await conn.run(
      `CREATE OR REPLACE TEMP TABLE ${SAMPLE_TABLE} AS
       SELECT file_row_number AS rn FROM ${table.relation(undefined, true)} WHERE (${rowHash}) % ${stride} = 0`,
    );
    rows = (columns) => `(SELECT * FROM ${table.relation(columns, true)} WHERE file_row_number IN (SELECT rn FROM ${SAMPLE_TABLE}))`;
    idCol = (i) => `CASE WHEN hash(${col(i)}) % ${stride} = 0 THEN ${col(i)} END`;
  }

  try {
    const items: Aggregate[] = [{ sql: 'count(*) AS n', columns: [] }];
    const add = (i: number, ...sqls: string[]): void => sqls.forEach((sql) => items.push({ sql, columns: [names[i]] }));
    cols.forEach((c, i) => {
      // Two values in the sample prove a column is not constant; min/max tell that without a distinct count.
      add(i, `min(${col(i)}) IS DISTINCT FROM max(${col(i)}) AS several${i}`);
      if (c.name === target && c.dtype === 'int64') add(i, `count(DISTINCT ${col(i)}) AS sd${i}`);
      if (c.dtype === 'object' || c.dtype === 'category') add(i, `count(${col(i)}) AS tn${i}`, `count(TRY_CAST(trim(${col(i)}) AS DOUBLE)) AS tnum${i}`);
      if (isNumeric(c.dtype)) add(i, `count(${col(i)}) AS nn${i}`, `quantile_cont(${col(i)}, [0.25, 0.75]) AS q${i}`);
    });
    const idItems = candidates.flatMap((i) => [
      { sql: `count(${idCol(i)}) AS kn${i}`, columns: [names[i]] },
      { sql: `count(DISTINCT ${idCol(i)}) AS kd${i}`, columns: [names[i]] },
    ]);
    // Unsampled, both read the table itself: one pass.
    const a = await aggregateInBatches(conn, sampled ? items : [...items, ...idItems], rows);
    if (sampled) Object.assign(a, await aggregateInBatches(conn, idItems, table.relation));
    const sampleRows = Number(a.n);

    // 1.5-IQR bounds from the sample's quartiles, counted in the same sample.
    const bounds = new Map<number, [number, number]>();
    cols.forEach((c, i) => {
      const [p25, p75] = isNumeric(c.dtype) ? quartiles(a[`q${i}`]) : [null, null];
      if (p25 !== null && p75 !== null) bounds.set(i, [p25 - 1.5 * (p75 - p25), p75 + 1.5 * (p75 - p25)]);
    });
    const outlierSel = [...bounds].map(([i, [lo, hi]]) => {
      const x = `CAST(${col(i)} AS DOUBLE)`;
      return { sql: `count(CASE WHEN ${x} < ${sqlDouble(lo)} OR ${x} > ${sqlDouble(hi)} THEN 1 END) AS o${i}`, columns: [names[i]] };
    });
    const b = await aggregateInBatches(conn, outlierSel, rows);
    const duplicates = await duplicateRowCount(conn, typeof rows === 'string' ? rows : rows(names), names.map((_, i) => col(i)));

    // Without two values in the sample only the whole column can tell (the sample is the table when not sampled).
    const undecided = cols.map((_, i) => i).filter((i) => a[`several${i}`] !== true);
    const constant = sampled ? await constantColumns(conn, table, undecided) : new Set(undecided);
    const columns: ColumnFacts[] = cols.map((c, i) => {
      const kn = Number(a[`kn${i}`] ?? 0);
      const tn = Number(a[`tn${i}`] ?? 0);
      const nn = Number(a[`nn${i}`] ?? 0);
      return {
        name: c.name,
        dtype: c.dtype,
        nonNull: nonNull[i],
        constant: constant.has(i),
        uniqueRatio: idCandidate(c.dtype) && kn > 0 ? Number(a[`kd${i}`]) / kn : null,
        numericShare: tn > 0 ? Number(a[`tnum${i}`]) / tn : null,
        outlierShare: bounds.has(i) && nn > 0 ? Number(b[`o${i}`]) / nn : isNumeric(c.dtype) ? 0 : null,
      };
    });

    let counts: number[] | null = null;
    const t = target === null ? -1 : names.indexOf(target);
    if (t >= 0) {
      const dtype = cols[t].dtype;
      // An int64 target is categorical with 2..max_target_classes values; a sample with more already rules it out.
      const intClasses = dtype === 'int64' && Number(a[`sd${t}`]) <= pol.max_target_classes;
      if (dtype === 'category' || dtype === 'bool' || intClasses) {
        const all = await classCounts(conn, table, names[t], dtype === 'int64' ? pol.max_target_classes : null);
        if (dtype !== 'int64' || (all.length >= 2 && all.length <= pol.max_target_classes)) counts = all;
      }
    }

    return {
      rowCount,
      columns,
      duplicateShare: sampleRows === 0 ? 0 : duplicates / sampleRows,
      sampleRows: sampled ? sampleRows : null,
      classCounts: counts,
    };
  } finally {
    if (sampled) await conn.run(`DROP TABLE IF EXISTS ${SAMPLE_TABLE}`);
  }
}

/**
 * Scores a stored dataset against the quality checks (see the module doc for which are estimated on big tables).
 * @param parquetPath stored dataset
 * @param policy overrides of {@link DEFAULT_QUALITY_POLICY}
 */
export async function qualityReport(parquetPath: string, policy: Partial<QualityPolicy> = {}, opts: { target?: string | null } = {}): Promise<QualityReport> {
  const pol: QualityPolicy = { ...DEFAULT_QUALITY_POLICY, ...policy };
  return withConnection(async (conn) => {
    const names = (await describeColumns(conn, parquetSource(parquetPath))).map((c) => c.name);
    // Never a guess: a target is the caller's (a user's choice, an experiment's), and must be a column of the table.
    const target = opts.target ?? null;
    if (target !== null && !names.includes(target)) throw new DataValidationError(`Unknown target column: ${target}`);
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
    const computed = checks.filter((c) => !c.needs_target);
    const passed = computed.filter((c) => c.passed).length;
    return { overall_score: Math.round((passed / computed.length) * 1000) / 10, checks, target, sample_rows: facts.sampleRows };
  });
}
