/**
 * The closed list of functions an expression (expression.ts) may call: for each, how many arguments it takes, the
 * type it answers for its arguments' types, and its DuckDB SQL. Nothing outside this list can be called.
 */
import type { TypedExpression, Typed, ValueType } from './expression';

export interface FunctionSpec {
  /** Fewest and most arguments. */
  min: number;
  max: number;
  /** The result type, or a message saying which argument has the wrong type. */
  check(args: TypedExpression[]): Typed | string;
  sql(args: string[], nodes: TypedExpression[]): string;
}

const NUM: Typed = { type: 'number', integer: false };
const INT: Typed = { type: 'number', integer: true };
const TEXT: Typed = { type: 'text', integer: false };
const BOOL: Typed = { type: 'bool', integer: false };

/** `args` all of type `type`, else the message naming the first that is not. */
function allOf(args: TypedExpression[], type: ValueType): string | null {
  const bad = args.findIndex((a) => a.type !== type);
  return bad < 0 ? null : `argument ${bad + 1} must be a ${type}, not a ${args[bad].type}`;
}

/** The common type of arguments that must agree (numbers mix: whole only if all are). */
function common(args: TypedExpression[]): Typed | string {
  const type = args[0].type;
  const bad = args.findIndex((a) => a.type !== type);
  if (bad >= 0) return `argument ${bad + 1} is a ${args[bad].type} but argument 1 is a ${type}`;
  return { type, integer: type === 'number' && args.every((a) => a.integer) };
}

const numeric = (result: (args: TypedExpression[]) => Typed, sql: FunctionSpec['sql'], min = 1, max = 1): FunctionSpec => ({
  min,
  max,
  check: (args) => allOf(args, 'number') ?? result(args),
  sql,
});
const textual = (result: Typed, sql: FunctionSpec['sql'], min = 1, max = 1): FunctionSpec => ({
  min,
  max,
  check: (args) => allOf(args, 'text') ?? result,
  sql,
});
const datePart = (sql: (a: string) => string): FunctionSpec => ({ min: 1, max: 1, check: (args) => allOf(args, 'datetime') ?? INT, sql: ([a]) => sql(a) });
const keepsWhole = (args: TypedExpression[]): Typed => (args[0].integer ? INT : NUM);
/** A math function defined only where `domain` holds; elsewhere null (DuckDB would raise an error for the row). */
const guarded = (fn: string, domain: string) => (args: string[]) => `(CASE WHEN ${args[0]} ${domain} THEN ${fn}(${args[0]}) END)`;

/** The functions an expression may call, by lower-case name. */
export const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  abs: numeric(keepsWhole, ([a]) => `abs(${a})`),
  round: {
    min: 1,
    max: 2,
    check: (args) => allOf(args, 'number') ?? (args[1] && !args[1].integer ? 'argument 2 (digits) must be a whole number' : keepsWhole(args)),
    sql: ([a, d]) => `round(${a}, CAST(${d ?? '0'} AS INTEGER))`,
  },
  floor: numeric(keepsWhole, ([a]) => `floor(${a})`),
  ceil: numeric(keepsWhole, ([a]) => `ceil(${a})`),
  ln: numeric(() => NUM, guarded('ln', '> 0')),
  log10: numeric(() => NUM, guarded('log10', '> 0')),
  sqrt: numeric(() => NUM, guarded('sqrt', '>= 0')),
  exp: numeric(
    () => NUM,
    ([a]) => `exp(${a})`,
  ),
  pow: numeric(
    () => NUM,
    ([a, b]) => `pow(CAST(${a} AS DOUBLE), CAST(${b} AS DOUBLE))`,
    2,
    2,
  ),
  least: { min: 2, max: 20, check: common, sql: (args) => `least(${args.join(', ')})` },
  greatest: { min: 2, max: 20, check: common, sql: (args) => `greatest(${args.join(', ')})` },
  coalesce: { min: 2, max: 20, check: common, sql: (args) => `coalesce(${args.join(', ')})` },
  if: {
    min: 3,
    max: 3,
    check: (args) => (args[0].type !== 'bool' ? `argument 1 (the condition) must be a bool, not a ${args[0].type}` : common(args.slice(1))),
    sql: ([c, a, b]) => `(CASE WHEN ${c} THEN ${a} ELSE ${b} END)`,
  },
  lower: textual(TEXT, ([a]) => `lower(${a})`),
  upper: textual(TEXT, ([a]) => `upper(${a})`),
  trim: textual(TEXT, ([a]) => `trim(${a})`),
  length: textual(INT, ([a]) => `length(${a})`),
  /** Any values, as text; a null part counts as empty (as SQL's concat does). */
  concat: { min: 1, max: 20, check: () => TEXT, sql: (args) => `concat(${args.map((a) => `CAST(${a} AS VARCHAR)`).join(', ')})` },
  /** substr(text, start[, length]), 1-based as in SQL. */
  substr: {
    min: 2,
    max: 3,
    check: (args) =>
      args[0].type !== 'text' ? `argument 1 must be a text, not a ${args[0].type}` : args.slice(1).every((a) => a.type === 'number' && a.integer) ? TEXT : 'start and length must be whole numbers',
    sql: ([t, s, n]) => (n === undefined ? `substr(${t}, ${s})` : `substr(${t}, ${s}, ${n})`),
  },
  contains: textual(BOOL, ([a, b]) => `contains(${a}, ${b})`, 2, 2),
  starts_with: textual(BOOL, ([a, b]) => `starts_with(${a}, ${b})`, 2, 2),
  year: datePart((a) => `year(${a})`),
  month: datePart((a) => `month(${a})`),
  day: datePart((a) => `day(${a})`),
  /** Monday = 0 ... Sunday = 6, as pandas' `dt.weekday`. */
  weekday: datePart((a) => `(isodow(${a}) - 1)`),
  hour: datePart((a) => `hour(${a})`),
  /** Whole days from b to a (a − b, floored), as pandas' `(a - b).dt.days`. */
  date_diff_days: {
    min: 2,
    max: 2,
    check: (args) => allOf(args, 'datetime') ?? INT,
    sql: ([a, b]) => `CAST(floor((epoch(${a}) - epoch(${b})) / 86400.0) AS BIGINT)`,
  },
};
