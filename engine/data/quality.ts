/**
 * Data quality report: a fixed list of checks, each with thresholds from a {@link QualityPolicy}.
 * overall_score = 100 × (passed checks / all checks), rounded to one decimal; a check that does not apply
 * (e.g. class balance without a categorical target) passes and says why.
 */
import { queryOne, sqlIdent, withConnection } from './duck';
import { analyze, CategoricalProfile, DatasetProfile, NumericProfile } from './profile';
import { openTable } from './table';

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
  /** The full profile the checks were computed from (what `analyze` returns), kept to avoid a second pass. */
  profile: DatasetProfile;
}

/** Column names treated as the target when present (case-insensitive), before falling back to the last column. */
export const TARGET_NAMES = ['target', 'label', 'class', 'y'];

const fmt = (x: number): string => (Math.round(x * 10) / 10).toString();
const list = (xs: string[]): string => xs.join(', ');

function missingCheck(p: DatasetProfile, policy: QualityPolicy): QualityCheck {
  const bad = Object.entries(p.columns).filter(([, c]) => c.missing_percent > policy.max_missing_percent);
  return {
    name: 'missing_values',
    passed: bad.length === 0,
    details:
      bad.length === 0
        ? `No column has more than ${policy.max_missing_percent}% missing values.`
        : `Columns with more than ${policy.max_missing_percent}% missing values: ${list(bad.map(([n, c]) => `${n} (${fmt(c.missing_percent)}%)`))}.`,
  };
}

function duplicateCheck(p: DatasetProfile, policy: QualityPolicy): QualityCheck {
  const pct = p.row_count === 0 ? 0 : (p.duplicate_rows / p.row_count) * 100;
  return {
    name: 'duplicate_rows',
    passed: pct <= policy.max_duplicate_percent,
    details: `${p.duplicate_rows} of ${p.row_count} rows (${fmt(pct)}%) duplicate an earlier row; the limit is ${policy.max_duplicate_percent}%.`,
  };
}

function constantCheck(p: DatasetProfile): QualityCheck {
  const bad = Object.entries(p.columns).filter(([, c]) => c.unique <= 1).map(([n]) => n);
  return {
    name: 'constant_columns',
    passed: bad.length === 0,
    details: bad.length === 0 ? 'Every column has at least two distinct values.' : `Columns with a single value (or none): ${list(bad)}.`,
  };
}

function identifierCheck(p: DatasetProfile, policy: QualityPolicy): QualityCheck {
  const bad: string[] = [];
  for (const [n, c] of Object.entries(p.columns)) {
    const nonNull = p.row_count - c.missing;
    if (nonNull < policy.min_rows_for_identifier) continue;
    const ratio = c.unique / nonNull;
    if (c.dtype === 'object' && ratio >= policy.max_text_unique_ratio) bad.push(`${n} (${fmt(ratio * 100)}% distinct)`);
    if (c.dtype === 'int64' && ratio >= policy.max_integer_unique_ratio) bad.push(`${n} (${fmt(ratio * 100)}% distinct)`);
  }
  return {
    name: 'high_cardinality_identifiers',
    passed: bad.length === 0,
    details:
      bad.length === 0
        ? 'No column looks like a row identifier or free text.'
        : `Columns that look like identifiers or free text and should usually be excluded from features: ${list(bad)}.`,
  };
}

function outlierCheck(p: DatasetProfile, policy: QualityPolicy): QualityCheck {
  const bad: string[] = [];
  for (const [n, c] of Object.entries(p.columns)) {
    if (c.type !== 'numeric') continue;
    const nonNull = p.row_count - c.missing;
    const pct = nonNull === 0 ? 0 : ((c as NumericProfile).outlier_count / nonNull) * 100;
    if (pct > policy.max_outlier_percent) bad.push(`${n} (${fmt(pct)}%)`);
  }
  return {
    name: 'outliers',
    passed: bad.length === 0,
    details:
      bad.length === 0
        ? `No numeric column has more than ${policy.max_outlier_percent}% values outside 1.5 IQR.`
        : `Numeric columns with more than ${policy.max_outlier_percent}% values outside 1.5 IQR: ${list(bad)}.`,
  };
}

/** The likely target: a column named like {@link TARGET_NAMES}, else the last column. */
export function likelyTarget(columns: string[]): string | null {
  const named = columns.find((c) => TARGET_NAMES.includes(c.toLowerCase()));
  return named ?? columns[columns.length - 1] ?? null;
}

function classBalanceCheck(
  p: DatasetProfile,
  policy: QualityPolicy,
  target: string | null,
  integerCounts: number[] | null,
): QualityCheck {
  const name = 'class_imbalance';
  const c = target === null ? undefined : p.columns[target];
  const categorical =
    c !== undefined &&
    (c.dtype === 'category' || c.dtype === 'bool' || (c.dtype === 'int64' && c.unique >= 2 && c.unique <= policy.max_target_classes));
  if (!c || !categorical || target === null) {
    return { name, passed: true, details: `Not applicable: no categorical target column (checked ${target ?? 'none'}).` };
  }
  if (c.dtype === 'int64') return balanceFromCounts(name, target, integerCounts ?? [], c.unique, policy);
  return balanceFromCounts(name, target, Object.values((c as CategoricalProfile).top_values), c.unique, policy);
}

function balanceFromCounts(name: string, target: string, counts: number[], classes: number, policy: QualityPolicy): QualityCheck {
  if (classes < 2 || counts.length < 2) return { name, passed: true, details: `Not applicable: target ${target} has fewer than two classes.` };
  const max = Math.max(...counts);
  const min = Math.min(...counts);
  const ratio = min / max;
  return {
    name,
    passed: ratio >= policy.min_class_ratio,
    details: `Target ${target} has ${classes} classes; the rarest has ${min} rows and the most frequent ${max} (ratio ${fmt(ratio * 100)}%, minimum ${fmt(policy.min_class_ratio * 100)}%).`,
  };
}

/**
 * Scores a stored dataset against the quality checks.
 * @param parquetPath stored dataset
 * @param policy overrides of {@link DEFAULT_QUALITY_POLICY}
 */
export async function qualityReport(parquetPath: string, policy: Partial<QualityPolicy> = {}): Promise<QualityReport> {
  const pol: QualityPolicy = { ...DEFAULT_QUALITY_POLICY, ...policy };
  const profile = await analyze(parquetPath);
  const names = Object.keys(profile.columns);
  const target = likelyTarget(names);

  const { mixed, classCounts } = await withConnection(async (conn) => {
    const cols = await openTable(conn, parquetPath, 't');
    const mixedCols: string[] = [];
    const text = cols.filter((c) => c.dtype === 'object' || c.dtype === 'category');
    if (text.length > 0) {
      // One scan for every text column rather than one per column.
      const sel = text
        .map((c, i) => `count(${sqlIdent(c.name)}) AS n${i}, count(TRY_CAST(trim(${sqlIdent(c.name)}) AS DOUBLE)) AS num${i}`)
        .join(', ');
      const r = await queryOne(conn, `SELECT ${sel} FROM t`);
      text.forEach((c, i) => {
        const n = Number(r[`n${i}`]);
        const num = Number(r[`num${i}`]);
        if (n > 0 && num < n && num / n >= pol.mixed_type_numeric_share) {
          mixedCols.push(`${c.name} (${fmt((num / n) * 100)}% numeric)`);
        }
      });
    }
    // top_values only holds 10 classes; an int64 target is counted in full here.
    let counts: number[] | null = null;
    if (target !== null && profile.columns[target]?.dtype === 'int64') {
      const col = sqlIdent(target);
      const rows = await conn.runAndReadAll(`SELECT count(*) AS n FROM t WHERE ${col} IS NOT NULL GROUP BY ${col}`);
      counts = rows.getRowObjects().map((r) => Number(r.n));
    }
    return { mixed: mixedCols, classCounts: counts };
  });

  const checks: QualityCheck[] = [
    missingCheck(profile, pol),
    duplicateCheck(profile, pol),
    constantCheck(profile),
    identifierCheck(profile, pol),
    {
      name: 'mixed_types',
      passed: mixed.length === 0,
      details:
        mixed.length === 0
          ? 'No text column is mostly numbers.'
          : `Text columns where most but not all values are numbers (likely bad entries): ${list(mixed)}.`,
    },
    outlierCheck(profile, pol),
    classBalanceCheck(profile, pol, target, classCounts),
  ];
  const passed = checks.filter((c) => c.passed).length;
  return { overall_score: Math.round((passed / checks.length) * 1000) / 10, checks, target, profile };
}
