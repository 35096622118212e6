/**
 * The builder's operations: a closed, typed set. A proposal (from the deterministic planner, an LLM or a user's edit)
 * is a list of these, validated by {@link operationSchema} and then against the table's columns (validate.ts) before
 * anything runs; execution compiles each one to DuckDB SQL with quoted identifiers and escaped literals (compile.ts).
 * Nothing outside this set can run: there is no free SQL and no code, only `derive`/`filter_rows` expressions in the
 * small typed grammar of expression.ts.
 *
 * The same schema is the JSON schema an LLM answers through (llm-planner.ts) and the OpenAPI shape of a step's
 * `operations`, so the three can never disagree.
 */
import { z } from 'zod';

/** Column names as the canonical table allows them (ingest keeps headers up to this length). */
const columnName = z.string().min(1).max(256);
const columns = z.array(columnName).min(1).max(2000);
/** `derive`/`filter_rows` expressions (expression.ts): short formulas, not programs. */
const expression = z.string().min(1).max(2000);

/** Target types of `cast`, in the contract's dtypes' terms. */
export const CAST_TYPES = ['int64', 'float64', 'bool', 'datetime64', 'category', 'object'] as const;

export const operationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('drop_columns'), columns }),
  z.object({ op: z.literal('rename_column'), column: columnName, to: columnName }),
  /** Values that do not convert become null (`on_error: 'null'`) or fail the execution, naming a value (`'fail'`). */
  z.object({ op: z.literal('cast'), column: columnName, to: z.enum(CAST_TYPES), on_error: z.enum(['null', 'fail']).default('null') }),
  /**
   * Text to datetime64. `format` is a strptime format (%Y-%m-%d, %d/%m/%Y %H:%M, ...); without it the common ISO,
   * US and European forms are tried in order and the first that parses most values wins. Values that do not parse
   * become null (`on_error: 'null'`) or fail the execution, naming one (`'fail'`).
   */
  z.object({
    op: z.literal('parse_dates'),
    column: columnName,
    format: z.string().min(2).max(64).optional(),
    on_error: z.enum(['null', 'fail']).default('null'),
  }),
  /** Missing values filled; `value` only with `strategy: 'constant'`. `indicator` adds `<column>_missing` (0/1) first. */
  z.object({
    op: z.literal('impute'),
    column: columnName,
    strategy: z.enum(['mean', 'median', 'mode', 'constant']),
    value: z.union([z.string().max(1000), z.number(), z.boolean()]).optional(),
    indicator: z.boolean().default(false),
  }),
  /**
   * Values outside the bounds: clipped to them, flagged in `<column>_outlier` (0/1), or their rows dropped. Bounds are
   * Tukey's fences (`iqr`, factor 1.5 by default) or the given percentiles (`percentile`, 0-100), computed on the
   * step's input.
   */
  z.object({
    op: z.literal('handle_outliers'),
    column: columnName,
    method: z.enum(['iqr', 'percentile']).default('iqr'),
    factor: z.number().positive().max(100).optional(),
    lower_percentile: z.number().min(0).max(100).optional(),
    upper_percentile: z.number().min(0).max(100).optional(),
    action: z.enum(['clip', 'flag', 'drop_rows']).default('clip'),
  }),
  /** Exact duplicate rows (over `columns`, or every column) removed, keeping the first in file order. */
  z.object({ op: z.literal('deduplicate'), columns: columns.optional() }),
  /** Rows where `condition` (a boolean expression) is true are kept; null counts as false. */
  z.object({ op: z.literal('filter_rows'), condition: expression }),
  /**
   * One 0/1 column `<column>_<value>` per value among the `max_categories` most frequent (the rest share
   * `<column>_other`); the source column is dropped unless `keep_original`.
   */
  z.object({
    op: z.literal('one_hot_encode'),
    column: columnName,
    max_categories: z.number().int().min(1).max(100).default(20),
    keep_original: z.boolean().default(false),
  }),
  /** Values to 0, 1, 2... in `order` (values not in it: null), or in sorted order when `order` is omitted. */
  z.object({ op: z.literal('ordinal_encode'), column: columnName, order: z.array(z.string().max(1000)).min(1).max(1000).optional() }),
  /** A numeric column to bins: `bins` equal-width or quantile bins, or explicit `edges`. Into `into` (default: in place). */
  z.object({
    op: z.literal('bin'),
    column: columnName,
    strategy: z.enum(['equal_width', 'quantile', 'edges']).default('quantile'),
    bins: z.number().int().min(2).max(100).optional(),
    edges: z.array(z.number()).min(2).max(101).optional(),
    into: columnName.optional(),
  }),
  /** A new (or replaced) column from a typed expression (expression.ts), e.g. `price / carat`, `year(sold_at)`. */
  z.object({ op: z.literal('derive'), name: columnName, expression }),
  /**
   * Columns of another dataset version of the same project joined on key columns. Right-hand columns that clash with
   * left-hand names get `_right`; `how: 'left'` keeps every row (a key matching several rows fails the execution rather
   * than multiplying rows).
   */
  z.object({
    op: z.literal('join'),
    dataset_version_id: z.uuid(),
    on: z
      .array(z.object({ left: columnName, right: columnName }))
      .min(1)
      .max(10),
    how: z.enum(['left', 'inner']).default('left'),
    columns: z.array(columnName).min(1).max(2000).optional(),
  }),
  /** A text column split on `separator` into the named columns (missing parts null, extra parts dropped). */
  z.object({
    op: z.literal('split_column'),
    column: columnName,
    separator: z.string().min(1).max(16),
    into: z.array(columnName).min(2).max(50),
    keep_original: z.boolean().default(false),
  }),
  /** Text tidied: trimmed, inner whitespace collapsed, case changed, empty strings (after trimming) to null. */
  z.object({
    op: z.literal('normalize_text'),
    columns,
    trim: z.boolean().default(true),
    collapse_whitespace: z.boolean().default(true),
    case: z.enum(['lower', 'upper', 'keep']).default('keep'),
    empty_as_null: z.boolean().default(true),
  }),
]);

export type Operation = z.infer<typeof operationSchema>;
export type OperationKind = Operation['op'];
/** An operation as sent, before defaults are filled in. */
export type OperationInput = z.input<typeof operationSchema>;

/** At most this many operations in one step, and in one recipe. */
export const MAX_STEP_OPERATIONS = 100;
export const MAX_RECIPE_OPERATIONS = 500;

export const operationListSchema = z.array(operationSchema).max(MAX_STEP_OPERATIONS);

/**
 * The steps of every session, in order. Each step may hold any operation; the planner puts each kind where a person
 * would look for it. `validate` holds no operations: executing it scores the result (quality checks, target present).
 */
export const STEP_NAMES = ['understand', 'clean', 'transform', 'features', 'validate'] as const;
export type StepName = (typeof STEP_NAMES)[number];

export const STEP_STATUSES = ['proposed', 'executing', 'executed', 'failed', 'rejected'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Why an operation was proposed, one line a person reads beside it (planner or LLM). */
export interface ProposedOperation {
  operation: Operation;
  reason: string;
}
