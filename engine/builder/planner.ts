/**
 * The deterministic planner: what a careful analyst would propose for each step of a builder session, read off the
 * step's input profile (engine/data/profile.ts) and quality report (engine/data/quality.ts), and the leakage findings
 * when they were computed (planner-facts.ts). Every proposal says why in one line that cites the figure it rests on.
 *
 * Each step looks only at what it is for, and only at its own input (the output of the step before), so a later step
 * plans against the columns the earlier steps left: understand (types: dates and numbers stored as text, messy
 * spellings) → clean (rows and columns that mislead a model, missing values, outliers) → transform (encodings) →
 * features (date parts) → validate (nothing: executing it scores the result).
 *
 * Same facts, same plan: columns are visited in file order and nothing depends on time or chance. The target column is
 * never dropped, encoded or imputed.
 */
import type { LeakageFinding } from '../automl/leakage';
import type { ColumnInfo } from '../data/dtypes';
import type { CategoricalProfile, ColumnProfile, DatasetProfile, NumericProfile } from '../data/profile';
import type { QualityReport } from '../data/quality';
import { DEFAULT_QUALITY_POLICY } from '../data/quality';
import { DEFAULT_MAX_COLUMNS } from '../data/column-limit';
import { getOwn } from '../own-keys';
import { MAX_STEP_OPERATIONS, Operation, ProposedOperation, StepName } from './operations';
import { checkedProposals } from './planner-check';
import { CountedValue, DATE_TEXT_SHARE, dateShare, textMess } from './planner-values';

/** What the planner knows about a step's input table. */
export interface PlannerFacts {
  columns: ColumnInfo[];
  profile: DatasetProfile;
  quality: QualityReport;
  target: string | null;
  rowCount: number;
  /**
   * Features that alone predict the target (engine/automl/leakage.ts), when they were looked for (planner-facts.ts
   * does when there is a target). Without them, a numeric column correlated with a numeric target at
   * {@link LEAK_CORRELATION} or more is taken as leaking.
   */
  leakage?: LeakageFinding[];
}

/** A column with more missing values than this percentage is dropped rather than imputed: little is left to learn from. */
export const DROP_MISSING_PERCENT = 90;
/** Imputation adds a `<column>_missing` indicator past this percentage: that many gaps may themselves mean something. */
export const INDICATOR_MISSING_PERCENT = 5;
/** A numeric column whose |skewness| exceeds this is imputed with its median, which its long tail does not pull. */
export const SKEWED = 1;
/** Outliers are handled past this share (percent) of values outside 1.5 IQR: the quality check's threshold. */
export const HEAVY_OUTLIER_PERCENT = DEFAULT_QUALITY_POLICY.max_outlier_percent;
/** Numeric columns with fewer distinct values are codes or counts, not measurements with tails. */
const MIN_DISTINCT_FOR_OUTLIERS = 10;
/** Categories with at most this many values are one-hot encoded in the transform step. */
export const ONE_HOT_MAX_CATEGORIES = 15;
/** Without leakage findings: |Pearson r| with a numeric target at or above this is a leak. */
export const LEAK_CORRELATION = 0.99;
/** Identifier-like names (id, user_id, customerId, uuid, key...), for integer columns. */
const ID_NAME = /(^|[_\s.-])(id|uuid|guid|key|index|idx)$|[a-z]Id$|^(id|uuid|guid|index|row)$/i;

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dec = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
/** A count as people write it: 1,000. */
const n = (x: number): string => int.format(x);
/** A figure with at most 3 decimals. */
const x3 = (x: number | null): string => (x === null ? 'n/a' : dec.format(x));
const pct = (x: number): string => `${(Math.round(x * 10) / 10).toString()}%`;
/** A column name or value in a reason: JSON-quoted, so any text reads as one quoted item. */
export const quoted = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

const isNumericDtype = (c: ColumnInfo): boolean => c.dtype === 'int64' || c.dtype === 'float64';
const isTextDtype = (c: ColumnInfo): boolean => c.dtype === 'object' || c.dtype === 'category';

/** One step's proposal (an empty list: nothing to do). Deterministic: the same facts give the same list. */
export function planStep(step: StepName, facts: PlannerFacts): ProposedOperation[] {
  const plan = new Plan(facts);
  switch (step) {
    case 'understand':
      planUnderstand(plan);
      break;
    case 'clean':
      planClean(plan);
      break;
    case 'transform':
      planTransform(plan);
      break;
    case 'features':
      planFeatures(plan);
      break;
    case 'validate':
      break;
  }
  return plan.result();
}

/** A proposal being built: the facts, lookups over them, and the operations so far. */
class Plan {
  readonly proposals: ProposedOperation[] = [];
  constructor(readonly facts: PlannerFacts) {}

  profile(name: string): ColumnProfile | undefined {
    return getOwn(this.facts.profile.columns, name);
  }
  numeric(name: string): NumericProfile | undefined {
    const p = this.profile(name);
    return p?.type === 'numeric' ? p : undefined;
  }
  categorical(name: string): CategoricalProfile | undefined {
    const p = this.profile(name);
    return p?.type === 'categorical' ? p : undefined;
  }
  topValues(name: string): CountedValue[] {
    return Object.entries(this.categorical(name)?.top_values ?? {});
  }
  isTarget(name: string): boolean {
    return name === this.facts.target;
  }
  nonNull(name: string): number {
    return this.facts.rowCount - (this.profile(name)?.missing ?? 0);
  }
  add(operation: Operation, reason: string): void {
    this.proposals.push({ operation, reason });
  }
  /** The proposals that pass validation, at most a step's worth (the last kept one says what was left for later). */
  result(): ProposedOperation[] {
    const kept = checkedProposals(this.proposals, this.facts.columns);
    if (kept.length <= MAX_STEP_OPERATIONS) return kept;
    const out = kept.slice(0, MAX_STEP_OPERATIONS);
    const last = out[out.length - 1];
    out[out.length - 1] = {
      ...last,
      reason: `${last.reason} (${n(kept.length - MAX_STEP_OPERATIONS)} more operations of this kind are left for a later proposal: a step holds at most ${MAX_STEP_OPERATIONS})`,
    };
    return out;
  }
}

/**
 * Text columns the quality report found mostly numeric, with their numeric share (percent). Read from the
 * `mixed_types` check's sentence (`name (92.5% numeric)`), matched per known column name so any name reads right.
 */
export function mixedTypeShares(quality: QualityReport, columns: ColumnInfo[]): Map<string, number> {
  const out = new Map<string, number>();
  const check = quality.checks.find((c) => c.name === 'mixed_types');
  if (!check || check.passed) return out;
  for (const c of columns) {
    if (!isTextDtype(c)) continue;
    for (const lead of [': ', ', ']) {
      const at = check.details.indexOf(`${lead}${c.name} (`);
      if (at < 0) continue;
      const m = /^(\d+(?:\.\d+)?)% numeric\)/.exec(check.details.slice(at + lead.length + c.name.length + 2));
      if (m) {
        out.set(c.name, Number(m[1]));
        break;
      }
    }
  }
  return out;
}

/** understand: dates stored as text to datetimes, numbers stored as text to numbers, messy spellings tidied. */
function planUnderstand(plan: Plan): void {
  const { facts } = plan;
  const mixed = mixedTypeShares(facts.quality, facts.columns);
  for (const c of facts.columns) {
    if (!isTextDtype(c)) continue;
    const top = plan.topValues(c.name);
    const dates = dateShare(top);
    const numericShare = mixed.get(c.name);
    if (dates.share >= DATE_TEXT_SHARE && dates.distinct >= 2) {
      plan.add(
        { op: 'parse_dates', column: c.name, on_error: 'null' },
        `${quoted(c.name)} holds dates as text (e.g. ${quoted(dates.example ?? '')}; ${dates.distinct} of its ${top.length} most frequent values read as dates): parse them as datetimes`,
      );
    } else if (numericShare !== undefined) {
      const odd = top.find(([v]) => v.trim() === '' || !Number.isFinite(Number(v.trim())))?.[0];
      plan.add(
        { op: 'cast', column: c.name, to: 'float64', on_error: 'null' },
        `${quoted(c.name)} is text but ${pct(numericShare)} of its values are numbers: cast to float64, the rest${odd === undefined ? '' : ` (e.g. ${quoted(odd)})`} becoming missing`,
      );
    } else {
      const mess = textMess(top);
      if (!mess) continue;
      const what = mess.caseVariants && mess.spaceVariants ? 'case or spaces' : mess.caseVariants ? 'case' : 'spaces';
      plan.add(
        { op: 'normalize_text', columns: [c.name], trim: true, collapse_whitespace: true, case: mess.caseVariants ? 'lower' : 'keep', empty_as_null: true },
        `${quoted(c.name)} has values that differ only in ${what} (${mess.examples.map(quoted).join(', ')}): trim${mess.caseVariants ? ' and lower-case' : ''} them so each category is spelled one way`,
      );
    }
  }
}

/** Why a column should go, or null to keep it. Checked in this order: the first reason that applies is given. */
function dropReason(plan: Plan, c: ColumnInfo, leaks: Map<string, string>, mixed: Map<string, number>): string | null {
  const p = plan.profile(c.name);
  if (!p || plan.isTarget(c.name)) return null;
  const rows = plan.facts.rowCount;
  if (rows > 0 && p.missing === rows) return `${quoted(c.name)} is empty in all ${n(rows)} rows`;
  if (rows > 0 && p.unique <= 1) {
    const value = p.type === 'categorical' ? Object.keys(p.top_values)[0] : p.min !== null ? String(p.min) : undefined;
    const gaps = p.missing > 0 ? ` (missing in ${pct(p.missing_percent)})` : '';
    return `${quoted(c.name)} holds a single value${value === undefined ? '' : ` (${quoted(value)})`} in every row${gaps}: it tells no rows apart`;
  }
  const leak = leaks.get(c.name);
  if (leak) return leak;
  const nonNull = plan.nonNull(c.name);
  const policy = DEFAULT_QUALITY_POLICY;
  // Exact duplicate rows repeat every value, identifiers included: they are the deduplication's to remove, so the
  // distinct share is taken over the rows they leave.
  const dups = Math.min(plan.facts.profile.duplicate_rows, nonNull);
  const ratio = nonNull - dups > 0 ? p.unique / (nonNull - dups) : 0;
  const repeated = dups > 0 ? `${n(dups)} of them duplicate rows` : '';
  if (nonNull >= policy.min_rows_for_identifier && ratio >= policy.max_integer_unique_ratio && c.dtype === 'int64' && p.type === 'numeric') {
    // Distinct integers are a row id when named like one or when they run nearly gap-free (1..n); otherwise they may be
    // a measurement that happens to repeat rarely (prices in cents), which an analyst keeps.
    const span = p.min !== null && p.max !== null ? p.max - p.min + 1 : Infinity;
    const sequence = span <= 1.1 * p.unique;
    if (ID_NAME.test(c.name) || sequence) {
      const notes = [repeated, sequence ? `running from ${n(p.min ?? 0)} to ${n(p.max ?? 0)}` : ''].filter(Boolean);
      const aside = notes.length ? ` (${notes.join('; ')})` : '';
      return `${quoted(c.name)} has ${n(p.unique)} distinct values in ${n(nonNull)} rows${aside}: an identifier, not a feature`;
    }
  }
  if (c.dtype === 'object' && nonNull >= policy.min_rows_for_identifier && ratio >= policy.max_text_unique_ratio && !mixed.has(c.name)) {
    // Dates and numbers stored as text are many-valued too, but they are the understand step's to convert, not to drop.
    if (dateShare(plan.topValues(c.name)).share < DATE_TEXT_SHARE) {
      return `${quoted(c.name)} has ${n(p.unique)} distinct values in ${n(nonNull)} rows${repeated ? ` (${repeated})` : ''}: an identifier or free text, which a tabular model cannot use`;
    }
  }
  if (p.missing_percent > DROP_MISSING_PERCENT) return `${quoted(c.name)} is missing in ${n(p.missing)} of ${n(rows)} rows (${pct(p.missing_percent)}): too little left to impute from`;
  return null;
}

/** Reasons for leaking columns: the leakage findings, or else near-perfect correlation with a numeric target. */
function leakReasons(plan: Plan): Map<string, string> {
  const { facts } = plan;
  const out = new Map<string, string>();
  const target = facts.target;
  if (target === null) return out;
  if (facts.leakage) {
    for (const f of facts.leakage) {
      if (f.column === target) continue;
      const how =
        f.measure === 'functional_dependence'
          ? `each of its repeated values goes with a single ${quoted(target)} value (${pct(f.score * 100)} of sampled rows)`
          : `${f.measure === 'auc' ? 'AUC' : 'R²'} ${f.score.toFixed(3)} on its own`;
      out.set(f.column, `${quoted(f.column)} alone predicts ${quoted(target)} almost perfectly (${how}): most likely a leak of the target, recorded after the outcome`);
    }
    return out;
  }
  const row = getOwn(facts.profile.correlations, target);
  if (!row) return out;
  for (const c of facts.columns) {
    const r = c.name === target ? null : getOwn(row, c.name);
    if (r !== null && r !== undefined && Math.abs(r) >= LEAK_CORRELATION) {
      out.set(c.name, `${quoted(c.name)} correlates with ${quoted(target)} at r = ${x3(r)}: most likely a leak of the target, recorded after the outcome`);
    }
  }
  return out;
}

/** clean: rows without a target, duplicate rows, columns that mislead a model, heavy outliers, then missing values. */
function planClean(plan: Plan): void {
  const { facts } = plan;
  const rows = facts.rowCount;
  const target = facts.target;
  const targetProfile = target === null ? undefined : plan.profile(target);
  if (target !== null && targetProfile && targetProfile.missing > 0 && targetProfile.missing < rows) {
    plan.add(
      { op: 'filter_rows', condition: `${expressionIdentifier(target)} is not null` },
      `${quoted(target)} (the target) is missing in ${n(targetProfile.missing)} of ${n(rows)} rows (${pct(targetProfile.missing_percent)}): rows without an outcome cannot train or score a model`,
    );
  }
  const dups = facts.profile.duplicate_rows;
  if (dups > 0) {
    plan.add({ op: 'deduplicate' }, `${n(dups)} of ${n(rows)} rows (${pct((dups / rows) * 100)}) repeat an earlier row exactly: keep the first of each`);
  }

  const leaks = leakReasons(plan);
  const mixed = mixedTypeShares(facts.quality, facts.columns);
  const dropped = new Set<string>();
  for (const c of facts.columns) {
    const why = dropReason(plan, c, leaks, mixed);
    if (why === null) continue;
    dropped.add(c.name);
    plan.add({ op: 'drop_columns', columns: [c.name] }, why);
  }
  const kept = facts.columns.filter((c) => !dropped.has(c.name) && !plan.isTarget(c.name));

  // Outliers before imputing, so a mean fill is not pulled by the values about to be clipped.
  for (const c of kept) {
    const p = plan.numeric(c.name);
    if (!p || !isNumericDtype(c) || p.iqr === null || p.iqr <= 0 || p.unique < MIN_DISTINCT_FOR_OUTLIERS) continue;
    const nonNull = plan.nonNull(c.name);
    const share = nonNull === 0 ? 0 : (p.outlier_count / nonNull) * 100;
    if (share <= HEAVY_OUTLIER_PERCENT) continue;
    const lo = (p.percentiles.p25 ?? 0) - 1.5 * p.iqr;
    const hi = (p.percentiles.p75 ?? 0) + 1.5 * p.iqr;
    plan.add(
      { op: 'handle_outliers', column: c.name, method: 'iqr', action: 'clip' },
      `${quoted(c.name)} has ${n(p.outlier_count)} values (${pct(share)}) outside 1.5 IQR of its quartiles (${x3(lo)} to ${x3(hi)}): clip them to those bounds`,
    );
  }

  // Indicators add columns: never past the table's column limit (the validation would refuse the imputation then).
  let width = facts.columns.length - dropped.size;
  const names = new Set(facts.columns.map((c) => c.name));
  for (const c of kept) {
    const p = plan.profile(c.name);
    if (!p || p.missing === 0 || c.dtype === 'datetime64') continue;
    const indicator = p.missing_percent > INDICATOR_MISSING_PERCENT && !names.has(`${c.name}_missing`) && width < DEFAULT_MAX_COLUMNS;
    if (indicator) width++;
    const gaps = `${quoted(c.name)} is missing in ${n(p.missing)} of ${n(rows)} rows (${pct(p.missing_percent)})`;
    const flag = indicator ? `, and mark the gaps in ${quoted(`${c.name}_missing`)} (over ${INDICATOR_MISSING_PERCENT}% missing)` : '';
    if (p.type === 'numeric') {
      const skewed = p.skewness !== null && Math.abs(p.skewness) > SKEWED;
      const strategy = skewed ? 'median' : 'mean';
      const value = skewed ? p.percentiles.p50 : p.mean;
      const shape = skewed ? `skewed (skewness ${x3(p.skewness)})` : `not skewed (skewness ${x3(p.skewness)})`;
      plan.add({ op: 'impute', column: c.name, strategy, indicator }, `${gaps}: fill with its ${strategy} (${x3(value)}) as it is ${shape}${flag}`);
    } else {
      const [mode] = Object.entries(p.top_values)[0] ?? [];
      plan.add({ op: 'impute', column: c.name, strategy: 'mode', indicator }, `${gaps}: fill with its most frequent value${mode === undefined ? '' : ` (${quoted(mode)})`}${flag}`);
    }
  }
}

/** transform: low-cardinality categories one-hot encoded (never the target); nothing binned by default. */
function planTransform(plan: Plan): void {
  for (const c of plan.facts.columns) {
    if (c.dtype !== 'category' || plan.isTarget(c.name)) continue;
    const p = plan.categorical(c.name);
    if (!p || p.unique < 2 || p.unique > ONE_HOT_MAX_CATEGORIES) continue;
    const shown = Object.keys(p.top_values).slice(0, 4).map(quoted).join(', ');
    plan.add(
      { op: 'one_hot_encode', column: c.name, max_categories: p.unique, keep_original: false },
      `${quoted(c.name)} has ${n(p.unique)} categories (${shown}${p.unique > 4 ? ', ...' : ''}): one 0/1 column each, which every model can use`,
    );
  }
}

/** Names of date parts: `<column>_year` etc. */
const PART_NAMES = { year: 'year', month: 'month', weekday: 'weekday' } as const;

/** features: year/month/weekday of each datetime column (never the target), then the raw datetime dropped. */
function planFeatures(plan: Plan): void {
  const { facts } = plan;
  const names = new Set(facts.columns.map((c) => c.name));
  const raw: string[] = [];
  for (const c of facts.columns) {
    if (c.dtype !== 'datetime64' || plan.isTarget(c.name)) continue;
    const p = plan.categorical(c.name);
    if (!p || p.unique === 0) continue;
    const minYear = p.min ? Number(p.min.slice(0, 4)) : NaN;
    const maxYear = p.max ? Number(p.max.slice(0, 4)) : NaN;
    // A single year is a constant, not a feature.
    const parts = (Object.keys(PART_NAMES) as (keyof typeof PART_NAMES)[]).filter((part) => part !== 'year' || minYear !== maxYear);
    const made = parts.map((part) => ({ part, name: `${c.name.slice(0, 240)}_${PART_NAMES[part]}` })).filter((d) => !names.has(d.name));
    if (made.length === 0) continue;
    raw.push(c.name);
    made.forEach(({ part, name }, i) => {
      names.add(name);
      const why =
        i === 0
          ? `${quoted(c.name)} spans ${p.min?.slice(0, 10) ?? '?'} to ${p.max?.slice(0, 10) ?? '?'}: models read a date through its parts (${made.map((d) => quoted(d.name)).join(', ')})`
          : `${PART_NAMES[part]} of ${quoted(c.name)} as a number`;
      plan.add({ op: 'derive', name, expression: `${part}(${expressionIdentifier(c.name)})` }, why);
    });
  }
  if (raw.length > 0) {
    plan.add(
      { op: 'drop_columns', columns: raw },
      `${raw.map(quoted).join(', ')} ${raw.length === 1 ? 'is' : 'are'} now in ${raw.length === 1 ? 'its' : 'their'} year/month/weekday columns: a raw timestamp is an identifier-like value to a model`,
    );
  }
}

/** A column name as the expression grammar (expression.ts) reads any name: double-quoted, inner quotes doubled. */
export function expressionIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
